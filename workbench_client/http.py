"""The REST API over HTTP: ``GatewayClient`` (one kept-alive connection), ``RemoteSession`` and
``RemoteOperation`` (result pages by token, as Arrow IPC streams or JSON)."""
from __future__ import annotations

import gc
import http.client
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator, Optional
from urllib.parse import quote, urlencode, urlparse

from workbench_client.decode import (ARROW_MEDIA_TYPE, _arrow_page, _dumps, _json, check_dtype_backend, json_rows, page_rows,
                                     pages_to_pandas)
from workbench_client.errors import InterfaceError, OperationalError, _error_for
from workbench_client.params import wire_parameters


API = "/v2"
NOT_READY_BACKOFF_S = (0.005, 0.01, 0.02, 0.05, 0.1)
# A NOT_READY that took at least this long to come was held by the server until its wait for rows
# (result.fetch_wait_ms, 200 ms by default) ran out: that was the pause, the next page is asked at once.
# Sleeping after it too left the first rows of a 1M-row fetch in the buffer for up to 100 ms (seen in
# benchmarks/fetch_phases.py's timeline); a server that answers at once still gets the backoff.
SERVER_HELD_S = 0.05
DEFAULT_PAGE_ROWS = 50_000  # rows per page the client asks for (the server's result buffer holds 50,000)


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
                timeout_ms: Optional[int] = None, parameters: Optional[dict] = None) -> "RemoteOperation":
        """Run a statement or script; ``parameters``: a value per ``:name`` marker, bound by Spark
        (see ``params.wire_parameters`` for the value types)."""
        body = {"statement": statement, "executionConfig": config, "executionTimeout": timeout_ms}
        if parameters:
            body["parameters"] = wire_parameters(parameters)
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

    def statements(self) -> list[dict]:
        """Each statement of a script that has run or runs: index, kind, line, status, rows, elapsed_ms, error."""
        return self.info().get("statements", [])

    def pages(self, max_rows: Optional[int] = DEFAULT_PAGE_ROWS, row_format: str = "ARROW",
              timeout_s: float = 3600.0, prefetch: bool = True, statement: Optional[int] = None) -> Iterator[dict]:
        """Every page with rows or the end, in token order. A page is retried by its own token.

        A page is the server's JSON fields; an Arrow page (``row_format="ARROW"``) has its rows as a
        ``pyarrow.Table`` under ``"table"``, a JSON one as native tuples under ``"rows"``.
        ``prefetch``: ask for the next page while the caller works on this one, so the server
        prepares page N+1 while the client decodes page N (asking for N+1 frees page N on the server).
        ``statement``: the result of that statement of a script (0-based); None: the last one's.
        """
        base = self.path if statement is None else f"{self.path}/statements/{int(statement)}"
        uri: Optional[str] = f"{base}/result/0?" + urlencode(
            {k: v for k, v in {"rowFormat": row_format, "maxRows": max_rows}.items() if v is not None})
        deadline = time.monotonic() + timeout_s
        waits = 0
        # The prefetch thread starts with the second page: until the first one is here the caller
        # has nothing to do, and a result of one page (SELECT 1) needs no thread at all.
        pool: Optional[ThreadPoolExecutor] = None

        def fetch(page_uri: str) -> tuple[dict, float]:
            began = time.monotonic()
            return self._fetch_page(page_uri), time.monotonic() - began

        pending = None
        try:
            while uri is not None:
                if time.monotonic() > deadline:
                    raise OperationalError(f"no end of the result of operation {self.handle} within {timeout_s:g} s")
                page, took_s = pending.result() if pending is not None else fetch(uri)
                pending = None
                if page["resultType"] == "NOT_READY":
                    if took_s < SERVER_HELD_S:  # the server answered at once: back off
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

    def pandas(self, max_rows: Optional[int] = DEFAULT_PAGE_ROWS, dtype_backend: Optional[str] = None):
        """Every remaining row as a pandas DataFrame (through Arrow: see ``pages_to_pandas``, also for
        ``dtype_backend``)."""
        check_dtype_backend(dtype_backend)
        frame = pages_to_pandas((page["table"] for page in self.pages(max_rows, "ARROW")), dtype_backend)
        if frame is None:
            raise InterfaceError("the result has no pages; was it already read?")
        return frame
