"""A small Python client for the gateway's REST API, with a DB-API 2.0 cursor.

``http.client`` on one kept-alive connection; result pages come as Arrow IPC streams (pyarrow)
by default, or as JSON (``row_format="JSON"``; orjson is used when present). Rows carry native
Python values either way, as DB-API drivers do: ``datetime.date``, ``datetime.datetime`` (aware,
in UTC, for TIMESTAMP_LTZ), ``Decimal``, ``bytes``.

    from workbench_client import GatewayClient, connect
    with GatewayClient("http://127.0.0.1:8083") as client:
        session = client.open_session(name="notebook")
        for row in session.execute("SELECT id FROM range(3)").rows():
            print(row)
    with connect("http://127.0.0.1:8083") as conn:          # DB-API 2.0
        cur = conn.cursor(); cur.execute("SELECT 1 AS one"); print(cur.description, cur.fetchall())
        cur.execute("SELECT * FROM range(10)"); frame = cur.fetch_pandas()    # or fetch_arrow_table()
"""
from __future__ import annotations

import base64
import datetime as dt
import gc
import http.client
import re
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any, Iterator, Optional
from urllib.parse import quote, urlencode, urlparse

try:
    import orjson as _json

    def _dumps(value) -> bytes:
        return _json.dumps(value)
except ImportError:  # pragma: no cover - the workbench installs orjson
    import json as _json

    def _dumps(value) -> bytes:
        return _json.dumps(value).encode()

API = "/v2"
NOT_READY_BACKOFF_S = (0.005, 0.01, 0.02, 0.05, 0.1)
ARROW_MEDIA_TYPE = "application/vnd.apache.arrow.stream"
ARROW_PAGE_KEY = b"workbench.page"
DEFAULT_PAGE_ROWS = 50_000  # rows per page the client asks for (the server's result buffer holds 50,000)


# -- errors (DB-API 2.0 names) --------------------------------------------------------------------

class Error(Exception):
    """A failure answered by the server (``status`` and its JSON body) or in the client."""

    def __init__(self, message: str, status: Optional[int] = None, body: Optional[dict] = None) -> None:
        super().__init__(message)
        self.status = status
        self.body = body or {}

    @property
    def error_class(self) -> Optional[str]:
        return self.body.get("error_class")

    @property
    def sqlstate(self) -> Optional[str]:
        return self.body.get("sqlstate")


class Warning(Exception):  # noqa: A001 - the DB-API name
    pass


class InterfaceError(Error):
    pass


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    """Transport trouble, an unknown (expired) session or operation, a wrong state."""


class ProgrammingError(DatabaseError):
    """The request or the SQL was wrong (HTTP 400)."""


class NotSupportedError(DatabaseError):
    pass


class DataError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class InternalError(DatabaseError):
    pass


GatewayHTTPError = Error


def _error_for(status: int, body: dict) -> Error:
    message = body.get("root_cause") or "; ".join(body.get("errors", [])) or f"HTTP {status}"
    kind = ProgrammingError if status == 400 else NotSupportedError if status == 501 else \
        InterfaceError if status in (401, 413) else OperationalError
    return kind(f"HTTP {status}: {message}", status, body)


# -- transport ------------------------------------------------------------------------------------

