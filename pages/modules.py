"""Modules (FLIP-68): the session's modules in resolution order; reorder, load, unload, see their functions."""
import streamlit as st

from ui import modules_panel, state

gateway, session = state.gateway(), state.handle()

st.title("Modules")
state.show_session_notice()
st.caption("Functions resolve through the used modules in this order: the first module with a name wins. "
           "`core` is Spark's built-ins; a module above it shadows built-ins of the same name "
           "(they stay callable as `system.builtin.f`). Changes apply to this session only.")
modules_panel.show_notice()
modules = modules_panel.render_modules(gateway, session)
st.subheader("Load a module")
modules_panel.render_load_form(gateway, session, modules)
