"""Functions: search built-in, user and module functions; usage, arguments and examples."""
import streamlit as st

from ui import functions_panel, state

gateway, session = state.gateway(), state.handle()

st.title("Functions")
state.show_session_notice()
listing, detail = st.columns([1, 2], gap="large")
with listing:
    selected = functions_panel.render_list(gateway, session)
with detail:
    if selected:
        functions_panel.render_detail(gateway, session, selected)
    else:
        st.info("Search on the left (try `upper` or `date_`) and pick a function to see how to call it, "
                "its arguments and examples.", icon=":material/arrow_back:")