class GatewayClient:
    """One connection to a gateway; thread-safe (requests are serialized)."""

    def __init__(self, url: str = "http://127.0.0.1:8083", token: Optional[str] = None, timeout_s: float = 60.0,
                 retries: int = 2, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        """``ssl_context``: for https, e.g. ``ssl.create_default_context(cafile=…)`` for a private CA
        (default: the system's trusted certificates, host name checked)."""
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise InterfaceError(f"gateway URL {url!r} is not an http(s) URL like http://127.0.0.1:8083")
        self._https = parsed.scheme == "https"
        self._ssl_context = ssl_context
        self._host = parsed.hostname
        self._port = parsed.port or (443 if self._https else 80)
        # The custom header tells the server this is a program, not another site's web page (docs/rest.md).
        self._headers = {"Accept": "application/json", "X-Workbench-Client": "workbench_client"}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"
        self.timeout_s = timeout_s
        self.retries = retries
        self._conn: Optional[http.client.HTTPConnection] = None
        self._lock = threading.Lock()

    def __enter__(self) -> "GatewayClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            if self._https:
                self._conn = http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout_s,
                                                         context=self._ssl_context)
            else:
                self._conn = http.client.HTTPConnection(self._host, self._port, timeout=self.timeout_s)
        return self._conn

    def request(self, method: str, path: str, body: Any = None, params: Optional[dict] = None,
                raw: Optional[bytes] = None, content_type: str = "application/json", retry: bool = False) -> Any:
        """Send one request and decode the JSON answer; raise an Error for any status >= 400.

        ``retry``: the call is safe to repeat (GETs, result pages by token), so a dropped
        connection is retried on a new one.
        """
        _, payload = self.exchange(method, path, body, params, raw, content_type, retry)
        try:
            return _json.loads(payload) if payload else {}
        except ValueError:
            raise InterfaceError(f"{method} {path} answered something that is not JSON: "
                                 f"{payload[:200].decode('utf-8', 'replace')!r}; is the URL a workbench's REST API?")

    def exchange(self, method: str, path: str, body: Any = None, params: Optional[dict] = None,
                 raw: Optional[bytes] = None, content_type: str = "application/json",
                 retry: bool = False) -> tuple[str, bytes]:
        """One request; its answer's content type and bytes (an Error for any status >= 400)."""
        if params:
            path += ("&" if "?" in path else "?") + urlencode({k: v for k, v in params.items() if v is not None})
        headers = dict(self._headers)
        data = raw if raw is not None else (_dumps(body) if body is not None else None)
        if data is not None:
            headers["Content-Type"] = content_type if raw is not None else "application/json"
        attempts = 1 + (self.retries if retry or method == "GET" else 0)
        with self._lock:
            for attempt in range(attempts):
                try:
                    conn = self._connection()
                    conn.request(method, path, body=data, headers=headers)
                    response = conn.getresponse()
                    payload = response.read()
                    break
                except (ConnectionError, http.client.HTTPException, OSError) as exc:
                    if self._conn is not None:
                        self._conn.close()
                    self._conn = None
                    if attempt + 1 >= attempts:
                        raise OperationalError(f"{method} {path} failed: {exc}") from exc
                    time.sleep(0.05 * (attempt + 1))
        if response.status >= 400:
            try:
                decoded = _json.loads(payload) if payload else {}
            except ValueError:
                decoded = {"root_cause": payload[:500].decode("utf-8", "replace")}
            raise _error_for(response.status, decoded if isinstance(decoded, dict) else {})
        return response.getheader("Content-Type", "application/json"), payload

    # -- calls --------------------------------------------------------------------------------------

    def info(self) -> dict:
        return self.request("GET", f"{API}/info")

    def api_versions(self) -> list[str]:
        return self.request("GET", f"{API}/api_versions")["versions"]

    def open_session(self, properties: Optional[dict] = None, name: Optional[str] = None) -> "RemoteSession":
        body = {"properties": {str(k): str(v) for k, v in (properties or {}).items()}, "sessionName": name}
        return RemoteSession(self, self.request("POST", f"{API}/sessions", body)["sessionHandle"])

    def session(self, handle: str) -> "RemoteSession":
        """Attach to an existing session (e.g. one the browser UI opened)."""
        return RemoteSession(self, handle)


