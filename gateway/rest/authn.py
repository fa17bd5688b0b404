"""Who is calling, decided before anything else: a pure ASGI middleware, outermost, so that a request
that is not authenticated costs no body read (an upload of 128 MB without a token is refused on
its headers) and reaches no handler.

In order:
1. On a loopback bind, the ``Host`` header must name the loopback (``localhost``, ``127.0.0.1``,
   ``[::1]``): a web page whose DNS name was rebound to 127.0.0.1 cannot reach the API.
2. The API's description (``/openapi.json``, ``/docs``, ``/redoc``) is open; every other path
   needs a caller:
   - auth.mode none: ``rest.token`` when it is set (``Authorization: Bearer <token>``), else anyone;
   - builtin, oidc: a per-user API token (``Authorization: Bearer wbt_…``);
   - proxy: the user named by ``auth.proxy_header`` when the request comes from one of
     ``auth.trusted_proxies`` (from anywhere else the header is ignored), or an API token.
   - in every mode, a session credential (``Authorization: Bearer wbs_…``, minted by the UI for its SQL
     editor) for GET ``…/sessions/<its session>/complete-statement`` only, as its session's user;
3. The principal goes into the scope (``scope["state"]["principal"]``); handlers call the gateway
   as that user (``gateway.rest.deps.service_of``).
"""
from __future__ import annotations

import hmac
import ipaddress
import logging
import re
from typing import Optional

from starlette.concurrency import run_in_threadpool

from gateway import GatewayContract, GatewayError
from gateway.errors import AuthenticationError, ConfigurationError
from gateway.identity import (COMPLETION_SCOPE, LOCAL_PRINCIPAL, SESSION_CREDENTIAL_PREFIX, SESSION_CREDENTIALS,
                               Principal)
from gateway.rest.encoding import JSONBytes
from gateway.config import is_loopback
from gateway.rest.errors import error_body

log = logging.getLogger(__name__)

OPEN_PATHS = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
# The one call a session credential (``wbs_…``, the SQL editor's direct path to completion) may make:
# GET complete-statement of its own session, under any API version prefix.
COMPLETION_PATH = re.compile(r"^(?:/v[0-9]+)?/sessions/([^/]+)/complete-statement/?$")


def _host_name(value: str) -> str:
    """The name in a Host header, without its port: ``[::1]:8083`` -> ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def check_auth_settings(mode: str, legacy_token: Optional[str]) -> None:
    if mode != "none" and legacy_token:
        raise ConfigurationError(
            f"rest.token is set while auth.mode is {mode!r}: with users, REST takes per-user API tokens "
            f"(`python -m gateway tokens create NAME`). Unset rest.token (WORKBENCH_REST_TOKEN)")


class AuthMiddleware:
    def __init__(self, app, service: Optional[GatewayContract], legacy_token: Optional[str],
                 bind_host: Optional[str], mode: str, proxy_header: str, trusted_proxies: list) -> None:
        self.app = app
        self.service = service
        self.legacy_token = legacy_token or None
        self.check_host = bind_host is not None and is_loopback(bind_host)
        self.mode = mode
        self.proxy_header = proxy_header.lower().encode("latin-1")
        self.trusted = [ipaddress.ip_network(str(entry), strict=False) for entry in trusted_proxies]
        check_auth_settings(mode, legacy_token)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        if self.check_host:
            host = headers.get(b"host")
            if host is not None and _host_name(host.decode("latin-1")) not in LOOPBACK_NAMES:
                return await _refuse(scope, send, 400, "InvalidHostHeaderError", (
                    f"the Host header {host.decode('latin-1')!r} does not name this machine's loopback, where "
                    f"the API listens: use http://127.0.0.1:<port> or http://localhost:<port> (a foreign name "
                    f"on a loopback server is how DNS rebinding reaches it). To serve other names, bind a "
                    f"non-loopback address with auth.mode set (docs/users.md)"))
        if scope["path"] in OPEN_PATHS:
            return await self.app(scope, receive, send)
        try:
            principal = await self._authenticate(scope, headers)
        except AuthenticationError as exc:
            return await _refuse(scope, send, 401, "UnauthorizedError", exc.message)
        except GatewayError as exc:  # the store is down (503), …
            return await _refuse(scope, send, exc.http_status, type(exc).__name__, exc.message)
        scope.setdefault("state", {})["principal"] = principal
        return await self.app(scope, receive, send)

    async def _authenticate(self, scope, headers: dict) -> Optional[Principal]:
        service, bearer = self.service, _bearer(headers)
        if bearer and bearer.startswith(SESSION_CREDENTIAL_PREFIX):
            return _session_credential(scope, bearer)
        if self.mode == "none":
            if self.legacy_token is None:
                return LOCAL_PRINCIPAL  # the single local user, by name: never "no user"
            if bearer is None:
                raise AuthenticationError("this server needs a bearer token: send the header 'Authorization: "
                                          "Bearer <token>' with the token from rest.token (or WORKBENCH_REST_TOKEN)")
            if not hmac.compare_digest(bearer.encode("utf-8", "surrogatepass"), self.legacy_token.encode()):
                raise AuthenticationError("the bearer token is wrong; use the token from rest.token "
                                          "(or WORKBENCH_REST_TOKEN)")
            return LOCAL_PRINCIPAL
        if self.mode == "proxy" and bearer is None:
            name = headers.get(self.proxy_header)
            client = scope.get("client")
            if name is not None and client and self._trusted(client[0]):
                return await run_in_threadpool(service.authenticate_trusted, name.decode("utf-8", "replace"))
        if bearer is None:
            raise AuthenticationError(
                f"this server (auth.mode {self.mode}) needs a user's API token: send 'Authorization: Bearer "
                f"<token>'; make one with `python -m gateway tokens create NAME` or on the workbench's Account page")
        return await run_in_threadpool(service.authenticate_token, bearer)

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)


def _session_credential(scope, bearer: str) -> Principal:
    """A session credential's user, for the one call it allows; anything else is refused, in every auth.mode."""
    match = COMPLETION_PATH.match(scope["path"])
    if match is None or scope["method"] != "GET":
        raise AuthenticationError("a session credential (wbs_…) allows only GET …/sessions/<its session>/"
                                  "complete-statement; use an API token (or rest.token) for anything else")
    return SESSION_CREDENTIALS.check(bearer, match.group(1), COMPLETION_SCOPE)


def _bearer(headers: dict) -> Optional[str]:
    value = headers.get(b"authorization")
    if value is None:
        return None
    scheme, _, credentials = value.decode("latin-1").partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        return ""  # present but not a bearer token: wrong, never anonymous
    return credentials.strip()


async def _refuse(scope, send, status: int, error_class: str, message: str) -> None:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    response = JSONBytes(error_body({"root_cause": message, "error_class": error_class}), status_code=status,
                         headers=headers)
    await response(scope, None, send)
