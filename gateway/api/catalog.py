"""Catalog: what a session sees of catalogs, databases, tables and functions; previews and the sample database."""
from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from gateway.api.values import FunctionDetail, FunctionInfo, OperationHandle, SessionHandle, TableDetail, TableInfo, TableKind


@runtime_checkable
class CatalogApi(Protocol):
    """Catalog calls: light infos for lists, full detail only on ``get_*``; no SQL text from the caller."""

    def get_current_catalog(self, session: SessionHandle) -> str: ...

    def get_current_database(self, session: SessionHandle) -> str: ...

    def list_catalogs(self, session: SessionHandle) -> list[str]: ...

    def list_databases(self, session: SessionHandle, catalog: Optional[str] = None) -> list[str]: ...

    def list_tables(self, session: SessionHandle, catalog: Optional[str] = None, database: Optional[str] = None,
                    kind: TableKind = TableKind.ALL) -> list[TableInfo]: ...

    def list_functions(self, session: SessionHandle, catalog: Optional[str] = None,
                       database: Optional[str] = None, kind=None) -> list[FunctionInfo]: ...

    def get_table(self, session: SessionHandle, name: str) -> TableDetail: ...

    def get_table_ddl(self, session: SessionHandle, name: str) -> str:
        """SHOW CREATE TABLE of a table or view."""

    def get_function(self, session: SessionHandle, name: str) -> FunctionDetail: ...

    def preview_statement(self, session: SessionHandle, name: str, limit: int = 100) -> str:
        """The SELECT that shows the first ``limit`` rows of a table, quoted right (to open in an editor)."""

    def preview_table(self, session: SessionHandle, name: str, limit: int = 100) -> OperationHandle:
        """Run ``preview_statement``; fetch its rows like any operation."""

    def analyze_table(self, session: SessionHandle, name: str) -> None:
        """Compute the table's statistics for all columns (ANALYZE TABLE … COMPUTE STATISTICS)."""

    def create_sample_database(self, session: SessionHandle, database: str = "sample") -> list[str]:
        """A small database of related tables to try the workbench on; the session then USEs it."""
