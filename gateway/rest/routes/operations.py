"""Operations: status, cancel, close, and results page by page (token protocol of FLIP-91)."""
from __future__ import annotations

import collections
import threading
from typing import Optional

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gateway import InvalidTokenError, ResultType, SqlExecutionError
from gateway.errors import EngineDownError
from gateway.rest.deps import service_of
from gateway.rest.encoding import JSONBytes, to_json
from gateway.rest.paging import (ARROW_MEDIA_TYPE, RowFormat, next_result_uri, page_arrow, page_json,
                                 parse_row_format, version_prefix)
from gateway.rest.schemas import ErrorResponse, FetchResultsResponse, OperationStatusResponse

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
            responses={200: {"content": {ARROW_MEDIA_TYPE: {}},
                             "description": "JSON, or with rowFormat=ARROW an Arrow IPC stream whose schema "
                                            "metadata 'workbench.page' holds the other fields as JSON."},
                       400: {"model": ErrorResponse, "description": "Bad token, or the statement failed."}})
def fetch_results(request: Request, session_handle: str, operation_handle: str, token: int,
                  rowFormat: Optional[str] = Query(None, description="JSON (default), PLAIN_TEXT or ARROW; any case."),
                  maxRows: Optional[int] = Query(None, ge=1, le=MAX_PAGE_ROWS,
                                                 description="Most rows in this page (default result.page_rows).")):
    """The same token again returns the same page; token + 1 moves on (older pages are dropped).

    In JSON and PLAIN_TEXT the EOS page carries no rows (as in Flink); in ARROW the last rows come with EOS.
    """
    return _result_page(request, session_handle, operation_handle, token, rowFormat, maxRows, None)


@v2_router.get(OPERATION + "/statements/{statement}/result/{token}", response_model=FetchResultsResponse,
               responses={200: {"content": {ARROW_MEDIA_TYPE: {}},
                                "description": "As …/result/{token}, for one statement of a script."},
                          400: {"model": ErrorResponse,
                                "description": "Bad token or index, or this statement failed or did not run."}})
def fetch_statement_results(request: Request, session_handle: str, operation_handle: str, statement: int,
                            token: int,
                            rowFormat: Optional[str] = Query(None, description="JSON (default), PLAIN_TEXT or ARROW."),
                            maxRows: Optional[int] = Query(None, ge=1, le=MAX_PAGE_ROWS,
                                                           description="Most rows in this page.")):
    """Beyond Flink: the result of statement ``statement`` (0-based) of a script, with its own tokens; the
    operation's info lists each statement (status, rows, time, error). The last statement's result is
    the operation's own (…/result/{token}); an earlier one's first rows are kept up to the result buffer's
    bounds (``truncated`` in its summary)."""
    return _result_page(request, session_handle, operation_handle, token, rowFormat, maxRows, statement)


def _result_page(request: Request, session_handle: str, operation_handle: str, token: int,
                 rowFormat: Optional[str], maxRows: Optional[int], statement: Optional[int]):
    row_format = parse_row_format(rowFormat)
    service = service_of(request)
    prefix = version_prefix(request.url.path)
    after_end = False
    fetch = (service.fetch_results if statement is None else
             lambda s, o, t, m: service.fetch_results(s, o, t, m, statement=statement))
    try:
        page = fetch(session_handle, operation_handle, token, maxRows)
    except InvalidTokenError as exc:
        # The JSON page before held the last rows as PAYLOAD (Flink's form), so this token is its empty EOS.
        if row_format is RowFormat.ARROW or exc.details.get("ended_at") != token - 1:
            raise
        page = fetch(session_handle, operation_handle, token - 1, maxRows)  # a replay
        after_end = True
    if page.result_type is ResultType.ERROR:
        error = page.exception or {"root_cause": "the statement failed"}
        if error.get("error_class") == "ENGINE_DOWN":  # not the statement's fault: 503, as every call answers
            raise EngineDownError(error.get("root_cause", "the Spark driver has stopped"))
        raise SqlExecutionError(error.get("root_cause", "the statement failed"), error)
    is_query, job_id = _query_facts(request, session_handle, operation_handle, page, statement)

    def uri_for(next_token):
        uri = next_result_uri(prefix, session_handle, operation_handle, next_token, row_format, maxRows)
        if uri is None or statement is None:
            return uri
        return uri.replace(f"/operations/{operation_handle}/result/",
                           f"/operations/{operation_handle}/statements/{statement}/result/", 1)

    if row_format is RowFormat.ARROW:
        return Response(page_arrow(page, uri_for(page.next_token), is_query, job_id), media_type=ARROW_MEDIA_TYPE)
    if after_end:
        return JSONBytes(page_json(page, row_format, None, is_query, job_id, ResultType.EOS, with_rows=False))
    if page.result_type is ResultType.EOS and page.rows:
        return JSONBytes(page_json(page, row_format, uri_for(token + 1), is_query, job_id, ResultType.PAYLOAD))
    return JSONBytes(page_json(page, row_format, uri_for(page.next_token), is_query, job_id))


_QUERY_FACTS: "collections.OrderedDict[str, tuple[bool, Optional[str]]]" = collections.OrderedDict()
_QUERY_FACTS_LOCK = threading.Lock()
_QUERY_FACTS_KEPT = 4096


def _query_facts(request: Request, session_handle: str, operation_handle: str,
                 page, statement: Optional[int] = None) -> tuple[bool, Optional[str]]:
    """Flink's ``isQueryResult`` (the result is a query's, not a SHOW or SET) and ``jobID`` (the
    operation's Spark job group as 32 hex digits, for queries). Known once the result has columns,
    then kept: a page must not cost a status lookup in Spark. ``statement``: of that statement."""
    key = f"{session_handle}/{operation_handle}" + ("" if statement is None else f"/{statement}")
    with _QUERY_FACTS_LOCK:
        if key in _QUERY_FACTS:
            return _QUERY_FACTS[key]
    statements = service_of(request).get_operation_info(session_handle, operation_handle).statements
    if statement is not None:
        statements = [s for s in statements if s.index == statement]
    is_query = bool(statements) and statements[-1].kind == "QUERY"
    hex_id = operation_handle.replace("-", "").lower()
    facts = (is_query, hex_id if is_query and len(hex_id) == 32 else None)
    if page.columns:
        with _QUERY_FACTS_LOCK:
            _QUERY_FACTS[key] = facts
            while len(_QUERY_FACTS) > _QUERY_FACTS_KEPT:
                _QUERY_FACTS.popitem(last=False)
    return facts


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
                                timeout: float = Query(30.0, ge=0, le=600, description="Seconds to wait for it."),
                                statement: Optional[int] = Query(None, ge=0, description="A statement of a script "
                                                                 "(0-based); absent: the last one's.")):
    """Beyond Flink: the result's columns with their type JSON, as soon as Spark knows them."""
    columns = service_of(request).get_operation_result_schema(session_handle, operation_handle, timeout, statement)
    return JSONBytes({"columns": to_json(columns)})


@v2_router.get(OPERATION, response_model=dict)
def get_operation_info(request: Request, session_handle: str, operation_handle: str):
    """Beyond Flink: the whole OperationInfo (times, rows fetched, Spark job ids, each statement of a script)."""
    return JSONBytes(to_json(service_of(request).get_operation_info(session_handle, operation_handle)))
