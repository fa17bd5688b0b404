"""What every handler shares: the gateway as the request's user sees it, and nothing else of it."""
from __future__ import annotations

from fastapi import Request

from gateway import GatewayContract


def service_of(request: Request) -> GatewayContract:
    """The user-scoped gateway (``as_user``): the protocols' calls, run as the principal the auth middleware
    put in the scope (auth.mode none: ``LOCAL_PRINCIPAL``). A request with none (the open paths) gets the
    same gateway with nobody as its user, which answers only the calls that need no user (fail closed)."""
    principal = request.scope.get("state", {}).get("principal")
    return request.app.state.service.as_user(principal)
