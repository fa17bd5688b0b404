"""Compiled plans (FLIP-190): compile the editor's statement, see its plan as a graph, compare two plans."""
import streamlit as st

from ui import plans_panel, state

gateway, session = state.gateway(), state.handle()

st.title("Compiled plans")
state.show_session_notice()
st.caption("A statement compiled once into a JSON plan that records what it depends on: Spark version, "
           "settings, table schemas, function versions. `EXECUTE PLAN` runs it only if none of that changed.")
current = plans_panel.render_compile(gateway, session)

st.header("Compare two plans")
files = plans_panel.plan_files(gateway)
plans_panel.render_compare(gateway, current, files)

if files:
    st.header("Check a plan file")
    plans_panel.render_check(gateway, session, files)
