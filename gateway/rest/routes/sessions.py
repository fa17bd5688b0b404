"""Sessions: open, read its properties, close, heartbeat."""
from __future__ import annotations

from typing import Optional

from fastapi import APIRouter, Request

from gateway.rest.deps import service_of
from gateway.rest.schemas import CloseSessionResponse, Empty, OpenSessionRequest, OpenSessionResponse, SessionConfigResponse, SessionNameResponse

router = APIRouter(tags=["sessions"])
v2_router = APIRouter(tags=["sessions"])


@router.post("/sessions", response_model=OpenSessionResponse)
def open_session(request: Request, body: Optional[OpenSessionRequest] = None):
    body = body or OpenSessionRequest()
    handle = service_of(request).open_session(body.properties, body.sessionName)
    return {"sessionHandle": str(handle)}


@router.get("/sessions/{session_handle}", response_model=SessionConfigResponse)
def get_session_config(request: Request, session_handle: str):
    return {"properties": service_of(request).get_session_config(session_handle)}


@router.delete("/sessions/{session_handle}", response_model=CloseSessionResponse)
def close_session(request: Request, session_handle: str):
    service_of(request).close_session(session_handle)
    return {"status": "CLOSED"}


@router.post("/sessions/{session_handle}/heartbeat", response_model=Empty)
def heartbeat(request: Request, session_handle: str):
    service_of(request).heartbeat(session_handle)
    return {}


@v2_router.get("/sessions/{session_handle}/name", response_model=SessionNameResponse)
def session_name(request: Request, session_handle: str):
    """Beyond Flink: the name the session was opened with."""
    return {"sessionName": service_of(request).session_name(session_handle)}
