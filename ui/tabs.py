"""Editor tabs over the workbench store: each tab's draft is saved as the user types and outlives a
page switch, a reload, a closed browser and a restart of the workbench.

The store holds the tabs (title, text, order) of the user; this browser session holds which tab is
active (also in the URL, ``?tab=…``, so a reload comes back to it) and each tab's run
(``st.session_state.tab_runs``), so a query keeps running while another tab is shown.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Optional

import streamlit as st

from gateway import GatewayError, ObjectNotFoundError, StoreUnavailableError

from . import state

ACTIVE_KEY = "active_tab"
RUNS_KEY = "tab_runs"
# Drafts the store could not take (it is down): kept in this browser session, saved once it is back.
UNSAVED_KEY = "unsaved_drafts"
OFFLINE_PREFIX = "unsaved-"


@dataclass
class StandInTab:
    """The tab shown while the store is down and this browser session has none of its tabs."""

    tab_id: str
    text: str
    title: str = "Unsaved (store unavailable)"
    position: int = 0
    updated_at: float = 0.0


def user() -> str:
    """The logged-in user, whose tabs these are (``local`` without authentication)."""
    return state.user()


def tabs(gateway) -> list:
    """The user's tabs, in order; one is opened (with the example text) when there is none."""
    found = gateway.list_tabs(user())
    if not found:
        found = [gateway.open_tab(user(), text=st.session_state.get("editor_text") or state.DEFAULT_SQL)]
    return found


def active(gateway, found: Optional[list] = None):
    """The active tab (from this session, else the URL, else the one edited last)."""
    found = found if found is not None else tabs(gateway)
    wanted = st.session_state.get(ACTIVE_KEY) or st.query_params.get("tab")
    tab = next((t for t in found if t.tab_id == wanted), None) or max(found, key=lambda t: t.updated_at)
    if st.session_state.get(ACTIVE_KEY) != tab.tab_id:
        activate(tab)
    elif st.query_params.get("tab") != tab.tab_id:
        st.query_params["tab"] = tab.tab_id   # a page switch drops the query string
    return tab


def activate(tab) -> None:
    """Show ``tab``: its text goes into the editor (a new version), its run below it."""
    st.session_state[ACTIVE_KEY] = tab.tab_id
    if st.query_params.get("tab") != tab.tab_id:
        st.query_params["tab"] = tab.tab_id
    state.set_editor_text(tab.text)
    st.session_state.current_run = runs().get(tab.tab_id)


def runs() -> dict:
    return st.session_state.setdefault(RUNS_KEY, {})


def set_run(tab_id: str, run) -> None:
    runs()[tab_id] = run
    if st.session_state.get(ACTIVE_KEY) == tab_id:
        st.session_state.current_run = run


def unsaved() -> dict:
    return st.session_state.setdefault(UNSAVED_KEY, {})


def save_text(gateway, tab_id: Optional[str], text: str) -> None:
    """Keep the draft of ``tab_id`` (the active tab when None). While the store is down the draft stays in
    this browser session, and is saved with the next edit or rerun once the store is back (issue 27)."""
    tab_id = tab_id or st.session_state.get(ACTIVE_KEY)
    if not tab_id:
        return
    if tab_id.startswith(OFFLINE_PREFIX):
        unsaved()[tab_id] = text
        return
    try:
        gateway.save_tab_text(user(), tab_id, text)
        unsaved().pop(tab_id, None)
    except StoreUnavailableError:
        unsaved()[tab_id] = text
    except GatewayError as exc:
        st.toast(f"The draft could not be saved: {exc.message}", icon=":material/warning:")


def save_unsaved(gateway) -> bool:
    """Save the drafts kept while the store was down; True when none is left. A stand-in tab's draft
    becomes a new tab (made active if it is shown)."""
    pending = unsaved()
    for tab_id, text in list(pending.items()):
        if tab_id.startswith(OFFLINE_PREFIX) and text.strip() in ("", state.DEFAULT_SQL.strip()):
            pending.pop(tab_id, None)   # nothing typed in the stand-in: no new tab
            continue
        try:
            if tab_id.startswith(OFFLINE_PREFIX):
                tab = gateway.open_tab(user(), text=text)
                if st.session_state.get(ACTIVE_KEY) == tab_id:
                    st.session_state[ACTIVE_KEY] = tab.tab_id
            else:
                gateway.save_tab_text(user(), tab_id, text)
        except StoreUnavailableError:
            return False
        except ObjectNotFoundError:   # the tab was closed elsewhere meanwhile: keep the text in a new one
            gateway.open_tab(user(), text=text)
        pending.pop(tab_id, None)
        st.toast("The workbench store is back: the draft kept in this browser tab is saved.",
                 icon=":material/cloud_done:")
    return True


