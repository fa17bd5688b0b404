"""A small Python client for the gateway's REST API, with a DB-API 2.0 style cursor.

Standard library only (``http.client`` on one kept-alive connection); orjson is used when present.

    from workbench_client import GatewayClient, connect
    with GatewayClient("http://127.0.0.1:8083") as client:
        session = client.open_session(name="notebook")
        for row in session.execute("SELECT id FROM range(3)").rows():
            print(row)
    with connect("http://127.0.0.1:8083") as conn:          # DB-API 2.0
        cur = conn.cursor(); cur.execute("SELECT 1 AS one"); print(cur.description, cur.fetchall())
"""
from __future__ import annotations

import gc
import http.client
import threading
import time
from concurrent.futures import ThreadPoolExecutor
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
                 retries: int = 2) -> None:
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise InterfaceError(f"gateway URL {url!r} is not an http(s) URL like http://127.0.0.1:8083")
        self._https = parsed.scheme == "https"
        self._host = parsed.hostname
        self._port = parsed.port or (443 if self._https else 80)
        self._headers = {"Accept": "application/json"}
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
            kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = kind(self._host, self._port, timeout=self.timeout_s)
        return self._conn

    def request(self, method: str, path: str, body: Any = None, params: Optional[dict] = None,
                raw: Optional[bytes] = None, content_type: str = "application/json", retry: bool = False) -> Any:
        """Send one request and decode the JSON answer; raise an Error for any status >= 400.

        ``retry``: the call is safe to repeat (GETs, result pages by token), so a dropped
        connection is retried on a new one.
        """
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
        try:
            decoded = _json.loads(payload) if payload else {}
        except ValueError:
            decoded = {"root_cause": payload[:500].decode("utf-8", "replace")}
        if response.status >= 400:
            raise _error_for(response.status, decoded if isinstance(decoded, dict) else {})
        return decoded

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

    def pages(self, max_rows: Optional[int] = None, row_format: str = "JSON",
              timeout_s: float = 3600.0, prefetch: bool = True) -> Iterator[dict]:
        """Every page with rows or the end, in token order. A page is retried by its own token.

        ``prefetch``: ask for the next page while the caller works on this one, so the server
        prepares page N+1 while the client decodes page N (asking for N+1 frees page N on the server).
        """
        uri: Optional[str] = f"{self.path}/result/0?" + urlencode(
            {k: v for k, v in {"rowFormat": row_format, "maxRows": max_rows}.items() if v is not None})
        deadline = time.monotonic() + timeout_s
        waits = 0
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gateway-client-prefetch") if prefetch else None
        fetch = self._fetch_page
        pending = pool.submit(fetch, uri) if pool else None
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
                if uri is not None and pool:
                    pending = pool.submit(fetch, uri)
                yield page
        finally:
            if pool:
                pool.shutdown(wait=True, cancel_futures=True)

    def _fetch_page(self, uri: str) -> dict:
        """One page, decoded with the cyclic GC paused: a page is tens of thousands of new containers
        and nothing cyclic, and collections while they pile up cost more than the decoding."""
        paused = gc.isenabled()
        gc.disable()
        try:
            page = self.session.client.request("GET", uri, retry=True)
            if "results" in page:
                page["rows"] = [tuple(row["fields"]) for row in page["results"]["data"]]
            return page
        finally:
            if paused:
                gc.enable()

    def rows(self, max_rows: Optional[int] = None) -> Iterator[tuple]:
        for page in self.pages(max_rows):
            yield from page["rows"]


# -- DB-API 2.0 -----------------------------------------------------------------------------------

apilevel = "2.0"
threadsafety = 1  # threads may share the module, not connections
paramstyle = "qmark"  # declared for tools; parameters are not supported (the gateway takes SQL text)

_TYPE_CODES = {"VARCHAR": "STRING", "CHAR": "STRING"}


def connect(url: str = "http://127.0.0.1:8083", token: Optional[str] = None, properties: Optional[dict] = None,
            session_name: Optional[str] = None, session: Optional[str] = None) -> "Connection":
    """A DB-API connection: its own gateway session (or an existing one by handle)."""
    client = GatewayClient(url, token)
    remote = client.session(session) if session else client.open_session(properties, session_name)
    return Connection(client, remote, owns_session=session is None)


class Connection:
    def __init__(self, client: GatewayClient, session: RemoteSession, owns_session: bool = True) -> None:
        self.client = client
        self.session = session
        self._owns_session = owns_session
        self._closed = False

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
    arraysize = 1000

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.description: Optional[list[tuple]] = None
        self.rowcount = -1
        self._operation: Optional[RemoteOperation] = None
        self._rows: Optional[Iterator[tuple]] = None
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
        if parameters:
            raise NotSupportedError("query parameters are not supported; the gateway takes SQL text")
        self._finish()
        self._operation = self.connection.session.execute(operation)
        self._rows = self._operation.rows(self.arraysize if self.arraysize > 1 else None)
        first = next(self._rows, None)  # waits for the result (or raises the statement's error)
        columns = self._operation.columns or []
        self.description = [(c["name"], _type_code(c["type"]), None, None, c["type"].get("precision"),
                             c["type"].get("scale"), c["type"].get("nullable", True)) for c in columns] or None
        if first is not None:
            self._rows = _prepend(first, self._rows)
        return self

    def executemany(self, operation: str, seq_of_parameters) -> None:
        raise NotSupportedError("query parameters are not supported; the gateway takes SQL text")

    def fetchone(self) -> Optional[tuple]:
        self._check_result()
        return next(self._rows, None)

    def fetchmany(self, size: Optional[int] = None) -> list[tuple]:
        self._check_result()
        size = self.arraysize if size is None else size
        rows = []
        for row in self._rows:
            rows.append(row)
            if len(rows) >= size:
                break
        return rows

    def fetchall(self) -> list[tuple]:
        self._check_result()
        return list(self._rows)

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

    def _check_result(self) -> None:
        if self._rows is None:
            raise InterfaceError("no statement was executed on this cursor")

    def _finish(self) -> None:
        if self._operation is not None:
            try:
                self._operation.close()
            except Error:
                pass
        self._operation = None
        self._rows = None
        self.description = None


def _prepend(first: tuple, rest: Iterator[tuple]) -> Iterator[tuple]:
    yield first
    yield from rest


def _type_code(type_json: dict) -> str:
    name = type_json.get("type", "")
    return _TYPE_CODES.get(name, name)
