"""Completion over HTTP: Flink's ``GET …/complete-statement`` (body or query), and with
``details=true`` each candidate's kind and detail (column type, function signature)."""
from __future__ import annotations

import json
from typing import List, Optional

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from gateway import InvalidRequestError
from gateway.rest.deps import service_of
from gateway.features.completion.schemas import CompleteStatementResponse

router = APIRouter(tags=["statements"])


@router.get("/sessions/{session_handle}/complete-statement", response_model=CompleteStatementResponse,
            response_model_exclude_none=True)
async def complete_statement(request: Request, session_handle: str,
                             statement: Optional[str] = Query(None, description="The text typed so far."),
                             position: Optional[int] = Query(None, ge=0, description="Cursor offset in it."),
                             details: bool = Query(False, description="Also each candidate's kind and detail.")):
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
    service = service_of(request)
    if not details:
        candidates = await run_in_threadpool(service.complete_statement, session_handle, statement, position)
        return {"candidates": candidates}
    found = await run_in_threadpool(service.complete_candidates, session_handle, statement, position)
    return {"candidates": [c.value for c in found], "candidateDetails": [c.to_json() for c in found]}


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
