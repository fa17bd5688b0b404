"""The FastAPI application: the same routers under /v1 and /v2 where Flink's versions overlap,
the rest under /v2 only; auth, body limits and JSON errors around them."""
from __future__ import annotations

from typing import Optional

from fastapi import Depends, FastAPI

from gateway import GatewayContract, __version__, load_config
from gateway.features import feature_classes
from gateway.rest.auth import require_token
from gateway.rest.errors import install_error_handlers
from gateway.rest.limits import BodyLimitMiddleware
from gateway.rest.routes import catalog, info, operations, session_tools, sessions, statements, workspace

DESCRIPTION = """The Spark SQL Workbench gateway over HTTP, compatible with Apache Flink's SQL Gateway
REST API (v1, v2) where they overlap, plus catalog, module, jar and workspace (tabs, saved queries,
history) endpoints under /v2.
Errors answer JSON with `errors`, `root_cause`, `exception_stack`, `error_class` and `sqlstate`."""


def create_app(service: Optional[GatewayContract], token: Optional[str] = None,
               max_request_bytes: Optional[int] = None, max_upload_bytes: Optional[int] = None) -> FastAPI:
    """An app over ``service``; limits default to its rest.* settings (``service=None``: for the document only)."""
    config = load_config(environ={}) if service is None else None
    setting = (lambda key: config[key]) if service is None else service.get_setting
    app = FastAPI(title="Spark SQL Workbench gateway", version=__version__, description=DESCRIPTION,
                  dependencies=[Depends(require_token)])
    app.state.service = service
    app.state.token = token or None
    for version, routers in (("v1", _common()), ("v2", _common() + _v2_only())):
        for router in routers:
            app.include_router(router, prefix=f"/{version}")
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware,
                       max_request_bytes=max_request_bytes or setting("rest.max_request_bytes"),
                       max_upload_bytes=max_upload_bytes or setting("rest.max_upload_bytes"))
    return app


def _common():
    return [info.router, sessions.router, statements.router, operations.router] + _feature_routers(v1=True)


def _v2_only():
    return [info.v2_router, sessions.v2_router, session_tools.router, statements.v2_router, operations.v2_router,
            catalog.router, workspace.router] + \
        _feature_routers(v1=False)


def _feature_routers(v1: bool) -> list:
    """Each installed feature's routers (Feature.rest_routers), under /v1 too when it says so."""
    routers = []
    for cls in feature_classes():
        if cls.rest_v1 == v1:
            routers += cls().rest_routers()
    return routers


def openapi_document() -> dict:
    """The API's shape, without a running gateway (for the checked-in snapshot)."""
    return create_app(None).openapi()