class RemoteSession:
    def __init__(self, client: GatewayClient, handle: str) -> None:
        self.client = client
        self.handle = handle
        self.path = f"{API}/sessions/{quote(handle, safe='')}"

    def __enter__(self) -> "RemoteSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.client.request("DELETE", self.path)

    def heartbeat(self) -> None:
        self.client.request("POST", f"{self.path}/heartbeat", retry=True)

    def properties(self) -> dict:
        return self.client.request("GET", self.path)["properties"]

    def configure(self, statement: str, timeout_ms: Optional[int] = None) -> None:
        self.client.request("POST", f"{self.path}/configure-session",
                            {"statement": statement, "executionTimeout": timeout_ms})

    def complete(self, statement: str, position: Optional[int] = None) -> list[str]:
        position = len(statement) if position is None else position
        return self.client.request("GET", f"{self.path}/complete-statement",
                                   params={"statement": statement, "position": position})["candidates"]

    def execute(self, statement: str, config: Optional[dict] = None,
                timeout_ms: Optional[int] = None) -> "RemoteOperation":
        body = {"statement": statement, "executionConfig": config, "executionTimeout": timeout_ms}
        handle = self.client.request("POST", f"{self.path}/statements", body)["operationHandle"]
        return RemoteOperation(self, handle)

    def sql(self, statement: str, **kwargs) -> list[tuple]:
        """Run a statement, fetch every row, close the operation."""
        with self.execute(statement, **kwargs) as operation:
            return list(operation.rows())

    # -- catalog (beyond Flink) ---------------------------------------------------------------------

    def catalogs(self) -> list[str]:
        return self.client.request("GET", f"{self.path}/catalogs")["catalogs"]

    def databases(self, catalog: Optional[str] = None) -> list[str]:
        return self.client.request("GET", f"{self.path}/databases", params={"catalog": catalog})["databases"]

    def current_database(self) -> str:
        return self.client.request("GET", f"{self.path}/databases")["currentDatabase"]

    def tables(self, catalog: Optional[str] = None, database: Optional[str] = None, kind: str = "ALL") -> list[dict]:
        return self.client.request("GET", f"{self.path}/tables",
                                   params={"catalog": catalog, "database": database, "kind": kind})["tables"]

    def table(self, name: str) -> dict:
        return self.client.request("GET", f"{self.path}/tables/{quote(name, safe='')}")

    def functions(self, catalog: Optional[str] = None, database: Optional[str] = None,
                  kind: Optional[str] = None) -> list[dict]:
        return self.client.request("GET", f"{self.path}/functions",
                                   params={"catalog": catalog, "database": database, "kind": kind})["functions"]

    def function(self, name: str) -> dict:
        return self.client.request("GET", f"{self.path}/functions/{quote(name, safe='')}")


