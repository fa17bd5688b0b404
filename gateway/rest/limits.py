"""Request limits and path containment.

Bodies are bounded before a handler sees them (Content-Length up front, and counted while a
chunked body streams in); a jar path in a request must stay inside the data directory.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from gateway import InvalidRequestError
from gateway.rest.encoding import JSONBytes
from gateway.rest.errors import PayloadTooLargeError, error_body

UPLOAD_SUFFIX = "/jars/upload"
REMOTE_SCHEMES = frozenset({"http", "https", "hdfs", "s3a"})
_JAR_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.jar")


class BodyLimitMiddleware:
    """Answer 413 for a body over the limit (uploads have their own, larger limit)."""

    def __init__(self, app, max_request_bytes: int, max_upload_bytes: int) -> None:
        self.app = app
        self.max_request_bytes = max_request_bytes
        self.max_upload_bytes = max_upload_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        upload = scope["path"].rstrip("/").endswith(UPLOAD_SUFFIX)
        limit = self.max_upload_bytes if upload else self.max_request_bytes
        setting = "rest.max_upload_bytes" if upload else "rest.max_request_bytes"
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return await _too_large(scope, send, limit, setting)
        if declared is not None:
            return await self.app(scope, receive, send)  # the server holds a body to its Content-Length
        if upload:
            # Never buffered here: the upload route refuses on headers first (a non-admin's 120 MB costs
            # nothing), then streams to disk; this only counts, and stops the stream at the limit.
            return await self.app(scope, _counted(receive, limit, setting), send)
        # A chunked body: read it here up to the limit (a handler's body parser would hide the error).
        chunks, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > limit:
                return await _too_large(scope, send, limit, setting)
            if not message.get("more_body", False):
                break
        body, replayed = b"".join(chunks), False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _counted(receive, limit: int, setting: str):
    seen = 0

    async def counted():
        nonlocal seen
        message = await receive()
        seen += len(message.get("body", b""))
        if seen > limit:
            raise PayloadTooLargeError(f"the request body is larger than {limit} bytes, the most this server "
                                       f"accepts (setting {setting})")
        return message

    return counted


async def _too_large(scope, send, limit: int, setting: str) -> None:
    response = JSONBytes(error_body({
        "root_cause": f"the request body is larger than {limit} bytes, the most this server accepts "
                      f"(setting {setting})", "error_class": "PayloadTooLargeError"}), status_code=413)
    await response(scope, None, send)


def jar_file_name(filename: str) -> str:
    """An upload's file name: a plain name ending in .jar, no directories."""
    if not isinstance(filename, str) or not _JAR_NAME.fullmatch(filename):
        raise InvalidRequestError(
            f"upload file name {filename!r} is not allowed: use a plain name of letters, digits, '.', '_' "
            f"and '-' ending in .jar (no directories), e.g. my-udfs.jar")
    return filename


def local_path_inside(data_dir: Path, uri: str) -> str:
    """The jar URI to hand to the gateway: a local path only if it lies inside the data directory.

    Relative paths are taken from the data directory; symlinks are resolved before the check.
    Remote URIs (http, https, hdfs, s3a) are not paths and pass; other schemes are refused.
    """
    if not isinstance(uri, str) or not uri.strip():
        raise InvalidRequestError("the jar URI is empty; give a path inside the data directory")
    text = uri.strip()
    parsed = urlparse(text)
    if parsed.scheme == "file":
        if parsed.netloc not in ("", "localhost"):
            raise InvalidRequestError(f"jar URI {uri!r} names another host; use a local path")
        text = unquote(parsed.path)
    elif parsed.scheme.lower() in REMOTE_SCHEMES:
        return text  # not a local path: the jar manager fetches it with its own size limit and timeout
    elif parsed.scheme and len(parsed.scheme) > 1:  # "c:" would be a Windows drive, not a scheme
        raise InvalidRequestError(
            f"jar URI {uri!r} uses the scheme {parsed.scheme!r}; use a path inside the data directory, "
            f"one of {', '.join(sorted(REMOTE_SCHEMES))}, or upload it with POST /v2/sessions/{{session}}/jars/upload")
    root = Path(os.path.realpath(data_dir))
    path = Path(os.path.realpath(root / text))  # an absolute text replaces root; symlinks are resolved
    if path != root and root not in path.parents:
        raise InvalidRequestError(
            f"jar path {uri!r} is outside the data directory; over REST only jars inside it are accepted "
            f"(upload it with POST /v2/sessions/{{session}}/jars/upload)")
    # Pass on what the client wrote when it is absolute (it is what SHOW JARS will show);
    # a relative path would otherwise be taken from the server's current directory.
    return uri.strip() if Path(text).is_absolute() else str(path)
