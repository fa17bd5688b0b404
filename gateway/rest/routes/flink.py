"""Flink's endpoints of later API versions that a Spark gateway cannot serve: they answer HTTP 501
with what is missing and what to do instead, not a 404 that reads like a wrong URL."""
from __future__ import annotations

from fastapi import APIRouter, Request

from gateway.rest.deps import service_of
from gateway.rest.errors import NotSupportedError
from gateway.rest.schemas import ErrorResponse

v3_router = APIRouter(tags=["flink (not supported)"])
v4_router = APIRouter(tags=["flink (not supported)"])
_NOT_SUPPORTED = {501: {"model": ErrorResponse, "description": "Not supported by a Spark gateway."}}


@v3_router.post("/sessions/{session_handle}/materialized-tables/{identifier}/refresh", responses=_NOT_SUPPORTED)
def refresh_materialized_table(request: Request, session_handle: str, identifier: str):
    """Flink v3: refresh a materialized table. Spark has no materialized tables."""
    service_of(request).heartbeat(session_handle)  # an unknown session is still a 404
    raise NotSupportedError(
        f"refreshing the materialized table {identifier!r} is not supported: Spark has no materialized tables "
        f"(Flink API v3). Refresh the data with a statement instead, e.g. INSERT OVERWRITE … SELECT … "
        f"(POST …/sessions/{{session}}/statements)")


@v4_router.post("/sessions/{session_handle}/scripts", responses=_NOT_SUPPORTED)
def deploy_script(request: Request, session_handle: str):
    """Flink v4: deploy a script in application mode. The workbench runs scripts in the session."""
    service_of(request).heartbeat(session_handle)
    raise NotSupportedError(
        "deploying a script to its own cluster (Flink API v4, application mode) is not supported: the "
        "workbench runs scripts in the session's Spark. Send the script as one statement to "
        "POST …/sessions/{session}/statements (statements separated by ';'); the result is the last one's")
