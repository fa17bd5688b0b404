"""Download file names: after the query (saved query name, the tab's own title, else the statement's
first words) and the time the run started, e.g. ``orders_by_country-2026-11-23T18-40-05.csv``."""
from __future__ import annotations

import re
import time
from typing import Optional

_DEFAULT_TAB_TITLE = re.compile(r"^Query \d+$")   # the store's "Query N" says nothing about the query
_FIRST_WORDS = 5
_MAX_STEM = 60


def slug(text: str) -> str:
    """Lower-case words joined by ``_``: letters, digits and ``_`` only (safe on every file system)."""
    words = re.findall(r"[^\W_]+", text.lower())
    return "_".join(words)[:_MAX_STEM].strip("_")


def query_name(sql: str, tab_title: Optional[str] = None, saved_name: Optional[str] = None) -> str:
    """The name part: the saved query's name, else a title the user gave the tab, else the first words."""
    for candidate in (saved_name, None if tab_title and _DEFAULT_TAB_TITLE.match(tab_title) else tab_title):
        if candidate and slug(candidate):
            return slug(candidate)
    without_comments = re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql, flags=re.S)
    return slug(" ".join(without_comments.split()[:_FIRST_WORDS])) or "result"


def file_name(name: str, started_at: float, extension: str) -> str:
    """``name-YYYY-MM-DDTHH-MM-SS.extension`` in the workbench's local time (no ``:`` for Windows)."""
    return f"{name}-{time.strftime('%Y-%m-%dT%H-%M-%S', time.localtime(started_at))}.{extension}"