class RemoteOperation:
    """A submitted statement: status, its pages (retrying NOT_READY and dropped connections), cancel, close."""

    def __init__(self, session: RemoteSession, handle: str) -> None:
        self.session = session
        self.handle = handle
        self.path = f"{session.path}/operations/{quote(handle, safe='')}"
        self.columns: Optional[list[dict]] = None
        self._closed = False

    def __enter__(self) -> "RemoteOperation":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def status(self) -> str:
        return self.session.client.request("GET", f"{self.path}/status")["status"]

    def info(self) -> dict:
        return self.session.client.request("GET", self.path)

    def cancel(self) -> str:
        return self.session.client.request("POST", f"{self.path}/cancel")["status"]

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self.session.client.request("DELETE", f"{self.path}/close")
            except OperationalError as exc:
                if exc.status != 404:  # already gone with its session
                    raise

    def pages(self, max_rows: Optional[int] = DEFAULT_PAGE_ROWS, row_format: str = "ARROW",
              timeout_s: float = 3600.0, prefetch: bool = True) -> Iterator[dict]:
        """Every page with rows or the end, in token order. A page is retried by its own token.

        A page is the server's JSON fields; an Arrow page (``row_format="ARROW"``) has its rows as a
        ``pyarrow.Table`` under ``"table"``, a JSON one as native tuples under ``"rows"``.
        ``prefetch``: ask for the next page while the caller works on this one, so the server
        prepares page N+1 while the client decodes page N (asking for N+1 frees page N on the server).
        """
        uri: Optional[str] = f"{self.path}/result/0?" + urlencode(
            {k: v for k, v in {"rowFormat": row_format, "maxRows": max_rows}.items() if v is not None})
        deadline = time.monotonic() + timeout_s
        waits = 0
        # The prefetch thread starts with the second page: until the first one is here the caller
        # has nothing to do, and a result of one page (SELECT 1) needs no thread at all.
        pool: Optional[ThreadPoolExecutor] = None
        fetch = self._fetch_page
        pending = None
        try:
            while uri is not None:
                if time.monotonic() > deadline:
                    raise OperationalError(f"no end of the result of operation {self.handle} within {timeout_s:g} s")
                page = pending.result() if pending is not None else fetch(uri)
                pending = None
                if page["resultType"] == "NOT_READY":
                    time.sleep(NOT_READY_BACKOFF_S[min(waits, len(NOT_READY_BACKOFF_S) - 1)])
                    waits += 1
                    if pool:
                        pending = pool.submit(fetch, uri)
                    continue
                waits = 0
                self.columns = page["results"]["columns"]
                uri = page["nextResultUri"]
                if uri is not None and prefetch:
                    if pool is None:
                        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gateway-client-prefetch")
                    pending = pool.submit(fetch, uri)
                yield page
        finally:
            if pool:
                pool.shutdown(wait=True, cancel_futures=True)

    def _fetch_page(self, uri: str) -> dict:
        """One page, decoded with the cyclic GC paused: a JSON page is tens of thousands of new
        containers and nothing cyclic, and collections while they pile up cost more than the decoding."""
        paused = gc.isenabled()
        gc.disable()
        try:
            content_type, payload = self.session.client.exchange("GET", uri, retry=True)
            if content_type.startswith(ARROW_MEDIA_TYPE):
                return _arrow_page(payload)
            page = _json.loads(payload)
            if "results" in page:
                page["rows"] = json_rows(page["results"]["columns"], page["results"]["data"])
            return page
        finally:
            if paused:
                gc.enable()

    def rows(self, max_rows: Optional[int] = DEFAULT_PAGE_ROWS, row_format: str = "ARROW") -> Iterator[tuple]:
        for page in self.pages(max_rows, row_format):
            yield from page_rows(page)

    def arrow_table(self, max_rows: Optional[int] = DEFAULT_PAGE_ROWS):
        """Every remaining row as one ``pyarrow.Table`` (Spark's Arrow types, TIMESTAMP_LTZ in UTC)."""
        import pyarrow as pa

        tables = [page["table"] for page in self.pages(max_rows, "ARROW")]
        if not tables:
            raise InterfaceError("the result has no pages; was it already read?")
        return pa.concat_tables(tables)

    def pandas(self, max_rows: Optional[int] = DEFAULT_PAGE_ROWS):
        """Every remaining row as a pandas DataFrame (through Arrow, page by page: see ``pages_to_pandas``)."""
        frame = pages_to_pandas(page["table"] for page in self.pages(max_rows, "ARROW"))
        if frame is None:
            raise InterfaceError("the result has no pages; was it already read?")
        return frame


def page_rows(page: dict) -> list[tuple]:
    """A page's rows as tuples of native Python values (converted from Arrow on first use)."""
    if "rows" not in page:
        page["rows"] = arrow_rows(page["table"]) if "table" in page else []
    return page["rows"]


def _arrow_page(payload: bytes) -> dict:
    import pyarrow as pa

    with pa.ipc.open_stream(pa.py_buffer(payload)) as reader:
        table = reader.read_all()
    page = _json.loads(table.schema.metadata[ARROW_PAGE_KEY])
    page["table"] = table.replace_schema_metadata(None)
    return page


def arrow_rows(table) -> list[tuple]:
    """Rows of an Arrow table as tuples of native values, column by column (far faster than by row)."""
    if table.num_rows == 0:
        return []
    columns = [_native_column(table.column(i)) for i in range(table.num_columns)]
    return list(zip(*columns)) if columns else [() for _ in range(table.num_rows)]


def _native_column(column) -> list:
    import pyarrow as pa

    kind = column.type
    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        values = _temporal_values(column)
        if values is not None:
            return values
    try:
        values = column.to_pylist()
    except (OverflowError, ValueError):  # a datetime out of Python's range (UTC year 0 of a zoned timestamp)
        return _native_by_parts(column)
    if pa.types.is_map(kind) or pa.types.is_nested(kind):
        return [_native_nested(v, kind) for v in values]
    return values


