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

The code lives in modules by concern: ``http`` (the REST calls), ``decode`` (pages into Python values),
``dbapi`` (PEP 249), ``params`` (literal binding), ``errors``; this module re-exports them.
"""
from __future__ import annotations

from workbench_client.errors import (  # noqa: F401 - re-exported: importable from here as before
    DataError,
    DatabaseError,
    Error,
    GatewayHTTPError,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
    _error_for,
)
from workbench_client.http import (  # noqa: F401 - re-exported: importable from here as before
    API,
    DEFAULT_PAGE_ROWS,
    GatewayClient,
    NOT_READY_BACKOFF_S,
    RemoteOperation,
    RemoteSession,
)
from workbench_client.decode import (  # noqa: F401 - re-exported: importable from here as before
    ARROW_MEDIA_TYPE,
    ARROW_PAGE_KEY,
    _JSON_DECODERS,
    _MAX_DAY,
    _MAX_US,
    _MIN_DAY,
    _MIN_US,
    _UTC_NAMES,
    _arrow_page,
    _decimal_decoder,
    _decode_column,
    _dumps,
    _iso_or_text,
    _json,
    _json_decoder,
    _native_by_parts,
    _native_column,
    _native_nested,
    _temporal_values,
    _with_nulls,
    arrow_rows,
    json_rows,
    page_rows,
    pages_to_pandas,
    to_pandas,
)
from workbench_client.dbapi import (  # noqa: F401 - re-exported: importable from here as before
    Connection,
    Cursor,
    _TYPE_CODES,
    _type_code,
    apilevel,
    connect,
    paramstyle,
    threadsafety,
)
from workbench_client.params import (  # noqa: F401 - re-exported: importable from here as before
    _PLACEHOLDERS,
    bind_parameters,
    quote_identifier,
    sql_literal,
)
