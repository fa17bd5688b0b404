"""Whole results: an operation's rows spooled to Parquet in the gateway, then sorted, filtered, searched,
charted and exported there (never on the page a browser happens to show).

``spool_result`` starts reading every page of an operation into the session's spool; the other calls answer
from what is spooled so far (``ResultPage.complete`` says whether that is the whole result). A spool belongs to
its operation: closing the operation or its session removes it. Its size is bounded by ``result.spool_max_rows``
and ``result.spool_max_bytes``; a larger result is spooled up to the bound and says so (``SpoolInfo.capped``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Protocol, runtime_checkable

from gateway.handles import OperationHandle, SessionHandle
from gateway.models import Column

EXPORT_FORMATS = {"csv": "text/csv", "parquet": "application/vnd.apache.parquet", "jsonl": "application/x-ndjson"}
FILTER_OPS = ("=", "!=", "<", "<=", ">", ">=", "contains", "starts_with", "is_null", "is_not_null")
CHART_AGGREGATES = ("sum", "avg", "count", "min", "max")
DATE_BUCKETS = ("auto", "none", "hour", "day", "week", "month", "quarter", "year")


@dataclass(frozen=True)
class SortKey:
    """One sort column; several keys sort by the first, then the next."""

    column: str
    descending: bool = False


@dataclass(frozen=True)
class RowFilter:
    """``column op value``: the value is typed as the column (a number for a number column), never SQL text."""

    column: str
    op: str
    value: Any = None


@dataclass
class SpoolInfo:
    """How far an operation's spool is: rows and bytes spooled, whether it ended, and why it stopped early."""

    operation: str
    columns: list[Column] = field(default_factory=list)
    rows: int = 0
    bytes: int = 0
    done: bool = False
    capped: bool = False
    note: Optional[str] = None           # why the spool holds less than the whole result
    error: Optional[dict] = None         # the statement's error (the spool holds the rows before it)
    elapsed_s: float = 0.0               # from the start of the spool to its end (or now)

    def to_json(self) -> dict:
        return {"operation": self.operation, "columns": [c.to_json() for c in self.columns], "rows": self.rows,
                "bytes": self.bytes, "done": self.done, "capped": self.capped, "note": self.note,
                "error": self.error, "elapsedS": round(self.elapsed_s, 3)}


@dataclass
class ResultPage:
    """Rows ``offset`` … of the whole spooled result after filter, search and sort; ``total`` rows matched."""

    columns: list[Column]
    rows: list[list]
    offset: int
    total: int                           # rows that match filters and search (all spooled rows without them)
    spooled: int                         # rows the operation covered (the spool so far)
    complete: bool                       # the spool holds the whole result: no more rows will come

    def to_json(self) -> dict:
        return {"columns": [c.to_json() for c in self.columns], "rows": self.rows, "offset": self.offset,
                "total": self.total, "spooled": self.spooled, "complete": self.complete}


@dataclass
class ChartSpec:
    """What a chart shows: ``y`` aggregated per ``x`` (and ``color``); ``y`` None counts rows."""

    x: str
    y: Optional[str] = None
    aggregate: str = "sum"
    color: Optional[str] = None
    bucket: str = "auto"                 # dates and timestamps on x: their unit (auto picks one for max points)
    mark: str = "bar"

    def to_json(self) -> dict:
        return {"x": self.x, "y": self.y, "aggregate": self.aggregate, "color": self.color, "bucket": self.bucket,
                "mark": self.mark}


@dataclass
class ChartData:
    """The aggregated points of a chart (x, [color,] value), at most the cap the call was given."""

    spec: ChartSpec
    columns: list[str]                   # x, color (when set), value
    rows: list[list]
    groups: int                          # groups before the cap (categories beyond the top N are left out)
    spooled: int                         # rows the chart covers
    complete: bool
    note: Optional[str] = None           # what was left out or bucketed

    def to_json(self) -> dict:
        return {"spec": self.spec.to_json(), "columns": self.columns, "rows": self.rows, "groups": self.groups,
                "spooled": self.spooled, "complete": self.complete, "note": self.note}


@runtime_checkable
class ResultsApi(Protocol):
    """The result spool: whole-result pages, charts and exports of an operation."""

    def spool_result(self, session: SessionHandle, operation: OperationHandle) -> SpoolInfo:
        """Start reading every page of the operation into its spool (once; later calls answer its state).
        The spool reads the result from its first page: a client that fetched pages itself cannot spool it."""

    def get_result_spool(self, session: SessionHandle, operation: OperationHandle, wait_s: float = 0.0,
                         until: str = "done") -> SpoolInfo:
        """The spool's state, after waiting up to ``wait_s`` for it to be ``done`` or to hold its first ``rows``."""

    def result_page(self, session: SessionHandle, operation: OperationHandle, offset: int = 0, limit: int = 1000,
                    sort: Optional[list] = None, filters: Optional[list] = None,
                    search: Optional[str] = None) -> ResultPage:
        """A page of the whole spooled result: filtered (``RowFilter``), searched (a substring of any column,
        ignoring case), sorted (``SortKey``), then ``offset``/``limit``; with the number of matching rows."""

    def result_chart(self, session: SessionHandle, operation: OperationHandle, spec: ChartSpec,
                     max_points: int = 1000, top: int = 20) -> ChartData:
        """``spec.y`` aggregated per ``spec.x`` (and colour) over the whole spool: at most ``top`` categories
        (by the measure) and ``max_points`` points; dates bucketed to fit."""

    def suggest_chart(self, session: SessionHandle, operation: OperationHandle) -> ChartSpec:
        """The chart a person would start with: a category or date on x, a measure on y, a colour only for a
        column of at most 20 values."""

    def export_result(self, session: SessionHandle, operation: OperationHandle, format: str = "csv",
                      wait_s: float = 600.0) -> Iterator[bytes]:
        """The whole spooled result as a file (``csv``, ``parquet``, ``jsonl``), in chunks; waits up to
        ``wait_s`` for the spool to end (starting it if need be)."""
