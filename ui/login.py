"""Who uses this browser session: the login, by auth.mode (docs/users.md).

- ``none``: nobody logs in; the single local user (``LOCAL_PRINCIPAL``) uses the gateway.
- ``builtin``: a login form; the user's identity then lives in this browser session
  (``st.session_state``) and in an HttpOnly login cookie (ui/login_cookie.py), so that a reload and a
  new tab stay logged in until it logs out or the login expires (auth.login_max_age_s).
- ``proxy``: the user named in ``auth.proxy_header`` of the browser's connection, believed only
  when the connection comes from one of ``auth.trusted_proxies``.
- ``oidc``: Streamlit's ``st.login`` with the provider configured in ``.streamlit/secrets.toml``.

``user_gateway`` answers the gateway as the logged-in user sees it (``as_user``), or stops the
page with the login form or with what is wrong.
"""
from __future__ import annotations

import importlib.util
import ipaddress
import logging
from typing import Optional

import streamlit as st

from gateway import LOCAL_PRINCIPAL, AuthenticationError, GatewayContract, GatewayError, Principal, is_loopback

from . import login_cookie
from .startup import no_navigation

log = logging.getLogger(__name__)

PRINCIPAL = "principal"
LOGIN_TOKEN = "login_token"      # this browser's login in the store (its cookie's value)
LOGIN_TICKET = "login_ticket"    # the one-time ticket the page exchanges for the cookie
CLEAR_COOKIE = "login_cookie_clear"


def user_gateway(gateway: GatewayContract) -> GatewayContract:
    mode = str(gateway.get_setting("auth.mode")).strip().lower()
    if mode == "none":
        _refuse_open_bind()
        return gateway.as_user(LOCAL_PRINCIPAL)
    principal = _principal(gateway, mode)
    if principal is None:
        no_navigation()   # the login form lists no pages
        st.stop()
    with st.sidebar:
        _account_box(principal, mode)
    return gateway.as_user(principal)


def _refuse_open_bind() -> None:
    """`streamlit run app.py` on a non-loopback address without auth: say so and serve nothing."""
    if not served():  # Streamlit's AppTest: no server, nothing bound
        return
    address = str(st.get_option("server.address") or "")
    if not is_loopback(address):
        st.error(f"This workbench listens on {address or 'every address'} without authentication, so it serves "
                 f"nothing: anyone who reaches it could run SQL as its process. Set auth.mode "
                 f"(WORKBENCH_AUTH_MODE) to builtin, proxy or oidc (docs/users.md), or bind 127.0.0.1.",
                 icon=":material/lock:")
        no_navigation()
        st.stop()


def served() -> bool:
    """Is a real Streamlit server running this script (AppTest puts a stand-in Runtime in its place)?"""
    from streamlit.runtime import Runtime
    return st.runtime.exists() and type(st.runtime.get_instance()) is Runtime


def _principal(gateway: GatewayContract, mode: str) -> Optional[Principal]:
    if mode == "builtin":
        if served():
            login_cookie.install_route()  # once per process: the route that sets the login cookie
        return st.session_state.get(PRINCIPAL) or _from_cookie(gateway) or _login_form(gateway)
    if mode == "proxy":
        return _from_proxy(gateway)
    if mode == "oidc":
        return _from_oidc(gateway)
    st.error(f"auth.mode {mode!r} is not one of none, builtin, proxy, oidc; fix WORKBENCH_AUTH_MODE")
    return None


def _from_cookie(gateway: GatewayContract) -> Optional[Principal]:
    """The user of this browser's login cookie, if the store still knows it (not ended, not expired)."""
    token = st.context.cookies.get(login_cookie.COOKIE)
    if not token or st.session_state.get(CLEAR_COOKIE):
        return None
    try:
        principal = gateway.authenticate_browser_login(token)
    except GatewayError:
        return None   # forged, ended, expired, or its user removed: the login form
    _start_identity(principal)
    st.session_state[LOGIN_TOKEN] = token
    return principal


def _login_form(gateway: GatewayContract) -> Optional[Principal]:
    if st.session_state.get(CLEAR_COOKIE) and served() and login_cookie.install_route():
        login_cookie.post_to_route({"action": "clear"})  # the browser drops the ended login's cookie
    st.title("Spark SQL Workbench")
    with st.form("login"):
        st.subheader("Log in")
        st.text_input("User name", key="login_name")
        st.text_input("Password", type="password", key="login_password")
        st.form_submit_button("Log in", type="primary", on_click=_log_in, args=(gateway,))
    if error := st.session_state.pop("login_error", None):
        st.error(error, icon=":material/lock:")
    st.caption("Accounts are made by an admin: `python -m gateway users add NAME` on the server.")
    return None


def _log_in(gateway: GatewayContract) -> None:
    """The form's callback: runs before the script, which then finds the principal (or the error)."""
    name, password = st.session_state.get("login_name", ""), st.session_state.get("login_password", "")
    st.session_state["login_password"] = ""
    try:
        # The address keys the lock after wrong passwords (auth.login_*) beside the user name.
        principal = gateway.authenticate_password(name, password, client=st.context.ip_address or "127.0.0.1")
    except AuthenticationError as exc:
        st.session_state["login_error"] = (f"{exc.message}. Try again; an admin can set a new password "
                                           f"(`python -m gateway users add NAME`).")
        return
    except GatewayError as exc:
        st.session_state["login_error"] = exc.message
        return
    _start_identity(principal)
    _remember_login(gateway, principal)


