"""What every handler shares: the gateway (its contract) behind the app."""
from __future__ import annotations

from fastapi import Request

from gateway import GatewayContract


def service_of(request: Request) -> GatewayContract:
    return request.app.state.service
