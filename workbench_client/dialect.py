"""A SQLAlchemy dialect over workbench_client: ``workbench://host:port[/database]``.

pandas.read_sql, SQLAlchemy's inspector and SQLAlchemy-based tools (Superset) query Spark through
the workbench's REST API. The catalog (schemas, tables, views, columns) comes from the gateway's
catalog endpoints, not from SQL text; statements and rows go through the DB-API cursor.

URL query options:
    token=…          the bearer token (rest.token); also the URL's password: workbench://:TOKEN@host:port
    tls=true         https; ssl_ca=/path/ca.pem trusts a private CA; ssl_verify=false skips the check
    row_format=JSON  result pages as JSON instead of Arrow
    page_rows=N      rows per result page
    <other>=…        Spark SQL settings of the session (e.g. spark.sql.session.timeZone=UTC)

Registered as the ``workbench`` dialect by the entry point in pyproject.toml.
"""
from __future__ import annotations

import ssl
from typing import Any, Optional

from sqlalchemy import types as sqltypes
from sqlalchemy.engine import default
from sqlalchemy.sql import compiler

import workbench_client
from workbench_client.client import OperationalError, quote_identifier

_TRUE = {"1", "true", "yes", "on"}
_OPTIONS = {"token", "tls", "ssl_ca", "ssl_verify", "row_format", "page_rows", "session_name", "timeout_s"}


class WorkbenchIdentifierPreparer(compiler.IdentifierPreparer):
    """Spark SQL quotes identifiers with back-quotes."""

    def __init__(self, dialect):
        super().__init__(dialect, initial_quote="`", escape_quote="`")


class WorkbenchTypeCompiler(compiler.GenericTypeCompiler):
    def visit_DATETIME(self, type_, **kw):
        return "TIMESTAMP"

    def visit_TEXT(self, type_, **kw):
        return "STRING"

    def visit_VARCHAR(self, type_, **kw):
        return "STRING" if type_.length is None else f"VARCHAR({type_.length})"

    def visit_BLOB(self, type_, **kw):
        return "BINARY"

    def visit_large_binary(self, type_, **kw):
        return "BINARY"


class WorkbenchDialect(default.DefaultDialect):
    name = "workbench"
    driver = "rest"
    paramstyle = "named"
    supports_statement_cache = True
    supports_native_boolean = True
    supports_native_decimal = True
    supports_sane_rowcount = False
    supports_sane_multi_rowcount = False
    supports_alter = True
    supports_sequences = False
    supports_comments = True
    inline_comments = True
    postfetch_lastrowid = False
    preparer = WorkbenchIdentifierPreparer
    type_compiler_cls = WorkbenchTypeCompiler
    default_paramstyle = "named"

    @classmethod
    def import_dbapi(cls):
        return workbench_client

    def create_connect_args(self, url) -> tuple[list, dict]:
        query = dict(url.query)
        unknown_options = {k for k in query if k not in _OPTIONS and not k.startswith("spark.")}
        if unknown_options:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown_options))} in the workbench URL; "
                             f"use {', '.join(sorted(_OPTIONS))} or Spark SQL settings (spark.…)")
        tls = str(query.get("tls", "false")).lower() in _TRUE
        kwargs: dict[str, Any] = {
            "url": f"{'https' if tls else 'http'}://{url.host or '127.0.0.1'}:{url.port or 8083}",
            "token": query.get("token") or url.password or None,
            "properties": {k: v for k, v in query.items() if k.startswith("spark.")} or None,
            "database": url.database or None,
            "session_name": query.get("session_name", "sqlalchemy"),
        }
        if tls:
            context = ssl.create_default_context(cafile=query.get("ssl_ca"))
            if str(query.get("ssl_verify", "true")).lower() not in _TRUE:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            kwargs["ssl_context"] = context
        elif "ssl_ca" in query or "ssl_verify" in query:
            raise ValueError("ssl_ca and ssl_verify need tls=true in the workbench URL")
        if "row_format" in query:
            kwargs["row_format"] = query["row_format"]
        if "page_rows" in query:
            kwargs["page_rows"] = int(query["page_rows"])
        if "timeout_s" in query:
            kwargs["timeout_s"] = float(query["timeout_s"])
        return [], kwargs

    # -- transactions: Spark SQL has none; statements commit as they run ----------------------------

    def do_rollback(self, dbapi_connection) -> None:
        pass

    def do_commit(self, dbapi_connection) -> None:
        pass

    def do_ping(self, dbapi_connection) -> bool:
        try:
            dbapi_connection.session.heartbeat()
            return True
        except OperationalError:
            return False

    def is_disconnect(self, e, connection, cursor) -> bool:
        return isinstance(e, OperationalError) and getattr(e, "status", None) in (None, 404)

    def _get_server_version_info(self, connection) -> tuple:
        spark = _session(connection).client.info().get("sparkVersion", "")
        return tuple(int(p) for p in spark.split(".") if p.isdigit())

    def _get_default_schema_name(self, connection) -> str:
        return _session(connection).current_database()

    # -- the inspector: from the gateway's catalog calls ---------------------------------------------

    def get_schema_names(self, connection, **kw) -> list[str]:
        return list(_session(connection).databases())

    def has_schema(self, connection, schema_name, **kw) -> bool:
        return schema_name in self.get_schema_names(connection)

    def get_table_names(self, connection, schema=None, **kw) -> list[str]:
        return _names(connection, schema, "TABLE")

    def get_view_names(self, connection, schema=None, **kw) -> list[str]:
        return _names(connection, schema, "VIEW")

    def get_temp_view_names(self, connection, schema=None, **kw) -> list[str]:
        return [t["name"] for t in _session(connection).tables(kind="VIEW") if t.get("isTemporary")]

    def has_table(self, connection, table_name, schema=None, **kw) -> bool:
        return _table(connection, table_name, schema, missing_ok=True) is not None

    def get_columns(self, connection, table_name, schema=None, **kw) -> list[dict]:
        detail = _table(connection, table_name, schema)
        return [{"name": c["name"], "type": sql_type(c["type"]), "nullable": c["type"].get("nullable", True),
                 "default": None, "comment": c.get("comment")} for c in detail["columns"]]

    def get_pk_constraint(self, connection, table_name, schema=None, **kw) -> dict:
        return {"constrained_columns": [], "name": None}

    def get_foreign_keys(self, connection, table_name, schema=None, **kw) -> list:
        return []

    def get_indexes(self, connection, table_name, schema=None, **kw) -> list:
        return []

    def get_unique_constraints(self, connection, table_name, schema=None, **kw) -> list:
        return []

    def get_check_constraints(self, connection, table_name, schema=None, **kw) -> list:
        return []

    def get_table_comment(self, connection, table_name, schema=None, **kw) -> dict:
        return {"text": _table(connection, table_name, schema).get("comment")}

    def get_view_definition(self, connection, view_name, schema=None, **kw) -> Optional[str]:
        return _table(connection, view_name, schema).get("extended", {}).get("View Text")


