"""The builtin login's cookie: a login that survives a reload and a new tab (auth.mode builtin).

Streamlit's script cannot set a cookie (``st.context.cookies`` only reads those the browser sent with
the WebSocket's handshake), and a cookie JavaScript writes cannot be HttpOnly. So one small route is
added to Streamlit's own server (Starlette, same origin as the page), the first time a script runs:

- After a right password the script asks the gateway for a browser login (``start_browser_login``: a
  random token; the store keeps its SHA-256, the user and an expiry) and puts the token behind a
  one-time ticket in this process's memory (``TICKET_TTL_S``). The page posts the ticket, from a
  same-origin frame, to ``/_workbench/login``; the route answers with the cookie: HttpOnly,
  SameSite=Strict, Path=/, Max-Age auth.login_max_age_s (Secure under TLS). The token itself never
  reaches the page's JavaScript, nor a URL.
- The next run (a reload, a new tab) reads the cookie from ``st.context.cookies`` and asks the gateway
  whose login it is (``authenticate_browser_login``); unknown, ended or expired tokens, and those of a
  removed user, log nobody in (fail closed).
- Logging out ends the login in the store (the cookie is dead from then on) and the login page posts
  ``clear`` so the browser drops it too.

The route refuses a post whose Origin is not the page's own, and any ticket it did not issue or has
already used. Without a real Streamlit server (AppTest) there is no route: the login then lasts for the
browser session only, as before.
"""
from __future__ import annotations

import json
import secrets
import threading
import time
from typing import Optional

import streamlit as st

COOKIE = "workbench_login"
ROUTE = "/_workbench/login"
TICKET_TTL_S = 120.0

_tickets: dict[str, tuple[str, float, float]] = {}  # ticket -> (login token, max age s, issued at)
_lock = threading.Lock()


def issue_ticket(token: str, max_age_s: float) -> str:
    """A one-time ticket the page exchanges for the login cookie (the token stays on the server)."""
    ticket = secrets.token_urlsafe(32)
    moment = time.monotonic()
    with _lock:
        for old in [t for t, (_, _, at) in _tickets.items() if moment - at > TICKET_TTL_S]:
            del _tickets[old]
        _tickets[ticket] = (token, float(max_age_s), moment)
    return ticket


def _redeem(ticket: str) -> Optional[tuple[str, float]]:
    with _lock:
        found = _tickets.pop(ticket, None)
    if found is None or time.monotonic() - found[2] > TICKET_TTL_S:
        return None
    return found[0], found[1]


def base_path() -> str:
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}" if base else ""


def route_path() -> str:
    return base_path() + ROUTE


async def _login_endpoint(request):
    """POST {"action": "set", "ticket": …} sets the cookie; {"action": "clear"} drops it."""
    from starlette.responses import JSONResponse, Response

    origin = request.headers.get("origin")
    host = request.headers.get("host")
    if not origin or not host or origin.split("://", 1)[-1] != host:
        return JSONResponse({"error": "a login cookie is set for the workbench's own page only (Origin differs)"},
                            status_code=403)
    try:
        body = json.loads(await request.body() or b"{}")
        action = body.get("action") if isinstance(body, dict) else None
    except ValueError:
        action, body = None, {}
    secure = request.url.scheme == "https"
    if action == "clear":
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=secure)
        return response
    if action != "set" or not isinstance(body.get("ticket"), str):
        return JSONResponse({"error": "post {\"action\": \"set\", \"ticket\": …} or {\"action\": \"clear\"}"},
                            status_code=400)
    redeemed = _redeem(body["ticket"])
    if redeemed is None:
        return JSONResponse({"error": "unknown, used or expired ticket: log in again"}, status_code=403)
    token, max_age_s = redeemed
    response = Response(status_code=204)
    response.set_cookie(COOKIE, token, max_age=int(max_age_s), path="/", httponly=True, samesite="strict",
                        secure=secure)
    return response


def streamlit_app():
    """Streamlit's Starlette application, reached through this session's WebSocket (its ASGI scope names
    the app). None in AppTest or if Streamlit's internals moved (the login then lasts per session)."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
        ctx = get_script_run_ctx()
        info = st.runtime.get_instance()._session_mgr.get_active_session_info(ctx.session_id)
        return info.client._websocket.scope["app"]
    except Exception:  # noqa: BLE001 - private attributes of Streamlit: no route, said by install_route
        return None


def install_route() -> bool:
    """Add the cookie route to Streamlit's server once per process; whether it is there."""
    app = streamlit_app()
    if app is None:
        return False
    if getattr(app.state, "workbench_login_route", False):
        return True
    from starlette.routing import Route
    with _lock:
        if not getattr(app.state, "workbench_login_route", False):
            app.router.routes.insert(0, Route(route_path(), _login_endpoint, methods=["POST"]))
            app.state.workbench_login_route = True
    return True


def post_to_route(body: dict) -> None:
    """A one-pixel same-origin frame that posts ``body`` to the route (the cookie comes with its answer)."""
    script = (f"<script>fetch(window.parent.location.origin + {json.dumps(route_path())}, "
              f"{{method: 'POST', credentials: 'same-origin', headers: {{'Content-Type': 'application/json'}}, "
              f"body: {json.dumps(json.dumps(body))}}})"
              f".then(r => document.body.dataset.loginCookie = String(r.status));</script>")
    st.iframe(script, height=1, alt="login cookie")
