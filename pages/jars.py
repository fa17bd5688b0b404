"""Jars (FLIP-214): upload or add jars, see their UDF classes, create functions, remove jars."""
import streamlit as st

from ui import jars_panel, state

gateway, session = state.gateway(), state.handle()

st.title("Jars and functions")
state.show_session_notice()
st.caption("Jars you add here belong to this browser session: other sessions do not see them or their "
           "functions. Spark itself shares loaded classes across the whole process.")
jars_panel.render_add(gateway, session)
jars_panel.render_jars(gateway, session)