def _session(connection):
    """The workbench session behind a SQLAlchemy connection (its DB-API connection's)."""
    return connection.connection.dbapi_connection.session


def _names(connection, schema: Optional[str], kind: str) -> list[str]:
    tables = _session(connection).tables(database=schema, kind=kind)
    return [t["name"] for t in tables if not t.get("isTemporary")]


def _table(connection, name: str, schema: Optional[str], missing_ok: bool = False) -> Optional[dict]:
    qualified = ".".join(quote_identifier(part) for part in ((schema, name) if schema else (name,)))
    try:
        return _session(connection).table(qualified)
    except OperationalError as exc:
        if exc.status == 404:
            if missing_ok:
                return None
            from sqlalchemy.exc import NoSuchTableError
            raise NoSuchTableError(f"{schema}.{name}" if schema else name) from None
        raise


_SIMPLE_TYPES = {"BOOLEAN": sqltypes.Boolean, "TINYINT": sqltypes.SmallInteger, "SMALLINT": sqltypes.SmallInteger,
                 "INTEGER": sqltypes.Integer, "BIGINT": sqltypes.BigInteger, "FLOAT": sqltypes.Float,
                 "DOUBLE": sqltypes.Double, "DATE": sqltypes.Date, "VARBINARY": sqltypes.LargeBinary}


def sql_type(type_json: dict) -> sqltypes.TypeEngine:
    """The SQLAlchemy type of a column's type JSON (ARRAY, MAP, ROW, INTERVAL: NullType, values as they come)."""
    name = type_json.get("type")
    if name in _SIMPLE_TYPES:
        return _SIMPLE_TYPES[name]()
    if name in ("CHAR", "VARCHAR"):
        length = type_json.get("length")
        return sqltypes.String(None if not length or length >= 2 ** 31 - 1 else length)
    if name == "DECIMAL":
        return sqltypes.Numeric(type_json.get("precision"), type_json.get("scale"), asdecimal=True)
    if name == "TIMESTAMP":
        return sqltypes.DateTime(timezone=False)
    if name == "TIMESTAMP_LTZ":
        return sqltypes.DateTime(timezone=True)
    return sqltypes.NullType()
