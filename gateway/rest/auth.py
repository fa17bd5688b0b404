"""Optional bearer token: with one configured, every API request must send
``Authorization: Bearer <token>`` (compared in constant time)."""
from __future__ import annotations

import hmac
from typing import Optional

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from gateway.rest.errors import UnauthorizedError

_bearer = HTTPBearer(auto_error=False, description="Needed when the server runs with rest.token set.")


def require_token(request: Request,
                  credentials: Optional[HTTPAuthorizationCredentials] = Depends(_bearer)) -> None:
    expected: Optional[str] = request.app.state.token
    if not expected:
        return
    if credentials is None:
        raise UnauthorizedError("this server needs a bearer token: send the header 'Authorization: Bearer <token>' "
                                "with the token from rest.token (or WORKBENCH_REST_TOKEN)")
    if not hmac.compare_digest(credentials.credentials.encode(), expected.encode()):
        raise UnauthorizedError("the bearer token is wrong; use the token from rest.token (or WORKBENCH_REST_TOKEN)")
