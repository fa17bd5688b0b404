"""What every handler shares: the gateway (its contract) behind the app."""
from __future__ import annotations

from fastapi import Request

from gateway import GatewayContract


def service_of(request: Request) -> GatewayContract:
    """The gateway as the request's user sees it (the auth middleware put the principal in the scope);
    without a principal (auth.mode none) the gateway itself."""
    service = request.app.state.service
    principal = request.scope.get("state", {}).get("principal")
    return service if principal is None else service.as_user(principal)
