"""Operations: status, cancel, close, and results page by page (token protocol of FLIP-91)."""
from __future__ import annotations

from typing import Optional

from fastapi import APIRouter, Query, Request

from gateway import SqlExecutionError
from gateway import ResultType
from gateway.rest.deps import service_of
from gateway.rest.encoding import JSONBytes, to_json
from gateway.rest.paging import next_result_uri, page_json
from gateway.rest.schemas import ErrorResponse, FetchResultsResponse, OperationStatusResponse, RowFormat

router = APIRouter(tags=["operations"])
v2_router = APIRouter(tags=["operations"])
OPERATION = "/sessions/{session_handle}/operations/{operation_handle}"
MAX_PAGE_ROWS = 1_000_000


@router.get(OPERATION + "/status", response_model=OperationStatusResponse)
def get_operation_status(request: Request, session_handle: str, operation_handle: str):
    info = service_of(request).get_operation_info(session_handle, operation_handle)
    return {"status": info.status.value}


@router.post(OPERATION + "/cancel", response_model=OperationStatusResponse)
def cancel_operation(request: Request, session_handle: str, operation_handle: str):
    service = service_of(request)
    service.cancel_operation(session_handle, operation_handle)
    return {"status": service.get_operation_info(session_handle, operation_handle).status.value}


@router.delete(OPERATION + "/close", response_model=OperationStatusResponse)
def close_operation(request: Request, session_handle: str, operation_handle: str):
    service_of(request).close_operation(session_handle, operation_handle)
    return {"status": "CLOSED"}


@router.get(OPERATION + "/result/{token}", response_model=FetchResultsResponse,
            responses={400: {"model": ErrorResponse, "description": "Bad token, or the statement failed."}})
def fetch_results(request: Request, session_handle: str, operation_handle: str, token: int,
                  rowFormat: RowFormat = Query(RowFormat.JSON, description="JSON values or text."),
                  maxRows: Optional[int] = Query(None, ge=1, le=MAX_PAGE_ROWS,
                                                 description="Most rows in this page (default result.page_rows).")):
    """The same token again returns the same page; token + 1 moves on (older pages are dropped)."""
    page = service_of(request).fetch_results(session_handle, operation_handle, token, maxRows)
    if page.result_type is ResultType.ERROR:
        error = page.exception or {"root_cause": "the statement failed"}
        raise SqlExecutionError(error.get("root_cause", "the statement failed"), error)
    version = request.url.path.split("/")[1]
    uri = next_result_uri(version, session_handle, operation_handle, page, rowFormat, maxRows)
    return JSONBytes(page_json(page, rowFormat, uri))


@v2_router.get("/sessions/{session_handle}/operations", response_model=dict)
def list_operations(request: Request, session_handle: str):
    """Beyond Flink: the session's operations that are not closed, oldest first."""
    found = service_of(request).list_operations(session_handle)
    return JSONBytes({"operations": [{"operationHandle": str(handle), **to_json(info)} for handle, info in found]})


@v2_router.get(OPERATION + "/progress", response_model=dict)
def get_operation_progress(request: Request, session_handle: str, operation_handle: str):
    """Beyond Flink: Spark jobs and stages of the operation, and the fraction of tasks done."""
    progress = service_of(request).get_operation_progress(session_handle, operation_handle)
    return JSONBytes({**to_json(progress), "fraction": progress.fraction})


@v2_router.get(OPERATION + "/result-schema", response_model=dict)
def get_operation_result_schema(request: Request, session_handle: str, operation_handle: str,
                                timeout: float = Query(30.0, ge=0, le=600, description="Seconds to wait for it.")):
    """Beyond Flink: the result's columns with their type JSON, as soon as Spark knows them."""
    columns = service_of(request).get_operation_result_schema(session_handle, operation_handle, timeout)
    return JSONBytes({"columns": to_json(columns)})


@v2_router.get(OPERATION, response_model=dict)
def get_operation_info(request: Request, session_handle: str, operation_handle: str):
    """Beyond Flink: the whole OperationInfo (times, rows fetched, Spark job ids, each statement of a script)."""
    return JSONBytes(to_json(service_of(request).get_operation_info(session_handle, operation_handle)))
