"""Beyond Flink: an operation's query profile (Spark's SQL execution metrics), kept after it is closed."""
from __future__ import annotations

from fastapi import APIRouter, Query, Request

from gateway.rest.deps import service_of
from gateway.rest.encoding import JSONBytes

router = APIRouter(tags=["operations"])


@router.get("/sessions/{session_handle}/operations/{operation_handle}/profile", response_model=dict)
def get_operation_profile(request: Request, session_handle: str, operation_handle: str,
                          timeout: float = Query(10.0, ge=0, le=60,
                                                 description="Seconds to wait for it while it is being read.")):
    """The operator graph of the operation's SQL executions with each operator's time, rows, spill and peak
    memory, the slowest operators, and its stages with the tasks' run-time spread; `ready` false while
    it is read, `available` false (with `reason`) when the statement ran no Spark job. The last
    `operation.profiles_per_session` of a session are kept, also after the operation is closed."""
    return JSONBytes(service_of(request).get_operation_profile(session_handle, operation_handle, timeout))
