"""Beyond Flink: who the caller is, their API tokens, and (admins) the users. Under /v2.

The caller is the user of the request's bearer token (or of a trusted proxy's header); with
auth.mode none it is the one local user, an admin. See docs/users.md.
"""
from __future__ import annotations

import re
from typing import Optional

from fastapi import APIRouter, Request
from pydantic import Field

from gateway.rest.deps import service_of
from gateway.rest.encoding import to_json
from gateway.rest.schemas import Body, Empty

router = APIRouter(tags=["users"])


class MeResponse(Body):
    name: str
    admin: bool


class ApiTokenBody(Body):
    tokenId: str
    user: str
    label: str
    createdAt: str
    lastUsedAt: Optional[str] = Field(None, description="To the minute; absent if never used.")
    revokedAt: Optional[str] = None


class TokensResponse(Body):
    tokens: list[ApiTokenBody]


class CreateTokenRequest(Body):
    label: str = Field("", description="What the token is for (shown in the list).")


class CreatedTokenResponse(Body):
    token: str = Field(description="Send it as 'Authorization: Bearer <token>'. Shown only in this answer.")
    record: ApiTokenBody


class UserBody(Body):
    name: str
    admin: bool
    hasPassword: bool
    createdAt: str


class UsersResponse(Body):
    users: list[UserBody]


class PutUserRequest(Body):
    password: Optional[str] = Field(None, description="auth.mode builtin: the new password (8 characters or more); "
                                                      "absent keeps it (a new user then has none).")
    admin: bool = False


class AdminFlagRequest(Body):
    admin: bool


@router.get("/me", response_model=MeResponse)
def whoami(request: Request):
    """The caller, as the server sees it."""
    return to_json(service_of(request).whoami())


@router.get("/me/tokens", response_model=TokensResponse)
def list_api_tokens(request: Request):
    return {"tokens": to_json(service_of(request).list_api_tokens())}


@router.post("/me/tokens", response_model=CreatedTokenResponse)
def create_api_token(request: Request, body: CreateTokenRequest):
    """A new API token for the caller; the token is in this answer only (the server keeps its hash)."""
    token, record = service_of(request).create_api_token(body.label)
    return {"token": token, "record": to_json(record)}


@router.delete("/me/tokens/{token_id}", response_model=ApiTokenBody)
def revoke_api_token(request: Request, token_id: str):
    """Revoke one of the caller's tokens (an admin: anyone's)."""
    return to_json(service_of(request).revoke_api_token(token_id))


@router.get("/admin/users", response_model=UsersResponse)
def list_users(request: Request):
    """Admins only (403 otherwise)."""
    return {"users": to_json(service_of(request).list_users())}


@router.put("/admin/users/{name}", response_model=UserBody)
def add_user(request: Request, name: str, body: PutUserRequest):
    """Admins only: add the user, or give it a new password and admin flag."""
    return to_json(service_of(request).add_user(name, body.password, body.admin))


@router.put("/admin/users/{name}/admin", response_model=UserBody)
def set_user_admin(request: Request, name: str, body: AdminFlagRequest):
    return to_json(service_of(request).set_user_admin(name, body.admin))


@router.delete("/admin/users/{name}", response_model=Empty)
def remove_user(request: Request, name: str):
    """Admins only: the user can no longer log in; its tokens, tabs and saved queries go, its history stays."""
    service_of(request).remove_user(name)
    return {}


# -- admin: every session ----------------------------------------------------------------------------

class AdminOperationBody(Body):
    operationHandle: str
    status: str
    statement: str
    ageS: float
    progress: Optional[float] = Field(None, description="Fraction of the Spark tasks done; absent before any job.")
    progressSummary: str


class AdminSessionBody(Body):
    sessionHandle: str
    name: str
    user: str
    ageS: float
    idleS: float
    operations: list[AdminOperationBody] = Field(description="Its operations that have not ended.")


class AdminSessionsResponse(Body):
    sessions: list[AdminSessionBody]


@router.get("/admin/sessions", response_model=AdminSessionsResponse)
def admin_list_sessions(request: Request):
    """Admins only: every user's open sessions and their running statements with Spark progress."""
    return {"sessions": to_json(service_of(request).admin_list_sessions())}


@router.post("/admin/sessions/{session_handle}/operations/{operation_handle}/cancel", response_model=Empty)
def admin_cancel_operation(request: Request, session_handle: str, operation_handle: str):
    """Admins only: cancel any user's statement."""
    service_of(request).admin_cancel_operation(session_handle, operation_handle)
    return {}


@router.delete("/admin/sessions/{session_handle}", response_model=Empty)
def admin_close_session(request: Request, session_handle: str):
    """Admins only: close any user's session."""
    service_of(request).admin_close_session(session_handle)
    return {}


# -- admin: managed engines (engine.kind = managed; docs/engines.md) -----------------------------------

class EngineBody(Body):
    engineId: str
    key: str = Field(description="Its share-level key: user:<name>, group:<name>, server, connection:<handle>, "
                                 "or (pool) while it waits in the pool.")
    owner: str
    state: str = Field(description="STARTING, POOLED or RUNNING.")
    address: str
    host: str
    pid: Optional[int] = None
    sessions: int = Field(description="Its sessions in this workbench process.")
    appName: str
    startedAt: str
    uptimeS: float
    lastUsed: str
    sparkUi: Optional[str] = None
    logPath: str
    startedBy: str
    heapUsedBytes: Optional[int] = None
    heapMaxBytes: Optional[int] = None
    heapNote: Optional[str] = Field(None, description="Why the heap is not given, when it is not.")


class EnginesResponse(Body):
    engines: list[EngineBody]


def _camel(row: dict) -> dict:
    return {re.sub(r"_(\w)", lambda m: m.group(1).upper(), key): value for key, value in row.items()}


@router.get("/admin/engines", response_model=EnginesResponse)
def admin_list_engines(request: Request):
    """Admins only: every managed engine (engine.kind = managed), with its sessions, uptime, heap and Spark UI."""
    return {"engines": [_camel(row) for row in service_of(request).admin_list_engines()]}


@router.delete("/admin/engines/{engine_id}", response_model=Empty)
def admin_stop_engine(request: Request, engine_id: str):
    """Admins only: stop a managed engine; its sessions' next statements get a new one."""
    service_of(request).admin_stop_engine(engine_id)
    return {}


@router.get("/me/engines", response_model=EnginesResponse)
def list_my_engines(request: Request):
    """The managed engines the caller's sessions run on (empty on the other engine kinds)."""
    return {"engines": [_camel(row) for row in service_of(request).list_my_engines()]}
