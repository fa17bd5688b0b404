"""Statements: run one (or a script) asynchronously; configure a session."""
from __future__ import annotations

from fastapi import APIRouter, Request

from gateway.rest.deps import service_of
from gateway.rest.schemas import ConfigureSessionRequest, Empty, ExecuteStatementRequest, \
    ExecuteStatementResponse, ParametersRequest

router = APIRouter(tags=["statements"])
v2_router = APIRouter(tags=["statements"])


@router.post("/sessions/{session_handle}/statements", response_model=ExecuteStatementResponse)
def execute_statement(request: Request, session_handle: str, body: ExecuteStatementRequest):
    handle = service_of(request).execute_statement(session_handle, body.statement, body.executionTimeout,
                                                   body.executionConfig, body.parameters)
    return {"operationHandle": str(handle)}


@v2_router.post("/sessions/{session_handle}/configure-session", response_model=Empty)
def configure_session(request: Request, session_handle: str, body: ConfigureSessionRequest):
    service_of(request).configure_session(session_handle, body.statement, body.executionTimeout)
    return {}


@v2_router.post("/sessions/{session_handle}/parameters", response_model=dict)
def statement_parameters(request: Request, session_handle: str, body: ParametersRequest):
    """Beyond Flink: the script's ``:name`` markers as form fields (``name``, ``kind``: text, number, date,
    date range or list; ``source``: a list's saved query; ``pair``: the markers a range fills)."""
    service = service_of(request)
    service.heartbeat(session_handle)  # a session-scoped path: an unknown session is a 404 here too
    return {"fields": service.statement_parameters(body.statement)}
