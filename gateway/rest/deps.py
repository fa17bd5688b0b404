"""What every handler shares: the service of the app, and calls to feature methods that a
build of the gateway may not have yet (answered 501, not 500)."""
from __future__ import annotations

from fastapi import Request

from gateway.core.service import GatewayService
from gateway.rest.errors import NotSupportedError


def service_of(request: Request) -> GatewayService:
    return request.app.state.service


def feature_call(service: GatewayService, method: str, *args, **kwargs):
    function = getattr(service, method, None)
    if function is None:
        raise NotSupportedError(f"this gateway has no {method}; the feature is not installed in this build")
    return function(*args, **kwargs)