def _native_by_parts(column) -> list:
    """``to_pylist()`` by child columns, for values it cannot convert at once: a zoned timestamp
    whose UTC instant is before year 1 (year 1 in a zone east of UTC) becomes an aware datetime
    in its own zone (Arrow's ``local_timestamp``), at any depth. A value out of datetime's range
    in its zone too raises ``to_pylist()``'s error, as before."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    kind = column.type
    valid = column.is_valid().to_pylist()
    if pa.types.is_timestamp(kind) and kind.tz:
        tzinfo = pa.lib.string_to_tzinfo(kind.tz)
        local = pc.local_timestamp(column).to_pylist()  # out of range here too: to_pylist()'s error
        return [None if v is None else v.replace(tzinfo=tzinfo) for v in local]
    if pa.types.is_struct(kind):
        names = [kind.field(i).name for i in range(kind.num_fields)]
        children = [_native_column(child) for child in column.flatten()]
        return [dict(zip(names, values)) if ok else None for ok, values in zip(valid, zip(*children))]
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_map(kind):
        offsets = column.offsets.to_pylist()
        if pa.types.is_map(kind):
            keys, items = _native_column(column.values.field(0)), _native_column(column.values.field(1))
            return [dict(zip(keys[a:b], items[a:b])) if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
        values = _native_column(column.values)
        return [values[a:b] if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
    return column.to_pylist()


# datetime.datetime's range (years 1 to 9999) in microseconds since the epoch.
_MIN_US = -62_135_596_800_000_000
_MAX_US = 253_402_300_799_999_999
_MIN_DAY, _MAX_DAY = -719_162, 2_932_896  # 0001-01-01 and 9999-12-31 in days since the epoch
_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu",
                        "GMT", "Etc/GMT", "GMT0", "Etc/GMT0", "GMT+0", "GMT-0", "Etc/GMT+0", "Etc/GMT-0",
                        "Greenwich", "Etc/Greenwich", "Z", "+00:00", "-00:00"})


def _temporal_values(column) -> Optional[list]:
    """Dates and timestamps (units s, ms, us) as ``date``/``datetime`` objects made by numpy in C:
    ``to_pylist()`` builds them one by one in Python, ~20x slower (2.4 s for a million zoned
    timestamps, measured). The same values and time zone objects as ``to_pylist()``; None when
    this path does not apply (nanoseconds, values outside datetime's years 1-9999): then the caller
    takes ``to_pylist()``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    if len(column) == 0:
        return []
    if pa.types.is_date(kind):
        days = column.cast(pa.date32()).cast(pa.int32()) if pa.types.is_date64(kind) else column.cast(pa.int32())
        ints = days.to_numpy(zero_copy_only=False) if days.null_count == 0 else \
            days.fill_null(0).to_numpy(zero_copy_only=False)
        if ints.min() < _MIN_DAY or ints.max() > _MAX_DAY:
            return None
        values = ints.astype("datetime64[D]").astype(object).tolist()  # datetime.date
        return _with_nulls(values, column)
    if kind.unit == "ns":
        return None
    micros = column.cast(pa.int64())
    if kind.unit != "us":
        micros = pc.multiply(micros, {"s": 1_000_000, "ms": 1000}[kind.unit])
    ints = micros.fill_null(0).to_numpy(zero_copy_only=False) if micros.null_count else \
        micros.to_numpy(zero_copy_only=False)
    if ints.min() < _MIN_US or ints.max() > _MAX_US:
        return None
    if not kind.tz:
        return _with_nulls(ints.astype("datetime64[us]").astype(object).tolist(), column)
    tzinfo = pa.lib.string_to_tzinfo(kind.tz)  # what to_pylist() attaches
    deltas = ints.astype("timedelta64[us]").astype(object).tolist()
    try:
        if kind.tz in _UTC_NAMES or isinstance(tzinfo, dt.timezone):
            # A fixed offset: the epoch in that zone plus a timedelta is the zoned value (C-level adds).
            epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc).astimezone(tzinfo)
            values = list(map(epoch.__add__, deltas))
        else:  # a zone with daylight saving time: each instant converted on its own
            epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
            values = [(epoch + d).astimezone(tzinfo) for d in deltas]
    except OverflowError:  # the local time falls outside years 1-9999: as to_pylist() does it
        return None
    return _with_nulls(values, column)


def _with_nulls(values: list, column) -> list:
    """``values`` with None where ``column`` is null (the filled-in placeholders replaced)."""
    if column.null_count:
        import numpy as np

        for index in np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False)).tolist():
            values[index] = None
    return values


