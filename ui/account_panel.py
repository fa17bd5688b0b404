"""Account page: the logged-in user and their REST API tokens (make one, see its last use, revoke it)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from gateway import GatewayError

NEW_TOKEN = "account_new_token"


def render(gateway) -> None:
    me = gateway.whoami()
    st.markdown(f"Logged in as **{me.name}**{' (admin)' if me.admin else ''}.")
    st.subheader("API tokens")
    st.caption("For the REST API and the Python client: send `Authorization: Bearer <token>`. "
               "The workbench keeps only a hash; a token is shown once, when it is made.")
    if token := st.session_state.pop(NEW_TOKEN, None):
        st.success("Your new token (copy it now; it is not shown again):", icon=":material/key:")
        st.code(token, language=None)
    with st.form("new_token", border=True):
        label = st.text_input("What is it for?", key="token_label", placeholder="nightly job")
        if st.form_submit_button("Make a token", type="primary"):
            try:
                st.session_state[NEW_TOKEN] = gateway.create_api_token(label)[0]
            except GatewayError as exc:
                st.error(exc.message)
            else:
                st.rerun()
    tokens = gateway.list_api_tokens()
    if not tokens:
        st.info("You have no tokens yet.")
        return
    st.dataframe(pd.DataFrame([{"id": t.token_id, "label": t.label, "made": t.created_at,
                                "last used": t.last_used_at, "revoked": t.revoked_at} for t in tokens]),
                 hide_index=True, width="stretch")
    live = [t for t in tokens if t.revoked_at is None]
    if live:
        choice = st.selectbox("Revoke", live, format_func=lambda t: f"{t.label} ({t.token_id[:8]})", key="revoke_pick")
        if st.button("Revoke token", key="revoke_token"):
            gateway.revoke_api_token(choice.token_id)
            st.rerun()
