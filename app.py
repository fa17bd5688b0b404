"""Spark SQL Workbench: the frame. Page config, the process-wide gateway, session binding, navigation."""
from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from gateway import LOCAL_PRINCIPAL, GatewayContract, GatewayError, GatewayService, PageSpec, SessionNotFoundError
from gateway.rest import process_gateway
from ui import startup
from ui.login import served, user_gateway
from ui.tcp_no_delay import no_delay_for_this_session

STARTUP_WAIT_S = 0.3  # a warm process answers within this; a cold one shows the starting page

# Streamlit treats an app with a pages/ folder as a multipage app of the old kind until told otherwise: it
# ran this script as the "app" page of an automatic navigation over every file in pages/, which listed them
# raw in the sidebar whenever a run stopped before st.navigation (while Spark starts, at the login form).
# This app names its pages itself (st.navigation below): the folder is not a navigation. The run that
# finds the flag set is such an automatic run, so it starts over as a run of this script alone.
if PagesManager.uses_pages_directory:
    PagesManager.uses_pages_directory = False
    st.rerun()

st.set_page_config(page_title="Spark SQL Workbench", page_icon="⚡", layout="wide")

# Nagle off on this browser's connection (and the server's later ones): ui/tcp_no_delay.py says why.
if "tcp_no_delay" not in st.session_state:
    st.session_state.tcp_no_delay = no_delay_for_this_session()

# The core's pages; each feature brings its own (Feature.pages), placed by their order.
CORE_PAGES = [
    PageSpec("pages/editor.py", "SQL editor", ":material/edit_note:", order=0),
    PageSpec("pages/catalog.py", "Catalog", ":material/account_tree:", order=10),
    PageSpec("pages/functions.py", "Functions", ":material/function:", order=20),
    PageSpec("pages/session.py", "Session", ":material/tune:", order=100),
]


# With users (auth.mode other than none): the user's API tokens; for admins, every session.
ACCOUNT_PAGE = PageSpec("pages/account.py", "Account", ":material/person:", order=110)
ADMIN_PAGE = PageSpec("pages/admin.py", "Admin", ":material/admin_panel_settings:", order=120)


def pages(gateway: GatewayContract) -> list:
    users = str(gateway.get_setting("auth.mode")).lower() != "none"
    own = CORE_PAGES + ([ACCOUNT_PAGE] if users else []) + ([ADMIN_PAGE] if users and gateway.whoami().admin else [])
    specs = sorted(own + gateway.list_feature_pages(), key=lambda page: (page.order, page.title))
    return [st.Page(spec.path, title=spec.title, icon=spec.icon or None, default=spec.order == 0)
            for spec in specs]

# Per-browser-session UI state that belongs to one gateway session.
_SESSION_STATE = ("current_run", "history", "history_counter", "editor_request", "catalog_tables",
                  "schema_generation")


def build_gateway() -> GatewayContract:
    """One gateway (and one root SparkSession) per process, shared by all browser sessions.

    The metastore is touched once here, while the page shows the editor (ui/startup.py), so its cold
    start (20 s and more for a new embedded Derby database) does not land on a user's first click.
    """
    # The launcher (launch.py) may have built it already, with the REST API (rest.enabled) beside it.
    gateway = process_gateway(GatewayService)
    process = gateway.as_user(LOCAL_PRINCIPAL)  # the process's own warm-up, by name (no call goes without a user)
    warm_up = process.open_session(name="warm-up")
    try:
        process.list_databases(warm_up)
    finally:
        process.close_session(warm_up)
    return gateway


@st.cache_resource(show_spinner=False)
def gateway_starter() -> startup.GatewayStarter:
    return startup.GatewayStarter(build_gateway)


def started_gateway() -> GatewayContract:
    """The process's gateway; while it starts, the editor takes typing (ui/startup.py stops the run here)."""
    starter = gateway_starter()
    # In a real server a cold start draws the starting page; Streamlit's AppTest waits for the gateway.
    if not starter.wait(STARTUP_WAIT_S if served() else None):
        startup.starting_page(starter)
    if starter.error is not None:
        gateway_starter.clear()  # the next reload tries again
        message = starter.error.message if isinstance(starter.error, GatewayError) else str(starter.error)
        st.error(f"The workbench could not start: {message}. Fix what it says, then reload the page.",
                 icon=":material/error:")
        startup.no_navigation()
        st.stop()
    startup.hand_over()
    return starter.gateway


def bind_session(gateway: GatewayContract) -> str:
    """This browser session's gateway session; the handle sits in the URL so a reload re-attaches."""
    handle = st.session_state.get("session_handle") or st.query_params.get("session")
    if handle:
        try:
            gateway.heartbeat(handle)
            st.session_state.session_handle = str(handle)
            if st.query_params.get("session") != str(handle):
                st.query_params["session"] = str(handle)
            return str(handle)
        except (SessionNotFoundError, GatewayError):
            st.session_state.session_notice = (
                "The session in the address expired or is not yours (it was idle too long, the workbench restarted, "
                "or it belongs to another user), so a new one was opened: temporary views and settings of the "
                "old one are not here.")
            for key in _SESSION_STATE:
                st.session_state.pop(key, None)
    handle = str(gateway.open_session(name="browser"))
    st.session_state.session_handle = handle
    st.query_params["session"] = handle
    return handle


def heartbeat_interval_s(gateway: GatewayContract) -> float:
    idle = float(gateway.get_setting("session.idle_timeout_s") or 0)
    return max(5.0, min(60.0, idle / 3)) if idle > 0 else 300.0


gateway = user_gateway(started_gateway())  # the logged-in user's view (a login form stops here)
st.session_state.gateway = gateway
bind_session(gateway)


@st.fragment(run_every=heartbeat_interval_s(gateway))
def heartbeat() -> None:
    """Keep this browser's session alive while the page is open; replace it if it expired."""
    try:
        gateway.heartbeat(st.session_state.session_handle)
    except GatewayError:
        st.session_state.session_handle = None
        st.rerun()


with st.sidebar:
    heartbeat()

st.navigation(pages(gateway)).run()