def _native_nested(value, kind):
    """Maps as dicts, also inside lists and structs (Arrow gives a map as a list of pairs)."""
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_map(kind):
        return {_native_nested(k, kind.key_type): _native_nested(v, kind.item_type) for k, v in value}
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return [_native_nested(v, kind.value_type) for v in value]
    if pa.types.is_struct(kind):
        return {kind.field(i).name: _native_nested(value.get(kind.field(i).name), kind.field(i).type)
                for i in range(kind.num_fields)}
    return value


def to_pandas(table):
    """A DataFrame of an Arrow table, as Spark's ``toPandas()`` gives it (dates as objects, not timestamps)."""
    return table.to_pandas(date_as_object=True)


def pages_to_pandas(tables: Iterator) -> Any:
    """One DataFrame of a result's page tables, each converted as it arrives, while the next page
    is on its way (``pages`` prefetches it), then concatenated: the same frame as converting
    the whole table at the end, in less time (the conversion overlaps the transfer, and works in
    page-sized pieces). None without any page. Duplicate column names, which ``pandas.concat``
    cannot line up, take the whole-table way."""
    import pandas as pd
    import pyarrow as pa

    frames, held = [], []
    for table in tables:
        if held or len(set(table.column_names)) != table.num_columns:
            held.append(table)
        elif table.num_rows or not frames:
            frames.append(to_pandas(table))
    if held:
        return to_pandas(pa.concat_tables(held))
    if not frames:
        return None
    nonempty = [f for f in frames if len(f)] or frames[:1]
    if len(nonempty) == 1:
        return nonempty[0]
    return pd.concat(nonempty, ignore_index=True)


def json_rows(columns: list[dict], data: list[dict]) -> list[tuple]:
    """A JSON page's rows as tuples of native values, decoded column by column: a converter mapped
    over a column (``map`` calls it from C) instead of a Python loop over every value of every row."""
    if not data:
        return []
    fields = [row["fields"] for row in data]
    decoders = [_json_decoder(c["type"]) for c in columns]
    if not any(decoders):
        return list(map(tuple, fields))
    values = list(zip(*fields))
    return list(zip(*(column if decode is None else _decode_column(decode, column)
                      for decode, column in zip(decoders, values))))


def _decode_column(decode, column: tuple) -> list:
    if None in column:
        return [None if value is None else decode(value) for value in column]
    return list(map(decode, column))


def _json_decoder(type_json: dict):
    """How a non-null JSON value of this type becomes a native one; None when it is one already."""
    name = type_json.get("type")
    if name == "DECIMAL":
        return _decimal_decoder(type_json.get("scale", 0))
    return _JSON_DECODERS.get(name)


def _decimal_decoder(scale: int):
    """DECIMAL(p, s) comes as text, or as a JSON number when p <= 15 (then exact to its s digits)."""
    step = Decimal(1).scaleb(-scale)
    return lambda value: Decimal(value) if isinstance(value, str) else Decimal(repr(value)).quantize(step)


def _iso_or_text(parse):
    """``parse``, or the text itself for a date or time out of Python's years 1-9999 (a zoned
    timestamp of year 1 east of UTC is in year 0 in UTC): JSON pages carry no zone to show it in."""
    def decode(value):
        try:
            return parse(value)
        except ValueError:
            return value
    return decode


_JSON_DECODERS = {
    "DATE": _iso_or_text(dt.date.fromisoformat),
    "TIMESTAMP": _iso_or_text(dt.datetime.fromisoformat),
    "TIMESTAMP_LTZ": _iso_or_text(dt.datetime.fromisoformat),  # "…Z": aware, in UTC
    "VARBINARY": base64.b64decode,
}


# -- DB-API 2.0 -----------------------------------------------------------------------------------

apilevel = "2.0"
threadsafety = 1  # threads may share the module, not connections
paramstyle = "named"  # :name, bound in the client as Spark SQL literals (the gateway takes SQL text)

_TYPE_CODES = {"VARCHAR": "STRING", "CHAR": "STRING"}


