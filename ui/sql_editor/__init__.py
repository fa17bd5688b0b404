"""The SQL editor widget: Ace in a Streamlit component, with completions from the gateway.

Why our own component: streamlit-ace 0.1.1 has no hook for custom completions, and
streamlit-code-editor takes one static ``completions`` list, so candidates cannot depend on
the cursor (tables after FROM, the columns of ``o.`` after an alias). This component asks
Python for the session's dictionary once (tables, functions, keywords) and completes in the
browser from it; what depends on the statement it asks the gateway's engine with ``fetch`` (a session-scoped
credential): on Streamlit's own server (ui/completion_route.py, the default), else through REST's
complete-statement, else (visibly) through a rerun.
It sends its text only on an action, on Ctrl+Enter or after a pause in typing.
Ace 1.45 (BSD licence) is vendored in ``frontend/ace`` so it works without internet.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import streamlit.components.v1 as components

_FRONTEND = Path(__file__).resolve().parent / "frontend"
_component = components.declare_component("sql_editor", path=str(_FRONTEND))


def sql_editor(text: str, version: int, *, completions: Optional[dict] = None, columns: Optional[dict] = None,
               dictionary: Optional[dict] = None, dict_fp: Optional[str] = None,
               markers: Optional[list[dict]] = None, tab: Optional[str] = None, running: bool = False,
               seen: Optional[list] = None, completion_api: Optional[dict] = None, on_change=None,
               height: int = 260, key: str = "sql_editor") -> Optional[dict]:
    """Render the editor; returns its last event (``id``, ``action``, ``text``, ``cursor``, selection).

    ``text`` replaces the editor's content only when ``version`` changes; ``completions``
    answers a pending completion request (``{"id", "items"}``); ``markers`` are error
    positions ``{"row", "column", "text"}`` (0-based). ``dictionary`` (sent only when the component
    does not hold ``dict_fp`` yet) lets the browser complete without a round trip; ``columns``
    answers a request for the columns of some tables (``{"id", "columns": {table: [...]}}``).
    ``tab`` names the editor tab whose text this is (events carry it back); ``running`` says a
    statement of this tab runs (the toolbar shows it); ``seen`` lists the event ids Python has acted on;
    ``completion_api`` (``{"route", "url", "session", "token", "reason"}``, see ``editor_panel.direct_completion``)
    lets the browser ask the engine itself, on the same-origin ``route`` or REST's ``url`` (no rerun per
    completion context); without either, completion requests go through reruns and ``reason`` says why.
    ``on_change`` is called (no arguments) when a new event arrives, before the rerun it causes.
    """
    return _component(text=text, version=version, completions=completions, columns=columns,
                      dictionary=dictionary, dict_fp=dict_fp, markers=markers or [], tab=tab, running=running,
                      seen=seen or [], completion_api=completion_api,
                      height=height, debounce_ms=500, key=key, default=None,
                      on_change=on_change)
