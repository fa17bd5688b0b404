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
(413).

Superseded requests are dropped, not answered: the editor names itself (``"client"``, a random id per editor)
and numbers its requests (``"seq"``, rising). One editor's requests are answered one at a time, and one that
gets its turn when a later one of the same editor (same session and credential) has arrived, or whose browser
went away (an aborted fetch), gets 409 ``SupersededError`` without the engine being asked: typing fast leaves
no backlog ahead of the keystroke the popup is for. Nor does a newer request wait out an older one's bounded
wait for a table's columns (``ANSWER_WAIT_S``, the burst ``SELECT t`` then ``.``): its arrival ends that wait
(``CompletionSupersession``), the older one gets 409 too, and the newer may wait on for that load in its place.
Each answer's ``X-Completion-Counts`` says how many of that editor's requests were computed and dropped; its
``Server-Timing`` the route's phases (``queue``: waiting for the editor's earlier request, ``complete``: the
engine, ``encode``: the JSON, ``route``: all of it).
A request ``{"prefetch": ["db.t", …]}`` (not numbered: it supersedes nothing) asks for no candidates: the editor
saw those tables typed after FROM or JOIN, and their columns start loading now, before the dot that needs them;
its engine phase is ``prefetch``, not ``complete``.
Without a real Streamlit server (AppTest) there is no route; the editor then uses REST when it is
on, else reruns, and says so.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from typing import Optional

from gateway import AuthenticationError, GatewayError

from . import login_cookie, tcp_no_delay

log = logging.getLogger(__name__)

ROUTE = "/_workbench/sessions/{session}/complete-statement"
MAX_BODY_BYTES = 4 * 1024 * 1024   # a statement of a million characters and more; nothing a person types
_EVERY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]  # all refused but POST, here
_STATE = "workbench_completion_gateway"
_lock = threading.Lock()
MAX_CLIENTS = 1024   # editors whose latest request number is kept (the oldest idle one is forgotten past it)


class _Client:
    """One editor's requests: the latest number seen, one computed at a time, and counts of both outcomes."""

    def __init__(self) -> None:
        self.seq = -1
        self.turn = asyncio.Lock()
        self.running = None   # the Supersession of the request the engine is answering now
        self.continues = None  # the deadline of the wait it ended, if it was waiting (the next one may go on)
        self.computed = 0
        self.dropped = 0

    def counts(self) -> str:
        return f"computed={self.computed}, dropped={self.dropped}"


_clients: "OrderedDict[tuple, _Client]" = OrderedDict()   # touched on the event loop only


def _client_of(session: str, credential: str, data) -> tuple[Optional[_Client], Optional[int]]:
    """The editor a request names (``client``, ``seq``) and its number, or (None, None): not numbered, never
    dropped. Keyed by session, credential and client: nobody without the credential can overtake its requests."""
    if not isinstance(data, dict):
        return None, None
    client, seq = data.get("client"), data.get("seq")
    if not isinstance(client, str) or not 0 < len(client) <= 64 or isinstance(seq, bool) or not isinstance(seq, int):
        return None, None
    key = (session, hashlib.sha256(credential.encode()).hexdigest(), client)
    state = _clients.get(key)
    if state is None:
        state = _clients[key] = _Client()
        while len(_clients) > MAX_CLIENTS:
            oldest = next(iter(_clients))
            if _clients[oldest].turn.locked():
                break
            del _clients[oldest]
    _clients.move_to_end(key)
    if seq > state.seq and state.running is not None:
        # Its wait for a table's columns ends now: this one does not queue behind it, and may wait on in its place.
        state.continues = state.running.supersede() or state.continues
    state.seq = max(state.seq, seq)
    return state, seq


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


def _no_delay(request) -> None:
    """TCP_NODELAY on this request's connection (ui/tcp_no_delay.py says why: Streamlit's listener leaves Nagle on,
    and a body written after its headers waited ~40 ms for the browser's delayed ACK, the popups' ``parse``). Set
    here too, per request: the browser may send the completion POST on a keep-alive connection accepted before
    the listener got the option."""
    try:
        transport = tcp_no_delay.transport_of(request.receive)
        if transport is not None:
            tcp_no_delay.set_no_delay(transport.get_extra_info("socket"))
    except Exception:  # noqa: BLE001 - another server or a moved internal: answers as before, only later
        log.debug("completion route: could not set TCP_NODELAY on the connection", exc_info=True)


async def _complete_endpoint(request):
    entered = time.perf_counter()
    _no_delay(request)
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
    session = request.path_params["session"]
    client, seq = _client_of(session, credential, data)
    if client is None:
        return await _answer(request, gateway, credential, session, data, entered, entered)
    async with client.turn:   # one request of an editor at a time: a later one waits for at most this one
        if seq < client.seq or await request.is_disconnected():
            client.dropped += 1
            refusal = _refusal(409, "SupersededError", f"a later completion request ({client.seq}) of this editor "
                                                       f"supersedes this one ({seq}): not answered")
            refusal.headers["X-Completion-Counts"] = client.counts()
            return refusal
        from gateway import CompletionSupersession
        client.running = supersession = CompletionSupersession(client.continues)
        client.continues = None
        try:
            response = await _answer(request, gateway, credential, session, data, entered, time.perf_counter(),
                                     supersession)
        finally:
            client.running = None
        if response.status_code == 200:
            client.computed += 1
        elif response.status_code == 409:   # a later request came while this one waited: it stopped waiting
            client.dropped += 1
        response.headers["X-Completion-Counts"] = client.counts()
        return response


async def _answer(request, gateway, credential: str, session: str, data, entered: float, turn: float,
                  superseded=None):
    """The engine's answer (run off the event loop), with the route's phases as Server-Timing: readable by
    the page (benchmarks/browser_latency.py)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    started = time.perf_counter()
    try:
        if superseded is None:
            found = await run_in_threadpool(gateway.complete_with_credential, credential, session, data)
        else:
            found = await run_in_threadpool(gateway.complete_with_credential, credential, session, data,
                                            superseded=superseded)
    except AuthenticationError as exc:
        return _refusal(401, "UnauthorizedError", exc.message)
    except GatewayError as exc:
        return _refusal(exc.http_status, type(exc).__name__, exc.message)
    computed = time.perf_counter()
    response = JSONResponse(found, headers={"Cache-Control": "no-store"})
    done = time.perf_counter()
    engine = "prefetch" if isinstance(data, dict) and "prefetch" in data else "complete"  # not an answer's time
    response.headers["Server-Timing"] = (f"queue;dur={(turn - entered) * 1000:.1f}, "
                                         f"{engine};dur={(computed - started) * 1000:.1f}, "
                                         f"encode;dur={(done - computed) * 1000:.1f}, "
                                         f"route;dur={(done - entered) * 1000:.1f}")
    return response


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
