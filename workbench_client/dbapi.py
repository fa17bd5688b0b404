"""DB-API 2.0 (PEP 249) over the REST client: ``connect``, ``Connection``, ``Cursor``."""
from __future__ import annotations

import ssl
from typing import Iterator, Optional

from workbench_client.decode import check_dtype_backend, page_rows, pages_to_pandas
from workbench_client.errors import Error, InterfaceError, NotSupportedError, OperationalError, ProgrammingError
from workbench_client.http import DEFAULT_PAGE_ROWS, GatewayClient, RemoteOperation, RemoteSession
from workbench_client.params import quote_identifier, wire_parameters


# -- DB-API 2.0 -----------------------------------------------------------------------------------

apilevel = "2.0"


threadsafety = 1  # threads may share the module, not connections
paramstyle = "named"  # :name, sent as values and bound by Spark (args), never into the text
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
    return the rows not fetched yet in one go.

    A script (several statements) has one result per statement: ``execute`` makes the first current and
    ``nextset()`` moves to the next (the gateway keeps each; see docs/python-api.md)."""

    arraysize = 1000

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.description: Optional[list[tuple]] = None
        self.rowcount = -1
        self._operation: Optional[RemoteOperation] = None
        self._pages: Optional[Iterator[dict]] = None
        self._page: Optional[dict] = None  # the page rows are read from, and how far
        self._offset = 0
        self._statement: Optional[int] = None  # the statement whose result is current (None: the last)
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
        if parameters is not None:
            wire_parameters(parameters)  # a bad one fails here, before the previous result is closed
        self._finish()
        connection = self.connection
        self._operation = connection.session.execute(operation, parameters=parameters)
        # Without a semicolon the text is one statement: its result is the operation's own (no extra
        # request); with one it may be a script, whose first statement's result comes first.
        self._open_result(0 if ";" in operation else None)
        return self

    def nextset(self) -> Optional[bool]:
        """Move to the next statement's result of the script run by ``execute``; None when there is none
        (the current result stays)."""
        self._check_result()
        if self._statement is None:
            return None
        pages = self._operation.pages(self.connection.page_rows, self.connection.row_format,
                                      statement=self._statement + 1)
        try:
            first = next(pages, None)
        except ProgrammingError as exc:
            if (exc.body or {}).get("error_class") == "NO_SUCH_STATEMENT":
                return None
            raise
        self._pages.close()
        self._pages, self._page, self._offset = pages, first, 0
        self._statement += 1
        self._describe()
        return True

    def _open_result(self, statement: Optional[int]) -> None:
        connection = self.connection
        self._statement = statement
        self._pages = self._operation.pages(connection.page_rows, connection.row_format, statement=statement)
        self._page = next(self._pages, None)  # waits for the result (or raises the statement's error)
        self._offset = 0
        self._describe()

    def _describe(self) -> None:
        columns = self._operation.columns or []
        self.description = [(c["name"], _type_code(c["type"]), None, None, c["type"].get("precision"),
                             c["type"].get("scale"), c["type"].get("nullable", True)) for c in columns] or None

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

    def fetch_pandas(self, dtype_backend: Optional[str] = None):
        """The rows not fetched yet as a pandas DataFrame (through Arrow: see ``pages_to_pandas``), in the
        types Spark's ``toPandas()`` gives; ``dtype_backend="pyarrow"``: ``pandas.ArrowDtype`` columns instead."""
        self._check_result()
        try:
            check_dtype_backend(dtype_backend)
        except ValueError as exc:
            raise ProgrammingError(str(exc)) from None
        if self.connection.row_format != "ARROW":
            raise NotSupportedError("fetch_pandas needs Arrow pages: connect with row_format='ARROW' (the default)")
        frame = pages_to_pandas(self._remaining_tables(), dtype_backend)
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
        self._statement = None
        self.description = None


def _type_code(type_json: dict) -> str:
    name = type_json.get("type", "")
    return _TYPE_CODES.get(name, name)
