"""Admin page: every session of every user with its running statements (user, age, statement, Spark
progress), and buttons to cancel a statement or close a session; the users and their admin flags."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from gateway import GatewayError


def render(gateway) -> None:
    try:
        sessions = gateway.admin_list_sessions()
    except GatewayError as exc:
        st.error(exc.message)
        return
    running = [(s, op) for s in sessions for op in s.operations]
    st.caption(f"{len(sessions)} sessions open, {len(running)} statements running or waiting. "
               f"Limits per user: auth.max_sessions_per_user, auth.max_running_per_user.")
    if st.button("Refresh", key="admin_refresh", icon=":material/refresh:"):
        st.rerun()
    st.subheader("Running statements")
    if not running:
        st.info("No statement is running.")
    for session, op in running:
        left, middle, right = st.columns([2, 6, 1.2])
        left.markdown(f"**{session.user}**  \n{op.status} · {op.age_s:.0f} s")
        middle.code(op.statement[:500], language="sql")
        middle.progress(op.progress or 0.0, text=op.progress_summary)
        if right.button("Cancel", key=f"cancel_{op.operation_handle}"):
            _act(lambda: gateway.admin_cancel_operation(session.session_handle, op.operation_handle),
                 f"Canceled {session.user}'s statement.")
    st.subheader("Sessions")
    st.dataframe(pd.DataFrame([{"user": s.user, "name": s.name, "age (s)": s.age_s, "idle (s)": s.idle_s,
                                "running": len(s.operations), "handle": s.session_handle} for s in sessions],
                              columns=["user", "name", "age (s)", "idle (s)", "running", "handle"]),
                 hide_index=True, width="stretch")
    if sessions:
        pick = st.selectbox("Close a session", sessions, key="admin_close_pick",
                            format_func=lambda s: f"{s.user}: {s.name} ({s.session_handle[:8]})")
        if st.button("Close session", key="admin_close"):
            _act(lambda: gateway.admin_close_session(pick.session_handle), f"Closed {pick.user}'s session.")
    render_engines(gateway)
    st.subheader("Users")
    users = gateway.list_users()
    st.dataframe(pd.DataFrame([{"user": u.name, "admin": u.admin, "password": u.has_password} for u in users],
                              columns=["user", "admin", "password"]), hide_index=True, width="stretch")
    add, change = st.columns(2, gap="large")
    with add.form("admin_add_user", border=True):
        st.markdown("**Add a user** (or set a new password)")
        name = st.text_input("Name", key="admin_user_name")
        password = st.text_input("Password (8 characters or more)", type="password", key="admin_user_password")
        admin = st.checkbox("Admin", key="admin_user_admin")
        if st.form_submit_button("Save user", type="primary"):
            _act(lambda: gateway.add_user(name, password or None, admin), f"User {name.strip()} saved.")
    if users:
        with change.form("admin_change_user", border=True):
            st.markdown("**Change a user**")
            pick = st.selectbox("User", [u.name for u in users], key="admin_change_pick")
            action = st.radio("Action", ["Make admin", "No longer admin", "Remove"], key="admin_change_action",
                              horizontal=True)
            if st.form_submit_button("Apply"):
                if action == "Remove":
                    _act(lambda: gateway.remove_user(pick), f"User {pick} removed.")
                else:
                    _act(lambda: gateway.set_user_admin(pick, action == "Make admin"), f"User {pick} changed.")


ENGINE_COLUMNS = ["key", "state", "sessions", "uptime (s)", "heap (MiB)", "address", "Spark UI", "id"]


def _mib(value) -> str:
    return f"{value / 2**20:,.0f}" if value else ""


def engine_rows(engines: list[dict]) -> list[dict]:
    """The engines table's rows (also the session page's): heap used / max, or why it is not known."""
    return [{"key": e["key"], "state": e["state"], "sessions": e["sessions"], "uptime (s)": e["uptime_s"],
             "heap (MiB)": f"{_mib(e['heap_used_bytes'])} / {_mib(e['heap_max_bytes'])}" if e["heap_used_bytes"]
             else (e["heap_note"] or ""), "address": e["address"], "Spark UI": e["spark_ui"] or "",
             "id": e["engine_id"]} for e in engines]


def render_engines(gateway) -> None:
    """Managed engines (engine.kind = managed): each with its key, sessions, uptime, heap, Spark UI; stop one."""
    engines = gateway.admin_list_engines()
    if not engines and gateway.get_setting("engine.kind") != "managed":
        return
    st.subheader("Engines")
    st.dataframe(pd.DataFrame(engine_rows(engines), columns=ENGINE_COLUMNS), hide_index=True, width="stretch",
                 column_config={"Spark UI": st.column_config.LinkColumn("Spark UI")})
    if engines:
        pick = st.selectbox("Stop an engine", engines, key="admin_engine_pick",
                            format_func=lambda e: f"{e['key']} ({e['state']}, {e['engine_id'][:8]})")
        if st.button("Stop engine", key="admin_engine_stop"):
            _act(lambda: gateway.admin_stop_engine(pick["engine_id"]), f"Stopped the engine of {pick['key']}.")


def _act(action, done: str) -> None:
    try:
        action()
    except GatewayError as exc:
        st.error(exc.message)
    else:
        st.toast(done)
        st.rerun()
