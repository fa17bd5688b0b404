"""Spark SQL Workbench: the frame. Page config, the process-wide gateway, session binding, navigation."""
from __future__ import annotations

import streamlit as st

from gateway import GatewayService, SessionNotFoundError

st.set_page_config(page_title="Spark SQL Workbench", page_icon="⚡", layout="wide")


@st.cache_resource(show_spinner="Starting Spark (about 10 s on first start)…")
def get_gateway() -> GatewayService:
    """One gateway (and one root SparkSession) per process, shared by all browser sessions."""
    return GatewayService()


def bind_session(gateway: GatewayService):
    """This browser session's gateway session; the handle sits in the URL so a reload re-attaches."""
    handle = st.session_state.get("session_handle") or st.query_params.get("session")
    if handle:
        try:
            gateway.heartbeat(handle)
            st.session_state.session_handle = str(handle)
            return str(handle)
        except SessionNotFoundError:
            st.session_state.session_notice = "Your previous session expired; a new one was opened."
    handle = str(gateway.open_session(name="browser"))
    st.session_state.session_handle = handle
    st.query_params["session"] = handle
    return handle


gateway = get_gateway()
st.session_state.gateway = gateway
bind_session(gateway)

navigation = st.navigation([st.Page("pages/editor.py", title="SQL editor", icon="📝", default=True)])
navigation.run()
