"""The user's statement history from the workbench store: every statement of every session (text,
status, duration, rows, error class, time), searchable, kept across reloads and restarts; open one
in a tab or run it again."""
from __future__ import annotations

import html

import streamlit as st

from gateway import GatewayError

from . import state
from .tabs import user

SHOWN = 50
FRAGMENT = "history_view"   # a run from the editor reruns this fragment (ui/editor_panel.py), not the page
_ICONS = {"FINISHED": ":material/check_circle:", "ERROR": ":material/error:", "CANCELED": ":material/stop_circle:",
          "RUNNING": ":material/hourglass_top:"}


def kinds_shown(kinds) -> str:
    """The statements' kinds as the gateway read them: ``QUERY``, ``CREATE, INSERT, QUERY``, or the
    first few and how many more for a long script."""
    distinct = list(dict.fromkeys(k.replace("_", " ") for k in kinds))
    shown = ", ".join(distinct[:4]) + (f" +{len(distinct) - 4} more" if len(distinct) > 4 else "")
    return shown if len(kinds) == 1 else f"{len(kinds)} statements: {shown}"


def _rows(n) -> str:
    return "1 row" if n == 1 else f"{n:,} rows"


@st.fragment(key=FRAGMENT)
def render(gateway, session) -> None:
    search = st.text_input("Search the history", key="history_search", placeholder="part of a statement, any case",
                           max_chars=1000)
    try:
        entries = gateway.list_history(user(), search=search.strip(), limit=SHOWN)
    except GatewayError as exc:
        st.error(f"The history could not be read: {exc.message}")
        return
    if not entries:
        st.info("No statement matches." if search.strip() else
                "No statements yet. Run one and it shows up here (it stays after a reload or a restart), "
                "ready to open or run again.")
        return
    st.caption(f"The {len(entries)} newest statement(s){' matching' if search.strip() else ''}, newest first.")
    for entry in entries:
        line, open_button, rerun_button = st.columns([8, 1, 1], vertical_alignment="center")
        facts = [entry.started_at.astimezone().strftime("%Y-%m-%d %H:%M:%S"), entry.status]
        if entry.kinds:
            facts.append(kinds_shown(entry.kinds))
        if entry.duration_ms is not None:
            facts.append(f"{entry.duration_ms / 1000:.2f} s")
        if entry.rows is not None:
            facts.append(_rows(entry.rows))
        if entry.error_class:
            facts.append(entry.error_class)
        text = entry.statement.strip()
        first_line = text.splitlines()[0] if text else ""
        more = " …" if len(text.splitlines()) > 1 or len(first_line) > 110 else ""
        with line:
            st.markdown(f"{_ICONS.get(entry.status, '•')} <small>{html.escape(' · '.join(facts))}</small>",
                        unsafe_allow_html=True)  # facts are the gateway's, escaped all the same
            st.text(first_line[:110] + more)   # plain text: no Markdown in a statement
        if open_button.button("Open", key=f"history_open_{entry.entry_id}", help="Open it in the editor (a new tab "
                              "unless the tab shown is empty)"):
            state.open_in_editor(entry.statement)
            st.rerun()
        if rerun_button.button("Re-run", key=f"history_rerun_{entry.entry_id}", help="Run it again now"):
            state.open_in_editor(entry.statement, run=True)
            st.rerun()
