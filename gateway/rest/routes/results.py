"""Whole results (``ResultsApi``): spool an operation's result, then page it sorted, filtered and searched,
chart it aggregated, or download it as CSV, Parquet or JSON lines. The gateway computes every answer on the
spooled Parquet; these handlers only translate HTTP."""
from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Query, Request
from pydantic import Field
from starlette.responses import StreamingResponse

from gateway.api.results import EXPORT_FORMATS, ChartSpec, RowFilter, SortKey
from gateway.errors import InvalidRequestError
from gateway.rest.deps import service_of
from gateway.rest.encoding import JSONBytes
from gateway.rest.schemas import Body, ErrorResponse

router = APIRouter(tags=["results"])
OPERATION = "/sessions/{session_handle}/operations/{operation_handle}"
_ERRORS = {400: {"model": ErrorResponse, "description": "A bad request: what is wrong and what to send."},
           404: {"model": ErrorResponse, "description": "No such session or operation (or another user's)."},
           409: {"model": ErrorResponse, "description": "No spool yet, or it is still filling."}}


class ColumnOut(Body):
    name: str
    type: dict[str, Any]


class SpoolResponse(Body):
    operation: str
    columns: list[ColumnOut]
    rows: int = Field(description="Rows spooled so far.")
    bytes: int = Field(description="Parquet bytes spooled so far.")
    done: bool = Field(description="No more rows will come.")
    capped: bool = Field(description="The result was larger than the spool's bound; note says which.")
    note: Optional[str] = None
    error: Optional[dict[str, Any]] = None
    elapsedS: float


class SortItem(Body):
    column: str
    descending: bool = False


class FilterItem(Body):
    column: str
    op: str = Field(description="=, !=, <, <=, >, >=, contains, starts_with, is_null, is_not_null")
    value: Any = Field(None, description="A value of the column's type (a number, or text such as 2024-01-31).")


class PageRequest(Body):
    offset: int = Field(0, ge=0)
    limit: int = Field(1000, ge=0, le=100_000)
    sort: list[SortItem] = Field(default_factory=list, description="Sort keys, the first first.")
    filters: list[FilterItem] = Field(default_factory=list, description="Every filter must hold.")
    search: Optional[str] = Field(None, description="A substring of any column, ignoring case.")


class PageResponse(Body):
    columns: list[ColumnOut]
    rows: list[list[Any]]
    offset: int
    total: int = Field(description="Rows that match the filters and search.")
    spooled: int = Field(description="Rows the answer covers (all of the result when complete).")
    complete: bool


class ChartSpecBody(Body):
    x: str
    y: Optional[str] = Field(None, description="A number column; none counts rows.")
    aggregate: str = Field("sum", description="sum, avg, count, min or max")
    color: Optional[str] = None
    bucket: str = Field("auto", description="Dates on x: auto, none, hour, day, week, month, quarter or year")
    mark: str = "bar"


class ChartRequest(Body):
    spec: ChartSpecBody
    maxPoints: int = Field(1000, ge=1, le=10_000)
    top: int = Field(20, ge=1, le=1000, description="Most categories (on x and in colour), by the measure.")


class ChartResponse(Body):
    spec: ChartSpecBody
    columns: list[str]
    rows: list[list[Any]]
    groups: int
    spooled: int
    complete: bool
    note: Optional[str] = None


@router.post(OPERATION + "/spool", response_model=SpoolResponse, responses=_ERRORS)
def spool_result(request: Request, session_handle: str, operation_handle: str):
    """Start spooling the operation's whole result (from its first page; fetch no pages yourself)."""
    return JSONBytes(service_of(request).spool_result(session_handle, operation_handle).to_json())


@router.get(OPERATION + "/spool", response_model=SpoolResponse, responses=_ERRORS)
def get_result_spool(request: Request, session_handle: str, operation_handle: str,
                     waitS: float = Query(0.0, ge=0, le=60, description="Wait up to this long for the state `until`."),
                     until: str = Query("done", description="done, or rows (the first rows)")):
    return JSONBytes(service_of(request).get_result_spool(session_handle, operation_handle, waitS, until).to_json())


@router.post(OPERATION + "/page", response_model=PageResponse, responses=_ERRORS)
def result_page(request: Request, session_handle: str, operation_handle: str, body: PageRequest):
    """A page of the whole spooled result after filters, search and sort, with the number of matching rows."""
    page = service_of(request).result_page(
        session_handle, operation_handle, body.offset, body.limit,
        sort=[SortKey(s.column, s.descending) for s in body.sort],
        filters=[RowFilter(f.column, f.op, f.value) for f in body.filters], search=body.search)
    return JSONBytes(page.to_json())


@router.post(OPERATION + "/chart", response_model=ChartResponse, responses=_ERRORS)
def result_chart(request: Request, session_handle: str, operation_handle: str, body: ChartRequest):
    """The measure aggregated per x (and colour) over the whole spool, at most maxPoints points."""
    spec = ChartSpec(**body.spec.model_dump())
    chart = service_of(request).result_chart(session_handle, operation_handle, spec, body.maxPoints, body.top)
    return JSONBytes(chart.to_json())


@router.get(OPERATION + "/chart/suggestion", response_model=ChartSpecBody, responses=_ERRORS)
def suggest_chart(request: Request, session_handle: str, operation_handle: str):
    """The chart a person would start with for this result."""
    return JSONBytes(service_of(request).suggest_chart(session_handle, operation_handle).to_json())


@router.get(OPERATION + "/export", responses={**_ERRORS, 200: {
    "content": {media: {} for media in EXPORT_FORMATS.values()},
    "description": "The whole result as a file, streamed (spooled first if need be)."}})
def export_result(request: Request, session_handle: str, operation_handle: str,
                  format: str = Query("csv", description="csv, parquet or jsonl"),
                  waitS: float = Query(600.0, ge=0, le=21600, description="How long to wait for the spool to end.")):
    if format not in EXPORT_FORMATS:
        raise InvalidRequestError(f"format must be one of {', '.join(EXPORT_FORMATS)}, got {format[:20]!r}")
    chunks = service_of(request).export_result(session_handle, operation_handle, format, waitS)
    name = f"result-{operation_handle[:8]}.{format}"
    return StreamingResponse(chunks, media_type=EXPORT_FORMATS[format],
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})
