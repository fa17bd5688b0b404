"""The FastAPI application: the same routers under /v1 and /v2 where Flink's versions overlap,
the rest under /v2 only; auth, body limits and JSON errors around them."""
from __future__ import annotations

from typing import Optional

from fastapi import Depends, FastAPI

from gateway import __version__
from gateway.config import load_config
from gateway.core.service import GatewayService
from gateway.rest.auth import require_token
from gateway.rest.errors import install_error_handlers
from gateway.rest.limits import BodyLimitMiddleware
from gateway.rest.routes import catalog, info, jars, modules, operations, session_tools, sessions, statements

DESCRIPTION = """The Spark SQL Workbench gateway over HTTP, compatible with Apache Flink's SQL Gateway
REST API (v1, v2) where they overlap, plus catalog, module and jar endpoints under /v2.
Errors answer JSON with `errors`, `root_cause`, `exception_stack`, `error_class` and `sqlstate`."""


def create_app(service: Optional[GatewayService], token: Optional[str] = None,
               max_request_bytes: Optional[int] = None, max_upload_bytes: Optional[int] = None) -> FastAPI:
    """An app over ``service``; limits default to its rest.* settings (``service=None``: for the document only)."""
    config = service.config if service is not None else load_config(environ={})
    app = FastAPI(title="Spark SQL Workbench gateway", version=__version__, description=DESCRIPTION,
                  dependencies=[Depends(require_token)])
    app.state.service = service
    app.state.token = token or None
    for version, routers in (("v1", _common()), ("v2", _common() + _v2_only())):
        for router in routers:
            app.include_router(router, prefix=f"/{version}")
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware,
                       max_request_bytes=max_request_bytes or config["rest.max_request_bytes"],
                       max_upload_bytes=max_upload_bytes or config["rest.max_upload_bytes"])
    return app


def _common():
    return [info.router, sessions.router, statements.router, operations.router]


def _v2_only():
    return [statements.v2_router, operations.v2_router, catalog.router, modules.router, jars.router,
            session_tools.router]


def openapi_document() -> dict:
    """The API's shape, without a running gateway (for the checked-in snapshot)."""
    return create_app(None).openapi()
