"""Cross-site requests: a web page of another origin must not change anything here (issue 27 item 8).

A browser sends a cross-origin request without asking first (no CORS preflight) only when it is
"simple": GET, HEAD or POST with a content type of text/plain, a form or none, and no custom header.
Such a POST from ``fetch(…, {mode: 'no-cors'})`` reaches the server even though the page cannot read
the answer: enough to fill every session slot. Anything else (PUT, DELETE, a JSON content type, a
custom header) is preflighted, and this server answers no preflight, so the browser never sends it.

So, before any body is read, a POST, PUT, PATCH or DELETE is refused (403) when:
1. it carries an ``Origin`` header (browsers send one on every such request) that is neither this
   server's own origin (the ``Host`` it was sent to) nor one of ``rest.allowed_origins``
   (``Origin: null``, from sandboxed frames and some redirects, is never allowed); or
2. it is a simple POST (content type absent, text/plain, a form or multipart) without the header
   ``X-Workbench-Client`` and it has a body, or carries a browser's marks (``Origin``,
   ``Sec-Fetch-Site``). A bodyless POST from a program (a Flink client's heartbeat) stays allowed.
"""
from __future__ import annotations

from typing import Iterable
from urllib.parse import urlsplit

from gateway.rest.encoding import JSONBytes
from gateway.rest.errors import error_body

CLIENT_HEADER = "X-Workbench-Client"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The content types a browser sends cross-origin without a preflight (Fetch standard, CORS-safelisted).
SIMPLE_CONTENT_TYPES = frozenset({"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"})


def origin_key(origin: str) -> str:
    """``scheme://host[:port]`` reduced to what the Host header would say: ``host[:port]``, lower case."""
    parts = urlsplit(origin.strip().lower())
    return parts.netloc if parts.scheme in ("http", "https") and parts.netloc else ""


class CrossSiteMiddleware:
    """Refuse cross-site state-changing requests on their headers; see the module docstring."""

    def __init__(self, app, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {key for key in (origin_key(str(o)) for o in allowed_origins) if key}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] not in STATE_CHANGING:
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if origin is not None:
            text = origin.decode("latin-1")
            key, host = origin_key(text), headers.get(b"host", b"").decode("latin-1").strip().lower()
            if not key or (key != host and key not in self.allowed):
                return await _refuse(scope, send, (
                    f"a {scope['method']} from the web page of another origin ({text!r}) is refused: this server "
                    f"takes changes only from its own origin and from rest.allowed_origins (WORKBENCH_REST_ALLOWED_"
                    f"ORIGINS). A program should send no Origin header; a page on another origin that you trust "
                    f"must be listed in rest.allowed_origins (docs/rest.md)"))
        if scope["method"] == "POST" and b"x-workbench-client" not in headers:
            media = headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()
            has_body = headers.get(b"content-length", b"0").strip() not in (b"0", b"") or \
                b"chunked" in headers.get(b"transfer-encoding", b"").lower()
            browser = origin is not None or b"sec-fetch-site" in headers
            if media in SIMPLE_CONTENT_TYPES and (has_body or browser):
                return await _refuse(scope, send, (
                    f"a POST with {'no content type' if not media else 'the content type ' + repr(media)} is what a "
                    f"web page of another site can send unasked, so it is refused: send a JSON body with "
                    f"'Content-Type: application/json', or the header '{CLIENT_HEADER}: <your client's name>' "
                    f"(docs/rest.md)"))
        return await self.app(scope, receive, send)


async def _refuse(scope, send, message: str) -> None:
    response = JSONBytes(error_body({"root_cause": message, "error_class": "CrossSiteRequestError"}), status_code=403)
    await response(scope, None, send)
