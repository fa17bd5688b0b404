"""The SQL editor's direct path to completion on Streamlit's own server: no REST API needed, no rerun.

The editor asks the completion engine once per context its dictionary cannot answer (a cold ``t.``, a CTE's
``s.``). Through a Streamlit rerun that costs 150-330 ms at 10,000 tables; REST's ``complete-statement``
answers it directly, but REST is off by default (``rest.enabled``). So one route is added to Streamlit's own
server (Starlette, the page's origin: no CORS), the way ui/login_cookie.py adds its cookie route, the first
time the editor renders:

    POST {server.baseUrlPath}/_workbench/sessions/<session>/complete-statement
    Authorization: Bearer wbs_…        (the editor's session credential, ``completion_credential``)
    {"statement": "…", "position": 12, "details": true}

A POST with a JSON body, so a long statement fits (a GET's address did not, past about 6,000 characters).
The route only carries HTTP: the gateway's call ``complete_with_credential`` checks the credential (its
session only, as its user, until it expires) and reads and answers the request exactly as REST does.
Refused, never answered: a post whose Origin is not the page's own (403), one without a credential or with
an unknown, expired or other session's one (401), another method (405), a body over ``MAX_BODY_BYTES``
(413). Without a real Streamlit server (AppTest) there is no route; the editor then uses REST when it is
on, else reruns, and says so.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from typing import Optional

from gateway import AuthenticationError, GatewayError

from . import login_cookie

log = logging.getLogger(__name__)

ROUTE = "/_workbench/sessions/{session}/complete-statement"
MAX_BODY_BYTES = 4 * 1024 * 1024   # a statement of a million characters and more; nothing a person types
_EVERY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]  # all refused but POST, here
_STATE = "workbench_completion_gateway"
_lock = threading.Lock()


def route_path(session: str) -> str:
    """The route's path for ``session``, as the page's JavaScript calls it (same origin)."""
    from urllib.parse import quote
    return login_cookie.base_path() + ROUTE.format(session=quote(str(session), safe=""))


def _refusal(status: int, error_class: str, message: str):
    from starlette.responses import JSONResponse
    headers = {"Cache-Control": "no-store"}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse({"errors": [message], "root_cause": message, "error_class": error_class}, status_code=status,
                        headers=headers)


def _bearer(request) -> Optional[str]:
    scheme, _, credential = request.headers.get("authorization", "").partition(" ")
    return credential.strip() if scheme.lower() == "bearer" and credential.strip() else None


async def _complete_endpoint(request):
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    if request.method != "POST":   # every method reaches here: Streamlit's own routes would answer a GET
        refusal = _refusal(405, "MethodNotAllowedError", "completion is a POST with a JSON body "
                                                         "{\"statement\", \"position\", \"details\"}")
        refusal.headers["Allow"] = "POST"
        return refusal
    origin, host = request.headers.get("origin"), request.headers.get("host")
    if not origin or not host or origin.split("://", 1)[-1].lower() != host.lower():
        return _refusal(403, "ForbiddenError", "completion is answered to the workbench's own page only (its Origin "
                                               "differs); other clients use REST's complete-statement with a token")
    credential = _bearer(request)
    if credential is None:
        return _refusal(401, "UnauthorizedError", "completion needs the editor's session credential "
                                                  "(Authorization: Bearer wbs_…): reload the page for a new one")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        return _refusal(413, "PayloadTooLargeError", f"a completion request is at most {MAX_BODY_BYTES:,} bytes: "
                                                     f"send the statement around the cursor")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return _refusal(413, "PayloadTooLargeError", f"a completion request is at most {MAX_BODY_BYTES:,} bytes: "
                                                         f"send the statement around the cursor")
    try:
        data = json.loads(body or b"null")
    except ValueError:
        data = []   # not JSON: the gateway says what the body must be (after checking the credential)
    gateway = getattr(request.app.state, _STATE, None)
    if gateway is None:
        return _refusal(503, "ServiceUnavailableError", "the workbench's gateway is not ready: reload the page")
    started = time.perf_counter()
    try:
        found = await run_in_threadpool(gateway.complete_with_credential, credential,
                                        request.path_params["session"], data)
    except AuthenticationError as exc:
        return _refusal(401, "UnauthorizedError", exc.message)
    except GatewayError as exc:
        return _refusal(exc.http_status, type(exc).__name__, exc.message)
    # Server-Timing: the engine's share of the popup's wait, readable by the page (benchmarks/browser_latency.py).
    took_ms = (time.perf_counter() - started) * 1000
    return JSONResponse(found, headers={"Cache-Control": "no-store", "Server-Timing": f"complete;dur={took_ms:.1f}"})


def install_route(gateway) -> bool:
    """Add the completion route to Streamlit's server once per process (it answers with ``gateway``);
    whether it is there. False in AppTest, or if Streamlit's internals moved (see ``login_cookie``)."""
    app = login_cookie.streamlit_app()
    if app is None:
        return False
    setattr(app.state, _STATE, gateway)  # the process's gateway; the credential, not this object, names the user
    if getattr(app.state, "workbench_completion_route", False):
        return True
    from starlette.routing import Route
    with _lock:
        if not getattr(app.state, "workbench_completion_route", False):
            path = login_cookie.base_path() + ROUTE
            app.router.routes.insert(0, Route(path, _complete_endpoint, methods=_EVERY_METHOD))
            app.state.workbench_completion_route = True
    return True
