"""Session: configuration with SET and RESET, the session's operations, and where it runs."""
import streamlit as st

from ui import session_panel, state

gateway, session = state.gateway(), state.handle()

st.title("Session")
state.show_session_notice()
config_tab, operations_tab, about_tab = st.tabs(["Configuration", "Operations", "About"])
with config_tab:
    session_panel.render_config(gateway, session)
with operations_tab:
    session_panel.render_operations(gateway, session)
with about_tab:
    session_panel.render_info(gateway, session)
