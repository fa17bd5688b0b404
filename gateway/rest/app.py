"""The FastAPI application: Flink's SQL Gateway API versions v1 to v4 and, like Flink's REST
server, the latest also without a prefix; the workbench's own endpoints from /v2 on; auth, body
limits and JSON errors around them.

The OpenAPI document lists /v1 and /v2 in full and, of /v3 and /v4, only the endpoints they add
(the others are the same handlers as /v2's), so that it stays readable and its generated tests short.
"""
from __future__ import annotations

from typing import Optional

from fastapi import Depends, FastAPI

from gateway import GatewayContract, __version__, load_config
from gateway.api.plugins import feature_classes
from gateway.config import auth_mode
from gateway.rest.auth import require_token
from gateway.rest.authn import AuthMiddleware, check_auth_settings
from gateway.rest.crosssite import CrossSiteMiddleware
from gateway.rest.editor_cors import EditorCorsMiddleware
from gateway.rest.errors import install_error_handlers
from gateway.rest.limits import BodyLimitMiddleware
from gateway.rest.routes import (catalog, flink, info, operations, profiles, results, session_tools, sessions,
                                 statements, users, workspace)

DESCRIPTION = """The Spark SQL Workbench gateway over HTTP, compatible with Apache Flink's SQL Gateway
REST API v1 to v4 (`GET /api_versions`; unprefixed paths are v4, as in Flink), plus catalog, module and
jar and workspace (tabs, saved queries, history) endpoints from /v2 on. /v3 and /v4 serve every /v2 endpoint; only what they add is listed here.
Result pages are JSON, PLAIN_TEXT or Arrow (`rowFormat`, any case). Errors answer JSON with Flink's
`errors` list and `root_cause`, `exception_stack`, `error_class` and `sqlstate` beside it."""


def create_app(service: Optional[GatewayContract], token: Optional[str] = None,
               max_request_bytes: Optional[int] = None, max_upload_bytes: Optional[int] = None,
               bind_host: Optional[str] = None) -> FastAPI:
    """An app over ``service``; limits default to its rest.* settings (``service=None``: for the document only).

    ``bind_host``: the address it is served on; on a loopback one the Host header is checked."""
    config = load_config(environ={}) if service is None else None
    setting = (lambda key: config[key]) if service is None else service.get_setting
    app = FastAPI(title="Spark SQL Workbench gateway", version=__version__, description=DESCRIPTION,
                  dependencies=[Depends(require_token)])
    app.state.service = service
    app.state.token = token or None
    v2 = _common() + _v2_only()
    for prefix, routers, listed in (("/v1", _common(), True), ("/v2", v2, True),
                                    ("/v3", v2 + [flink.v3_router], [flink.v3_router]),
                                    ("/v4", v2 + [flink.v3_router, flink.v4_router], [flink.v4_router]),
                                    ("", v2 + [flink.v3_router, flink.v4_router], [])):
        for router in routers:
            app.include_router(router, prefix=prefix,
                               include_in_schema=listed is True or any(router is r for r in listed))
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware,
                       max_request_bytes=max_request_bytes or setting("rest.max_request_bytes"),
                       max_upload_bytes=max_upload_bytes or setting("rest.max_upload_bytes"))
    # A web page of another origin changes nothing (gateway/rest/crosssite.py); checked on headers only.
    app.add_middleware(CrossSiteMiddleware, allowed_origins=setting("rest.allowed_origins"))
    # Outermost (added last): who is calling is decided before any body is read (gateway/rest/authn.py).
    mode = auth_mode(config) if service is None else str(setting("auth.mode")).strip().lower()
    check_auth_settings(mode, token)
    app.add_middleware(AuthMiddleware, service=service, legacy_token=token, bind_host=bind_host, mode=mode,
                       proxy_header=setting("auth.proxy_header"), trusted_proxies=setting("auth.trusted_proxies"))
    # Outside auth: the SQL editor's preflight for complete-statement carries no credential (editor_cors.py).
    app.add_middleware(EditorCorsMiddleware, allowed_origins=setting("rest.allowed_origins"))
    return app


def _common():
    return [info.router, sessions.router, statements.router, operations.router] + _feature_routers(v1=True)


def _v2_only():
    return [info.v2_router, sessions.v2_router, session_tools.router, statements.v2_router, operations.v2_router,
            results.router, catalog.router, workspace.router, users.router, profiles.router] + \
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
