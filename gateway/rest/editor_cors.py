"""CORS for the SQL editor's direct path to completion, and for nothing else.

The editor runs in a page of the Streamlit server's origin (say ``http://127.0.0.1:8501``); this API listens on
another port, so another origin, and its ``fetch`` of ``GET …/complete-statement`` with an ``Authorization``
header is preflighted. Only that path, and only for an origin a live session credential was minted for (the UI
names its page's origin, ``completion_credential``) or one of ``rest.allowed_origins``, gets the preflight
answered and ``Access-Control-Allow-Origin`` on the answer (errors too: the editor shows a 401's reason).
Every other path and origin stays as before: no CORS headers, so a browser keeps other pages out.
"""
from __future__ import annotations

from typing import Iterable

from gateway.identity import SESSION_CREDENTIALS
from gateway.rest.authn import COMPLETION_PATH
from gateway.rest.crosssite import origin_key

PREFLIGHT_MAX_AGE_S = 600  # Chromium caches a preflight up to 2 h; one per 10 minutes costs nothing


class EditorCorsMiddleware:
    def __init__(self, app, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {key for key in (origin_key(str(o)) for o in allowed_origins) if key}

    def _allowed(self, origin: str) -> bool:
        key = origin_key(origin)
        return bool(key) and (key in self.allowed or key in {origin_key(o) for o in SESSION_CREDENTIALS.origins()})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not COMPLETION_PATH.match(scope["path"]):
            return await self.app(scope, receive, send)
        origin = dict(scope["headers"]).get(b"origin")
        if origin is None or not self._allowed(origin.decode("latin-1")):
            return await self.app(scope, receive, send)
        cors = [(b"access-control-allow-origin", origin), (b"vary", b"Origin")]
        if scope["method"] == "OPTIONS" and b"access-control-request-method" in dict(scope["headers"]):
            await send({"type": "http.response.start", "status": 204, "headers": cors + [
                (b"access-control-allow-methods", b"GET"),
                (b"access-control-allow-headers", b"authorization"),
                (b"access-control-max-age", str(PREFLIGHT_MAX_AGE_S).encode())]})
            await send({"type": "http.response.body", "body": b""})
            return None

        async def send_with_cors(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + cors)
            await send(message)

        return await self.app(scope, receive, send_with_cors)
