"""This browser session's UI state: the gateway, the session handle, the editor and the history.

app.py sets ``st.session_state.gateway`` and ``st.session_state.session_handle``; every page
reads them through ``gateway()`` and ``handle()``. Pages see the gateway only as the contract.
"""
from __future__ import annotations

import streamlit as st

from gateway import GatewayContract, GatewayError

DEFAULT_SQL = "SELECT * FROM range(10)"


def gateway() -> GatewayContract:
    """The logged-in user's gateway, which app.py sets. A page that Streamlit ran without app.py (its old
    pages/ navigation, for an address like /admin before app.py ever ran) goes through app.py first, which
    shows the login form: never a traceback, and nothing of the gateway without a login."""
    if "gateway" not in st.session_state:
        st.switch_page("app.py")
    return st.session_state.gateway


def handle() -> str:
    return st.session_state.session_handle


def show_session_notice() -> None:
    """Say so once when an expired session was replaced by a new one. The notice has a slot of its own, empty
    in every other run: what follows keeps its place in the page, and the browser rebuilt a container (the
    editor's, with its frame: focus, cursor and undo lost) whose place changed between two runs."""
    slot = st.empty()
    if notice := st.session_state.pop("session_notice", None):
        slot.warning(notice, icon=":material/schedule:")


def editor_text() -> str:
    return st.session_state.setdefault("editor_text", DEFAULT_SQL)


def set_editor_text(text: str) -> None:
    """Replace the editor's content (the component takes it when the version changes)."""
    st.session_state.editor_text = text
    st.session_state.editor_version = st.session_state.get("editor_version", 0) + 1


def editor_version() -> int:
    return st.session_state.setdefault("editor_version", 0)


def open_in_editor(text: str, run: bool = False) -> None:
    """Ask the editor page to load ``text`` (and run it) on its next render."""
    st.session_state.editor_request = {"action": "run_all" if run else "load", "text": text}


def pop_editor_request():
    return st.session_state.pop("editor_request", None)


def history() -> list:
    return st.session_state.setdefault("history", [])


def next_history_id() -> int:
    st.session_state.history_counter = st.session_state.get("history_counter", 0) + 1
    return st.session_state.history_counter


CAPTION_DATABASE_KEY = "caption_database"  # catalog.database the page's "Current database" caption shows


def bump_schema_generation() -> int:
    """After a statement ends: what completion and the catalog list may have changed.

    A run drawn by the editor's fragments ends without a page rerun, so the caption above them kept the
    database of before a ``USE``; when the session's database is no longer the one shown, the page reruns.
    """
    st.session_state.schema_generation = st.session_state.get("schema_generation", 0) + 1
    st.session_state.pop("catalog_tables", None)
    _rerun_if_database_changed()
    return st.session_state.schema_generation


def _rerun_if_database_changed() -> None:
    shown = st.session_state.get(CAPTION_DATABASE_KEY)
    if shown is None or "gateway" not in st.session_state or not st.session_state.get("session_handle"):
        return
    try:
        current = f"{gateway().get_current_catalog(handle())}.{gateway().get_current_database(handle())}"
    except GatewayError:  # the caption says "?" itself; nothing to redraw for
        return
    if current != shown:
        st.session_state[CAPTION_DATABASE_KEY] = current
        st.rerun(scope="app")


def dictionary_generation() -> int:
    """Counts this browser session's runs that may have changed the catalog (``note_statements``)."""
    return st.session_state.get("dictionary_generation", 0)


def note_statements(kinds) -> bool:
    """Statements of these kinds ran (None or none: not known): unless all only read, the editor loads a new
    dictionary. True when the catalog may have changed: the gateway's own test (``changes_schema``: each kind's
    ``read_only``), the one by which it refreshes its completion caches after a statement."""
    from gateway import changes_schema  # the implementation loads on first use (gateway/__init__.py)

    if kinds and not changes_schema(kinds):
        return False
    st.session_state.dictionary_generation = dictionary_generation() + 1
    return True


def schema_generation() -> int:
    return st.session_state.get("schema_generation", 0)


def user() -> str:
    """The logged-in user's name (``local`` without authentication): the workspace calls' ``user``."""
    return gateway().whoami().name
