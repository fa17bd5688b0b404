"""Saved queries of the user (workbench store): save the tab shown under a name with a description,
search, open in a tab, update with the tab's text, delete."""
from __future__ import annotations

import streamlit as st

from gateway import GatewayError

from . import state
from .tabs import ACTIVE_KEY, user

LINKS_KEY = "tab_saved_query"   # tab id -> the saved query it was opened from or saved as


def links() -> dict:
    return st.session_state.setdefault(LINKS_KEY, {})


def save_form(gateway, tab) -> None:
    """The active tab's *Save* menu: as a new query, or update the saved query it came from."""
    linked = links().get(tab.tab_id)
    existing = None
    if linked:
        try:
            existing = gateway.get_saved_query(user(), linked)
        except GatewayError:
            links().pop(tab.tab_id, None)
    name = st.text_input("Name", existing.name if existing else tab.title, key=f"save_name_{tab.tab_id}",
                         max_chars=200)
    description = st.text_area("Description", existing.description if existing else "",
                               key=f"save_description_{tab.tab_id}", max_chars=10_000, height=80)
    text = state.editor_text()
    if existing and st.button(f"Update “{existing.name}”", key="save_update", type="primary",
                              help="Replace the saved query's text, name and description"):
        _save(gateway, tab, name, text, description, existing.query_id)
    if st.button("Save as new query", key="save_new", type="secondary" if existing else "primary"):
        _save(gateway, tab, name, text, description, None)


def _save(gateway, tab, name, text, description, query_id) -> None:
    try:
        saved = gateway.save_query(user(), name, text, description, query_id)
    except GatewayError as exc:
        st.error(exc.message)
        return
    links()[tab.tab_id] = saved.query_id
    st.toast(f"Saved “{saved.name}”.", icon=":material/bookmark:")


def render(gateway) -> None:
    search = st.text_input("Search saved queries", key="saved_search", max_chars=1000,
                           placeholder="name, description or text, any case")
    try:
        found = gateway.list_saved_queries(user(), search.strip())
    except GatewayError as exc:
        st.error(f"The saved queries could not be read: {exc.message}")
        return
    if not found:
        st.info("No saved query matches." if search.strip() else
                "No saved queries yet. Use *Save* above the editor to keep the tab's query under a name.")
        return
    for query in found:
        line, open_button, update_button, delete_button = st.columns([7, 1, 1, 1], vertical_alignment="center")
        with line:
            st.markdown(f"**{_escape(query.name)}** <small>· updated "
                        f"{query.updated_at.astimezone().strftime('%Y-%m-%d %H:%M')}</small>", unsafe_allow_html=True)
            if query.description:
                st.caption(_escape(query.description))
            first = query.text.strip().splitlines()[0] if query.text.strip() else ""
            st.text(first[:110])
        if open_button.button("Open", key=f"saved_open_{query.query_id}", help="Open it in a tab"):
            state.open_in_editor(query.text)
            st.session_state.editor_request.update(title=query.name, saved_id=query.query_id)
            st.rerun()
        if update_button.button("Update", key=f"saved_update_{query.query_id}",
                                help="Replace its text with the text of the tab shown"):
            try:
                gateway.save_query(user(), query.name, state.editor_text(), query.description, query.query_id)
                links()[st.session_state.get(ACTIVE_KEY)] = query.query_id
                st.toast(f"Updated “{query.name}”.", icon=":material/bookmark:")
                st.rerun()
            except GatewayError as exc:
                st.error(exc.message)
        if delete_button.button("Delete", key=f"saved_delete_{query.query_id}"):
            st.session_state.confirm_delete = query.query_id
        if st.session_state.get("confirm_delete") == query.query_id:
            st.warning(f"Delete “{query.name}” for good?")
            yes, no = st.columns(2)
            if yes.button("Delete it", key=f"saved_delete_yes_{query.query_id}", type="primary"):
                gateway.delete_saved_query(user(), query.query_id)
                st.session_state.pop("confirm_delete", None)
                st.rerun()
            if no.button("Keep it", key=f"saved_delete_no_{query.query_id}"):
                st.session_state.pop("confirm_delete", None)
                st.rerun()


def _escape(text: str) -> str:
    """Markdown-safe: a name like ``$x$`` or ``*y*`` shows as typed."""
    return "".join("\\" + c if c in "\\`*_{}[]()#+-.!$<>|~" else c for c in text)
