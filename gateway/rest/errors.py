"""Every failure answers as JSON: Flink's ``errors`` list plus the seed's ``root_cause`` and
``exception_stack``, Spark's ``error_class`` and ``sqlstate`` (and line/position for syntax errors).
The HTTP status comes from the GatewayError subclass (gateway/errors.py).
"""
from __future__ import annotations

import logging
import uuid

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from gateway.rest.encoding import JSONBytes
from starlette.exceptions import HTTPException as StarletteHTTPException

from gateway import GatewayError

log = logging.getLogger(__name__)


class UnauthorizedError(GatewayError):
    """The request carries no bearer token, or the wrong one."""

    http_status = 401


class PayloadTooLargeError(GatewayError):
    http_status = 413


class NotSupportedError(GatewayError):
    """A Flink endpoint (or option) the workbench knows but cannot serve on Spark."""

    http_status = 501


def error_body(error: dict) -> dict:
    body = {"errors": [error.get("root_cause") or "error"], "exception_stack": "", "error_class": None,
            "sqlstate": None}
    body.update({k: v for k, v in error.items() if k != "errors"})
    return body


def error_response(status: int, error: dict, headers: dict | None = None) -> JSONBytes:
    return JSONBytes(error_body(error), status_code=status, headers=headers)


def gateway_error_response(exc: GatewayError) -> JSONBytes:
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(exc, UnauthorizedError) else None
    return error_response(exc.http_status, exc.to_json(), headers)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for problem in exc.errors()[:10]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    return "bad request: " + "; ".join(parts) + ". See /openapi.json for the expected shape."


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(GatewayError)
    async def _gateway_error(request: Request, exc: GatewayError):
        return gateway_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        return error_response(400, {"root_cause": _validation_message(exc), "error_class": "InvalidRequestError"})

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = f"no endpoint {request.method} {request.url.path}; the endpoints are listed in /openapi.json"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}; see /openapi.json"
        return error_response(exc.status_code, {"root_cause": message, "error_class": "HTTPException"},
                              getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        """A bug outside the gateway's boundary (a route, the app): the traceback goes to the log under an id,
        the client gets that id and nothing of the traceback."""
        error_id = uuid.uuid4().hex[:12]
        log.error("unexpected error %s in %s %s", error_id, request.method, request.url.path, exc_info=exc)
        return error_response(500, {
            "root_cause": f"internal error {error_id}. This is a bug in the workbench; the server log has its stack "
                          f"trace under this id",
            "error_class": "InternalError"})