def _offline(exc: GatewayError):
    """The store is down: say so, and go on with the tab this browser session shows (its text kept here)."""
    tab_id = st.session_state.get(ACTIVE_KEY)
    if not tab_id:
        tab_id = OFFLINE_PREFIX + uuid.uuid4().hex[:12]
        st.session_state[ACTIVE_KEY] = tab_id
    text = unsaved().get(tab_id) or st.session_state.get("editor_text") or ""
    unsaved().setdefault(tab_id, text)
    st.warning(f"{exc.message}\n\nYour tabs come back when the store does. What you type now is kept in this "
               f"browser tab only and saved as soon as the store is back: keep this tab open until then.",
               icon=":material/cloud_off:")
    return StandInTab(tab_id, text, updated_at=time.time())


def holds_a_draft(tab, text: str) -> bool:
    """Does ``tab`` hold something of the user's that loading ``text`` into it would overwrite?"""
    return bool(tab.text.strip()) and tab.text.strip() != state.DEFAULT_SQL and tab.text != text


def open_new(gateway, text: str = "", title: Optional[str] = None):
    """A new tab at the end, made active."""
    tab = gateway.open_tab(user(), title, text)
    activate(tab)
    return tab


# A running tab's mark: a Material Symbols icon (Streamlit serves the font), not an emoji, since an emoji
# (⏳) rendered as an empty box on a system without an emoji font (Debian's default fonts).
RUNNING_MARK = ":material/progress_activity:"


def _label(tab, running: set) -> str:
    return (f"{RUNNING_MARK} " if tab.tab_id in running else "") + tab.title


def render_bar(gateway) -> object:
    """The tab strip (pick, new) and the active tab's menu (rename, move, close); returns the active tab.
    While the store is down: a warning and the tab this browser session shows, its draft kept here."""
    try:
        save_unsaved(gateway)
        found = tabs(gateway)
    except StoreUnavailableError as exc:
        return _offline(exc)
    if (st.session_state.get(ACTIVE_KEY) or "").startswith(OFFLINE_PREFIX):
        st.session_state.pop(ACTIVE_KEY, None)   # a stand-in whose draft is now a tab of the store
    current = active(gateway, found)
    request = st.session_state.get("editor_request")
    if request and holds_a_draft(current, request["text"]):
        # "Open in the editor" (catalog, history, saved queries) into a new tab, made here before the strip
        # is drawn: editor_panel then finds the text in the active tab, and the strip shows that tab.
        current = open_new(gateway, request["text"], request.get("title"))
        found = tabs(gateway)
    running = {tab_id for tab_id, run in runs().items() if run is not None and not run.finished}
    by_id = {t.tab_id: t for t in found}
    # A click on the strip is a value that differs from the one this script put there last.
    clicked = st.session_state.get("tab_strip")
    if clicked in by_id and clicked != st.session_state.get("tab_strip_shown") and clicked != current.tab_id:
        activate(by_id[clicked])
        current = by_id[clicked]
    st.session_state["tab_strip"] = st.session_state["tab_strip_shown"] = current.tab_id
    strip, new, save, menu = st.columns([7, 1.6, 1.4, 1.3], vertical_alignment="center")
    strip.segmented_control("Editor tabs", list(by_id), key="tab_strip", label_visibility="collapsed",
                            format_func=lambda tab_id: _label(by_id[tab_id], running) if tab_id in by_id else "")
    if new.button("New tab", key="tab_new", icon=":material/add:", help="Open an empty editor tab"):
        open_new(gateway)
        st.rerun()
    with save.popover("Save", icon=":material/bookmark:", help="Save this tab's query under a name"):
        from .saved_queries import save_form
        save_form(gateway, current)
    with menu.popover("Tab", icon=":material/more_horiz:", help="Rename, move or close this tab"):
        title = st.text_input("Title", current.title, key=f"tab_title_{current.tab_id}", max_chars=200)
        if st.button("Rename", key="tab_rename"):
            try:
                gateway.rename_tab(user(), current.tab_id, title)
                st.rerun()
            except GatewayError as exc:
                st.error(exc.message)
        left, right = st.columns(2)
        position = current.position
        if left.button("Move left", key="tab_left", icon=":material/chevron_left:", disabled=position == 0):
            gateway.move_tab(user(), current.tab_id, position - 1)
            st.rerun()
        if right.button("Move right", key="tab_right", icon=":material/chevron_right:",
                        disabled=position >= len(found) - 1):
            gateway.move_tab(user(), current.tab_id, position + 1)
            st.rerun()
        if st.button("Close tab", key="tab_close", icon=":material/close:", type="primary",
                     help="Close this tab and forget its draft (save it as a query first to keep it)"):
            close(gateway, current.tab_id, found)
            st.rerun()
    return current


def close(gateway, tab_id: str, found: list) -> None:
    run = runs().pop(tab_id, None)
    if run is not None and not run.finished:
        from .runs import cancel_run
        cancel_run(gateway, state.handle(), run)
    gateway.close_tab(user(), tab_id)
    rest = [t for t in found if t.tab_id != tab_id]
    if rest:
        index = min(next(i for i, t in enumerate(found) if t.tab_id == tab_id), len(rest) - 1)
        activate(rest[index])
    else:
        st.session_state.pop(ACTIVE_KEY, None)
        activate(gateway.open_tab(user(), text=""))