def connect(url: str = "http://127.0.0.1:8083", token: Optional[str] = None, properties: Optional[dict] = None,
            session_name: Optional[str] = None, session: Optional[str] = None, row_format: str = "ARROW",
            page_rows: int = DEFAULT_PAGE_ROWS, ssl_context: Optional[ssl.SSLContext] = None,
            timeout_s: float = 60.0, database: Optional[str] = None) -> "Connection":
    """A DB-API connection: its own gateway session (or an existing one by handle).

    ``row_format``: ARROW (the default, needs pyarrow) or JSON, how result pages travel; rows are
    native Python values either way. ``page_rows``: rows asked for per page. ``database``: the
    session's current database (``USE``).
    """
    fmt = str(row_format).upper()
    if fmt not in ("ARROW", "JSON"):
        raise InterfaceError(f"row_format {row_format!r} is not supported: use ARROW (the default) or JSON")
    client = GatewayClient(url, token, timeout_s=timeout_s, ssl_context=ssl_context)
    remote = None
    try:
        remote = client.session(session) if session else client.open_session(properties, session_name)
        if database:
            remote.configure("USE " + quote_identifier(database))
    except Error:
        if remote is not None and not session:
            try:
                remote.close()
            except Error:
                pass
        client.close()
        raise
    return Connection(client, remote, owns_session=session is None, row_format=fmt, page_rows=page_rows)


class Connection:
    def __init__(self, client: GatewayClient, session: RemoteSession, owns_session: bool = True,
                 row_format: str = "ARROW", page_rows: int = DEFAULT_PAGE_ROWS) -> None:
        self.client = client
        self.session = session
        self.row_format = row_format
        self.page_rows = page_rows
        self._owns_session = owns_session
        self._closed = False

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def cursor(self) -> "Cursor":
        if self._closed:
            raise InterfaceError("the connection is closed")
        return Cursor(self)

    def commit(self) -> None:
        """Spark SQL statements commit as they run; nothing to do."""

    def rollback(self) -> None:
        raise NotSupportedError("Spark SQL has no transactions to roll back")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._owns_session:
                self.session.close()
        except OperationalError:
            pass  # expired already
        finally:
            self.client.close()


class Cursor:
    """DB-API 2.0 cursor; beside the standard calls, ``fetch_arrow_table()`` and ``fetch_pandas()``
    return the rows not fetched yet in one go."""

    arraysize = 1000

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.description: Optional[list[tuple]] = None
        self.rowcount = -1
        self._operation: Optional[RemoteOperation] = None
        self._pages: Optional[Iterator[dict]] = None
        self._page: Optional[dict] = None  # the page rows are read from, and how far
        self._offset = 0
        self._closed = False

    def __enter__(self) -> "Cursor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __iter__(self) -> Iterator[tuple]:
        while True:
            row = self.fetchone()
            if row is None:
                return
            yield row

    def execute(self, operation: str, parameters=None) -> "Cursor":
        if self._closed:
            raise InterfaceError("the cursor is closed")
        statement = bind_parameters(operation, parameters)
        self._finish()
        connection = self.connection
        self._operation = connection.session.execute(statement)
        self._pages = self._operation.pages(connection.page_rows, connection.row_format)
        self._page = next(self._pages, None)  # waits for the result (or raises the statement's error)
        self._offset = 0
        columns = self._operation.columns or []
        self.description = [(c["name"], _type_code(c["type"]), None, None, c["type"].get("precision"),
                             c["type"].get("scale"), c["type"].get("nullable", True)) for c in columns] or None
        return self

    def executemany(self, operation: str, seq_of_parameters) -> None:
        for parameters in seq_of_parameters:
            self.execute(operation, parameters)

    def fetchone(self) -> Optional[tuple]:
        rows = self.fetchmany(1)
        return rows[0] if rows else None

    def fetchmany(self, size: Optional[int] = None) -> list[tuple]:
        self._check_result()
        size = self.arraysize if size is None else size
        taken: list[tuple] = []
        while len(taken) < size and self._page is not None:
            rows = page_rows(self._page)
            part = rows[self._offset:self._offset + size - len(taken)]
            taken += part
            self._offset += len(part)
            if self._offset >= len(rows):
                self._advance()
        return taken

    def fetchall(self) -> list[tuple]:
        self._check_result()
        taken: list[tuple] = []
        while self._page is not None:
            rows = page_rows(self._page)
            taken += rows[self._offset:] if self._offset else rows
            self._advance()
        return taken

    def fetch_arrow_table(self):
        """The rows not fetched yet as one ``pyarrow.Table`` (needs row_format ARROW, the default)."""
        import pyarrow as pa

        self._check_result()
        if self.connection.row_format != "ARROW":
            raise NotSupportedError("fetch_arrow_table needs Arrow pages: connect with row_format='ARROW' "
                                    "(the default)")
        tables = list(self._remaining_tables())
        if not tables:
            raise InterfaceError("every row of this result was fetched already")
        return pa.concat_tables(tables)

    def fetch_pandas(self):
        """The rows not fetched yet as a pandas DataFrame (through Arrow, page by page: see ``pages_to_pandas``)."""
        self._check_result()
        if self.connection.row_format != "ARROW":
            raise NotSupportedError("fetch_pandas needs Arrow pages: connect with row_format='ARROW' (the default)")
        frame = pages_to_pandas(self._remaining_tables())
        if frame is None:
            raise InterfaceError("every row of this result was fetched already")
        return frame

    def _remaining_tables(self) -> Iterator:
        """The Arrow table of each page not read yet (the current one from the read position on),
        each handed over before the next is waited for."""
        while self._page is not None:
            table = self._page["table"]
            yield table.slice(self._offset) if self._offset else table
            self._advance()

    def cancel(self) -> None:
        """Stop the running statement (beyond DB-API)."""
        if self._operation is not None:
            self._operation.cancel()

    def setinputsizes(self, sizes) -> None:
        pass

    def setoutputsize(self, size, column=None) -> None:
        pass

    def close(self) -> None:
        self._finish()
        self._closed = True

    def _advance(self) -> None:
        self._page = next(self._pages, None) if self._pages is not None else None
        self._offset = 0

    def _check_result(self) -> None:
        if self._pages is None:
            raise InterfaceError("no statement was executed on this cursor")

    def _finish(self) -> None:
        if self._pages is not None:
            self._pages.close()  # stops its prefetch
        if self._operation is not None:
            try:
                self._operation.close()
            except Error:
                pass
        self._operation = None
        self._pages = None
        self._page = None
        self.description = None


