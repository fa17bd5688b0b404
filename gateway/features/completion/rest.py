"""Completion over HTTP: Flink's ``GET …/complete-statement`` (body or query), and with
``details=true`` each candidate's kind and detail (column type, function signature)."""
from __future__ import annotations

import json
from typing import List, Optional

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from gateway.rest.deps import service_of
from gateway.features.completion.schemas import CompleteStatementResponse, answer, read_request

router = APIRouter(tags=["statements"])


@router.get("/sessions/{session_handle}/complete-statement", response_model=CompleteStatementResponse,
            response_model_exclude_none=True)
async def complete_statement(request: Request, session_handle: str,
                             statement: Optional[str] = Query(None, description="The text typed so far."),
                             position: Optional[int] = Query(None, ge=0, description="Cursor offset in it."),
                             details: bool = Query(False, description="Also each candidate's kind and detail.")):
    """Flink sends ``{"statement", "position"}`` as a body of this GET; query parameters work too."""
    data = None
    if statement is None or position is None:
        raw = await request.body()
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = []  # not JSON: read_request says what it must be
    statement, position, details = read_request(data, statement, position, details)
    service = service_of(request)
    if not details:  # Flink's answer: the candidates' text only
        return {"candidates": await run_in_threadpool(service.complete_statement, session_handle, statement, position)}
    found = await run_in_threadpool(service.complete_candidates, session_handle, statement, position)
    return answer(found, details)


@router.post("/sessions/{session_handle}/completion/warm", response_model=dict)
def warm_completion(request: Request, session_handle: str):
    """Start loading the session's tables, columns and functions in the background."""
    service_of(request).warm_completion(session_handle)
    return {}


@router.post("/sessions/{session_handle}/completion/refresh", response_model=dict)
def refresh_completion(request: Request, session_handle: str):
    """Forget what completion knows of the session's catalog (changed behind the gateway's back)."""
    service_of(request).refresh_completion(session_handle)
    return {}


@router.get("/sessions/{session_handle}/completion/dictionary", response_model=dict)
def completion_dictionary(request: Request, session_handle: str,
                          columns: Optional[List[str]] = Query(None, description="Tables whose columns to include.")):
    """Tables, views, databases, catalogs, functions with signatures, table functions and keywords of the
    session, and the columns of the tables named by ``columns``: what an editor completes locally."""
    return service_of(request).completion_dictionary(session_handle, columns)
