"""Admin: every user's sessions and running statements; cancel or close any (admins, with auth on)."""
import streamlit as st

from ui import admin_panel, state

st.title("Admin")
admin_panel.render(state.gateway())
