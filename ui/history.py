"""This session's query history: statement, status, duration, rows; open or re-run any of them."""
from __future__ import annotations

import time

import streamlit as st

from . import state

SHOWN = 30
_ICONS = {"FINISHED": ":material/check_circle:", "ERROR": ":material/error:", "CANCELED": ":material/stop_circle:",
          "RUNNING": ":material/hourglass_top:"}


def render(gateway, session) -> None:
    entries = list(reversed(state.history()))
    if not entries:
        st.info("No statements yet in this session. Run one and it shows up here, ready to run again.")
        return
    st.caption(f"{len(entries)} statement(s) in this session, newest first.")
    for entry in entries[:SHOWN]:
        line, open_button, rerun_button = st.columns([8, 1, 1], vertical_alignment="center")
        when = time.strftime("%H:%M:%S", time.localtime(entry.started_at))
        facts = [when, entry.status]
        if entry.duration_s is not None:
            facts.append(f"{entry.duration_s:.2f} s")
        if entry.rows is not None:
            facts.append(f"{entry.rows:,} rows")
        if entry.error_class:
            facts.append(entry.error_class)
        first_line = entry.sql.strip().splitlines()[0] if entry.sql.strip() else ""
        more = " …" if len(entry.sql.strip().splitlines()) > 1 or len(first_line) > 110 else ""
        line.markdown(f"{_ICONS.get(entry.status, '•')} `{first_line[:110]}`{more}  \n"
                      f"<small>{' · '.join(facts)}</small>", unsafe_allow_html=True)
        if open_button.button("Open", key=f"history_open_{entry.id}", help="Put it in the editor"):
            state.open_in_editor(entry.sql)
            st.rerun()
        if rerun_button.button("Re-run", key=f"history_rerun_{entry.id}", help="Run it again now"):
            state.open_in_editor(entry.sql, run=True)
            st.rerun()
