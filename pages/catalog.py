"""Catalog: catalogs, databases, tables and views (temporary ones marked), and a table's detail."""
import streamlit as st

from ui import catalog_panel, state

gateway, session = state.gateway(), state.handle()

st.title("Catalog")
state.show_session_notice()
tree, detail = st.columns([1, 2], gap="large")
with tree:
    selected = catalog_panel.render_tree(gateway, session)
with detail:
    if selected:
        catalog_panel.render_detail(gateway, session, selected)
    else:
        st.info("Pick a table or view on the left to see its columns, partitioning, properties, "
                "CREATE statement, sample rows and statistics.", icon=":material/arrow_back:")