def _remember_login(gateway: GatewayContract, principal: Principal) -> None:
    """A login in the store and a ticket for its cookie (posted by the next run); the login itself
    stands without it (the browser session keeps it), so a store that is down only costs the cookie."""
    st.session_state.pop(CLEAR_COOKIE, None)
    if not served():
        return
    if not login_cookie.install_route():
        _login_lasts_this_tab("the workbench could not add its login route to Streamlit's server (a Streamlit "
                              "version it does not know?)")
        return
    try:
        token = gateway.as_user(principal).start_browser_login()
    except GatewayError as exc:
        _login_lasts_this_tab(f"the workbench store did not take the login ({exc.message})")
        return
    st.session_state[LOGIN_TOKEN] = token
    st.session_state[LOGIN_TICKET] = login_cookie.issue_ticket(token, float(gateway.get_setting("auth.login_max_age_s")))


def _login_lasts_this_tab(why: str) -> None:
    """Say so when a login cannot outlive a reload: never a silent fallback."""
    log.warning("a login will not survive a reload: %s", why)
    st.toast(f"You are logged in, but only in this browser tab until it reloads: {why}. Tell your admin.",
             icon=":material/warning:")


def _start_identity(principal: Principal) -> None:
    """A new identity in this browser session: nothing of a previous one stays attached. A session
    handle in the URL is tried as this user's (a reload re-attaches; another user's is not found)."""
    for key in ("session_handle", "current_run", "history", "editor_request", "catalog_tables"):
        st.session_state.pop(key, None)
    st.session_state[PRINCIPAL] = principal


def _from_proxy(gateway: GatewayContract) -> Optional[Principal]:
    header = str(gateway.get_setting("auth.proxy_header"))
    peer = st.context.ip_address or "127.0.0.1"  # Streamlit answers None for a loopback peer
    trusted = [ipaddress.ip_network(str(entry), strict=False) for entry in gateway.get_setting("auth.trusted_proxies")]
    try:
        from_trusted = any(ipaddress.ip_address(peer) in network for network in trusted)
    except ValueError:
        from_trusted = False
    name = st.context.headers.get(header)
    if not from_trusted or not name:
        st.error(f"This workbench takes its users from a proxy (auth.mode proxy), and this connection "
                 f"{'does not come from one of auth.trusted_proxies' if not from_trusted else f'has no {header} header'}. "
                 f"Open the workbench through the proxy.", icon=":material/lock:")
        return None
    return _trusted(gateway, name)


def _trusted(gateway: GatewayContract, name: str) -> Optional[Principal]:
    current = st.session_state.get(PRINCIPAL)
    if current is not None and current.name == name:
        return current
    try:
        principal = gateway.authenticate_trusted(name)
    except GatewayError as exc:
        st.error(exc.message)
        return None
    _start_identity(principal)
    return principal


def _from_oidc(gateway: GatewayContract) -> Optional[Principal]:
    problem = oidc_problem()
    if problem:
        st.error(problem, icon=":material/lock:")
        return None
    if not st.user.is_logged_in:
        st.title("Spark SQL Workbench")
        st.button("Log in", type="primary", on_click=st.login)
        return None
    claim = str(gateway.get_setting("auth.oidc_user_claim"))
    name = st.user.get(claim)
    if not name:
        st.error(f"The identity provider sent no {claim!r} claim, which auth.oidc_user_claim names as the user; "
                 f"set it to a claim the provider sends (email, preferred_username, sub).")
        return None
    return _trusted(gateway, str(name))


def oidc_problem() -> Optional[str]:
    """What keeps st.login from working here, or None."""
    if importlib.util.find_spec("authlib") is None:
        return ("auth.mode oidc logs in with Streamlit's st.login, which needs Authlib: install it "
                "(`.venv/bin/pip install -r requirements.txt`).")
    try:
        configured = "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file at all
        configured = False
    if not configured:
        return ("auth.mode oidc needs the identity provider in .streamlit/secrets.toml: an [auth] table with "
                "redirect_uri, cookie_secret, client_id, client_secret and server_metadata_url (docs/users.md).")
    return None


def _account_box(principal: Principal, mode: str) -> None:
    st.caption(f":material/person: {principal.name}{' (admin)' if principal.admin else ''}")
    if mode == "builtin" and st.session_state.get(LOGIN_TICKET):
        login_cookie.post_to_route({"action": "set", "ticket": st.session_state[LOGIN_TICKET]})
    if mode == "builtin":
        st.button("Log out", key="logout", icon=":material/logout:", on_click=_log_out)
    elif mode == "oidc":
        st.button("Log out", key="logout", icon=":material/logout:", on_click=st.logout)


def _log_out() -> None:
    """The button's callback: close this user's session (not left to expire), end this browser's login in
    the store (its cookie is dead from now on; the login page has the browser drop it) and forget who it was."""
    handle = st.session_state.get("session_handle")
    token = st.session_state.pop(LOGIN_TOKEN, None)
    st.session_state.pop(LOGIN_TICKET, None)
    if "gateway" in st.session_state:
        st.session_state[CLEAR_COOKIE] = True
        if token:
            try:
                st.session_state.gateway.end_browser_login(token)
            except GatewayError:
                pass
    if handle and "gateway" in st.session_state:
        try:
            st.session_state.gateway.close_session(handle)
        except GatewayError:
            pass
    for key in (PRINCIPAL, "session_handle", "current_run", "history", "editor_request", "catalog_tables"):
        st.session_state.pop(key, None)
    st.query_params.pop("session", None)
