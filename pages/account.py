"""Account: who you are, and your REST API tokens (shown with authentication on)."""
import streamlit as st

from ui import account_panel, state

st.title("Account")
account_panel.render(state.gateway())
