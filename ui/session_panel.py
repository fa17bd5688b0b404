"""Session page: this session's configuration (SET and RESET from a form) and its operations."""
from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from gateway import GatewayError, OperationStatus


def render_config(gateway, session) -> None:
    config = gateway.get_session_config(session)
    notice = st.session_state.pop("config_done", None)   # said after the rerun that shows the new values
    needle = st.text_input("Filter settings", key="config_filter", placeholder="e.g. shuffle, ansi, timeZone")
    rows = [{"setting": k, "value": v} for k, v in config.items() if needle.lower() in k.lower()]
    st.dataframe(pd.DataFrame(rows, columns=["setting", "value"]), hide_index=True, width="stretch",
                 height=320)
    st.caption(f"{len(rows):,} of {len(config):,} settings")
    set_form, reset_form = st.columns(2, gap="large")
    with set_form.form("set_form", border=True):
        st.markdown("**SET** a setting for this session")
        key = st.text_input("Setting", key="set_key", placeholder="spark.sql.shuffle.partitions")
        value = st.text_input("Value", key="set_value", placeholder="8")
        if st.form_submit_button("SET", type="primary"):
            _configure(lambda: gateway.set_session_option(session, key, value),
                       f"`{key.strip()}` = `{value.strip()}` applied to this session.")
    with reset_form.form("reset_form", border=True):
        st.markdown("**RESET** a setting (empty: all of them) to its default")
        reset_key = st.text_input("Setting", key="reset_key", placeholder="spark.sql.shuffle.partitions")
        if st.form_submit_button("RESET"):
            done = (f"`{reset_key.strip()}` is back to its default in this session." if reset_key.strip()
                    else "Every setting is back to its default in this session.")
            _configure(lambda: gateway.reset_session_option(session, reset_key), done)
    if notice:
        st.success(notice)


def _configure(call, done: str) -> None:
    try:
        call()
    except GatewayError as exc:
        error = exc.to_json()
        st.error(f"**{error.get('error_class') or 'Error'}**: {error.get('root_cause')}")
        return
    st.session_state.config_done = done
    st.rerun()  # the settings grid above was drawn before this change: draw it again with the new value


def render_operations(gateway, session) -> None:
    operations = gateway.list_operations(session)
    if not operations:
        st.info("No open operations. Statements you run in the SQL editor show up here while they run "
                "or hold results; cancel or close them from here.")
        return
    now = time.time()
    for handle, info in sorted(operations, key=lambda pair: pair[1].submitted_at, reverse=True):
        text, cancel, close = st.columns([8, 1, 1], vertical_alignment="center")
        duration = info.duration_s if info.duration_s is not None else now - info.submitted_at
        first = info.statement.strip().splitlines()[0][:100] if info.statement.strip() else ""
        # The statement is the user's text: shown as plain text, never as Markdown or HTML (issue 27 item 10).
        text.markdown(f"**{info.status.value}** · {duration:.1f} s · {info.rows_fetched:,} rows fetched")
        text.text(first)
        text.caption(f"operation `{str(handle)[:8]}` · jobs {info.job_ids or '–'}")
        if cancel.button("Cancel", key=f"op_cancel_{handle}",
                         disabled=info.status not in (OperationStatus.PENDING, OperationStatus.RUNNING)):
            _act(gateway.cancel_operation, session, handle)
        if close.button("Close", key=f"op_close_{handle}"):
            _act(gateway.close_operation, session, handle)


def _act(call, session, handle) -> None:
    try:
        call(session, handle)
    except GatewayError as exc:
        st.toast(exc.message, icon=":material/warning:")
    st.rerun()


def render_info(gateway, session) -> None:
    info = gateway.get_gateway_info()
    st.dataframe(pd.DataFrame([{"": k, "value": str(v)} for k, v in info.items()] +
                              [{"": "session", "value": str(session)}]), hide_index=True, width="stretch")
    engines = gateway.list_my_engines()
    if engines:  # engine.kind = managed: the engines this user's sessions run on
        from ui.admin_panel import ENGINE_COLUMNS, engine_rows

        st.markdown("**Your engine**")
        st.dataframe(pd.DataFrame(engine_rows(engines), columns=ENGINE_COLUMNS), hide_index=True, width="stretch")
