"""The SQL editor widget: Ace in a Streamlit component, with completions from the gateway.

Why our own component: streamlit-ace 0.1.1 has no hook for custom completions, and
streamlit-code-editor takes one static ``completions`` list, so candidates cannot depend on
the cursor (tables after FROM, the columns of ``o.`` after an alias). This component asks
Python for candidates at the cursor through the component protocol, caches them per
context, and sends its text only on an action, on Ctrl+Enter or after a pause in typing.
Ace 1.45 (BSD licence) is vendored in ``frontend/ace`` so it works without internet.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import streamlit.components.v1 as components

_FRONTEND = Path(__file__).resolve().parent / "frontend"
_component = components.declare_component("sql_editor", path=str(_FRONTEND))


def sql_editor(text: str, version: int, *, completions: Optional[dict] = None,
               markers: Optional[list[dict]] = None, schema_generation: int = 0,
               height: int = 260, key: str = "sql_editor") -> Optional[dict]:
    """Render the editor; returns its last event (``id``, ``action``, ``text``, ``cursor``, selection).

    ``text`` replaces the editor's content only when ``version`` changes; ``completions``
    answers a pending completion request (``{"id", "items"}``); ``markers`` are error
    positions ``{"row", "column", "text"}`` (0-based).
    """
    return _component(text=text, version=version, completions=completions, markers=markers or [],
                      schema_generation=schema_generation, height=height, debounce_ms=800,
                      key=key, default=None)
