"""Statements: run one (or a script) asynchronously; configure a session; complete a statement."""
from __future__ import annotations

import json
from typing import Optional

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from gateway.errors import InvalidRequestError
from gateway.rest.deps import service_of
from gateway.rest.schemas import CompleteStatementResponse, ConfigureSessionRequest, Empty, ExecuteStatementRequest, \
    ExecuteStatementResponse

router = APIRouter(tags=["statements"])
v2_router = APIRouter(tags=["statements"])


@router.post("/sessions/{session_handle}/statements", response_model=ExecuteStatementResponse)
def execute_statement(request: Request, session_handle: str, body: ExecuteStatementRequest):
    handle = service_of(request).execute_statement(session_handle, body.statement, body.executionTimeout,
                                                   body.executionConfig)
    return {"operationHandle": str(handle)}


@v2_router.post("/sessions/{session_handle}/configure-session", response_model=Empty)
def configure_session(request: Request, session_handle: str, body: ConfigureSessionRequest):
    service_of(request).configure_session(session_handle, body.statement, body.executionTimeout)
    return {}


@v2_router.get("/sessions/{session_handle}/complete-statement", response_model=CompleteStatementResponse)
async def complete_statement(request: Request, session_handle: str,
                             statement: Optional[str] = Query(None, description="The text typed so far."),
                             position: Optional[int] = Query(None, ge=0, description="Cursor offset in it.")):
    """Flink sends ``{"statement", "position"}`` as a body of this GET; query parameters work too."""
    if statement is None or position is None:
        raw = await request.body()
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise InvalidRequestError("the request body of complete-statement must be a JSON object")
        statement = data.get("statement", statement)
        position = data.get("position", position)
    if not isinstance(statement, str) or isinstance(position, bool) or not isinstance(position, int) or position < 0:
        raise InvalidRequestError("complete-statement needs statement (text) and position (a whole number >= 0), "
                                  "as query parameters or as a JSON body")
    candidates = await run_in_threadpool(service_of(request).complete_statement, session_handle, statement, position)
    return {"candidates": candidates}