def quote_identifier(name: str) -> str:
    """A Spark SQL identifier in back-quotes (a back-quote inside doubled)."""
    return "`" + name.replace("`", "``") + "`"


# Strings, quoted names and comments (left alone), ``::`` casts, and ``:name`` placeholders.
_PLACEHOLDERS = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`]|``)*`|--[^\n]*|/\*.*?\*/|::"""
                           r"""|:([A-Za-z_][A-Za-z0-9_]*)""", re.S)


def bind_parameters(operation: str, parameters) -> str:
    """``:name`` placeholders (paramstyle named) replaced by Spark SQL literals, outside strings and
    comments. Without parameters (None or empty) the text goes as it is."""
    if not parameters:
        return operation
    if not isinstance(parameters, dict):
        raise ProgrammingError(f"parameters must be a mapping for :name placeholders (paramstyle named), "
                               f"not {type(parameters).__name__}")

    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        if name not in parameters:
            raise ProgrammingError(f"the statement has the placeholder :{name} but no parameter {name!r} was given "
                                   f"(given: {', '.join(sorted(parameters))})")
        return sql_literal(parameters[name])

    return _PLACEHOLDERS.sub(replace, operation)


def sql_literal(value) -> str:
    """A Python value as a Spark SQL literal."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"CAST('{value}' AS DOUBLE)"
        return repr(value) + "D"
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            utc = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
            return f"TIMESTAMP'{utc.isoformat(sep=' ')}+00:00'"  # TIMESTAMP_LTZ, the instant
        return f"TIMESTAMP_NTZ'{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date):
        return f"DATE'{value.isoformat()}'"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"X'{bytes(value).hex()}'"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple)):
        return "array(" + ", ".join(sql_literal(v) for v in value) + ")"
    raise NotSupportedError(f"cannot send a {type(value).__name__} as a SQL parameter; use str, int, float, "
                            f"Decimal, bool, date, datetime, bytes, a list of them, or None")


def _type_code(type_json: dict) -> str:
    name = type_json.get("type", "")
    return _TYPE_CODES.get(name, name)
