"""Beyond Flink (which keeps its catalog API in Java): catalogs, databases, tables, functions."""
from __future__ import annotations

import contextlib
from typing import Optional

from fastapi import APIRouter, Query, Request

from gateway import SqlExecutionError
from gateway.rest.deps import service_of
from gateway.rest.encoding import to_json
from gateway.rest.schemas import (CatalogsResponse, DatabasesResponse, FunctionsResponse, SampleDatabaseRequest,
                                  SampleDatabaseResponse, TableDdlResponse, TablesResponse)

router = APIRouter(tags=["catalog"])
SESSION = "/sessions/{session_handle}"


@router.get(SESSION + "/catalogs", response_model=CatalogsResponse)
def list_catalogs(request: Request, session_handle: str):
    service = service_of(request)
    return {"catalogs": service.list_catalogs(session_handle),
            "currentCatalog": service.get_current_catalog(session_handle)}


@router.get(SESSION + "/databases", response_model=DatabasesResponse)
def list_databases(request: Request, session_handle: str,
                   catalog: Optional[str] = Query(None, description="Default: the current catalog.")):
    service = service_of(request)
    return {"databases": service.list_databases(session_handle, catalog),
            "currentDatabase": service.get_current_database(session_handle)}


@router.get(SESSION + "/tables", response_model=TablesResponse)
def list_tables(request: Request, session_handle: str, catalog: Optional[str] = None,
                database: Optional[str] = None,
                kind: str = Query("ALL", description="ALL, TABLE or VIEW.")):
    tables = service_of(request).list_tables(session_handle, catalog, database, kind)
    return {"tables": to_json(tables)}


@router.get(SESSION + "/tables/{table}", response_model=dict)
def get_table(request: Request, session_handle: str, table: str):
    """``table`` may be qualified: ``db.t`` or ``catalog.db.t`` (back-quote parts holding dots)."""
    with _missing_is_404():
        return to_json(service_of(request).get_table(session_handle, table))


@router.get(SESSION + "/tables/{table}/ddl", response_model=TableDdlResponse)
def get_table_ddl(request: Request, session_handle: str, table: str):
    """SHOW CREATE TABLE of a table or view."""
    with _missing_is_404():
        return {"ddl": service_of(request).get_table_ddl(session_handle, table)}


@router.post(SESSION + "/sample-database", response_model=SampleDatabaseResponse)
def create_sample_database(request: Request, session_handle: str, body: Optional[SampleDatabaseRequest] = None):
    """A small database of related tables to try the workbench on; the session then USEs it."""
    service = service_of(request)
    args = (body.database,) if body is not None and body.database else ()
    return {"tables": service.create_sample_database(session_handle, *args)}


@router.get(SESSION + "/functions", response_model=FunctionsResponse)
def list_functions(request: Request, session_handle: str, catalog: Optional[str] = None,
                   database: Optional[str] = None,
                   kind: Optional[str] = Query(None, description="BUILTIN or USER; default both.")):
    functions = service_of(request).list_functions(session_handle, catalog, database, kind)
    return {"functions": to_json(functions)}


@router.get(SESSION + "/functions/{function}", response_model=dict)
def get_function(request: Request, session_handle: str, function: str):
    with _missing_is_404():
        return to_json(service_of(request).get_function(session_handle, function))


@contextlib.contextmanager
def _missing_is_404():
    """Spark's "not found" conditions (SQLSTATE class 42P01, 42883, 42704) answer 404 with Spark's details."""
    try:
        yield
    except SqlExecutionError as exc:
        if (exc.error.get("sqlstate") or "") in _NOT_FOUND_STATES or \
                str(exc.error.get("error_class") or "").endswith("NOT_FOUND"):
            raise _NotFound(exc.message, exc.error) from None
        raise


class _NotFound(SqlExecutionError):
    http_status = 404


_NOT_FOUND_STATES = {"42P01", "42883", "42704", "42P06"}
