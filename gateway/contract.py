"""The GatewayService contract (FLIP-91 in Python names), sectioned like Flink's interface.

``gateway.core.service.GatewayService`` implements it; front ends (Streamlit pages, REST) depend
only on these calls.
"""
from __future__ import annotations

import abc
from typing import Optional

from gateway.handles import OperationHandle, SessionHandle
from gateway.features.jars.store import UdfClass
from gateway.models import (Column, FunctionDetail, FunctionInfo, JarInfo, OperationInfo, ResultSet, TableDetail,
                     TableInfo, TableKind)


class GatewayServiceContract(abc.ABC):
    # ------------------------------------------------------------------------------------------
    # Sessions
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def open_session(self, config: Optional[dict] = None, name: Optional[str] = None) -> SessionHandle:
        """A new isolated session: SQL conf, temp views and functions, current catalog/database."""

    @abc.abstractmethod
    def close_session(self, session: SessionHandle) -> None:
        """Close the session and all its operations."""

    @abc.abstractmethod
    def heartbeat(self, session: SessionHandle) -> None:
        """Keep an idle session alive."""

    @abc.abstractmethod
    def get_session_config(self, session: SessionHandle) -> dict[str, str]:
        """Settings set in this session (and its name)."""

    @abc.abstractmethod
    def configure_session(self, session: SessionHandle, statement: str,
                          timeout_ms: Optional[int] = None) -> None:
        """Run one SET/RESET/CREATE/DROP/USE/ALTER/LOAD/UNLOAD/USE MODULES/ADD/REMOVE JAR."""

    # ------------------------------------------------------------------------------------------
    # Operations
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def get_operation_info(self, session: SessionHandle, operation: OperationHandle) -> OperationInfo:
        """Status, type and whether it has a result."""

    @abc.abstractmethod
    def get_operation_result_schema(self, session: SessionHandle, operation: OperationHandle,
                                    timeout_s: float = 30.0) -> list[Column]:
        """Result columns with type JSON, waiting until they are known."""

    @abc.abstractmethod
    def cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Stop a pending or running operation and its Spark jobs."""

    @abc.abstractmethod
    def close_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Stop it if needed and free its result buffer; the handle is gone afterwards."""

    # ------------------------------------------------------------------------------------------
    # Statements
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def execute_statement(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None,
                          config: Optional[dict] = None) -> OperationHandle:
        """Run a statement or script asynchronously; the result is the last statement's."""

    @abc.abstractmethod
    def fetch_results(self, session: SessionHandle, operation: OperationHandle, token: int,
                      max_rows: Optional[int] = None) -> ResultSet:
        """Page ``token``: the same token replays, token + 1 moves on, others are errors."""

    @abc.abstractmethod
    def complete_statement(self, session: SessionHandle, statement: str, position: int) -> list[str]:
        """Completion candidates at ``position``."""

    # ------------------------------------------------------------------------------------------
    # Catalog
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def get_current_catalog(self, session: SessionHandle) -> str: ...

    @abc.abstractmethod
    def get_current_database(self, session: SessionHandle) -> str: ...

    @abc.abstractmethod
    def list_catalogs(self, session: SessionHandle) -> list[str]: ...

    @abc.abstractmethod
    def list_databases(self, session: SessionHandle, catalog: Optional[str] = None) -> list[str]: ...

    @abc.abstractmethod
    def list_tables(self, session: SessionHandle, catalog: Optional[str] = None,
                    database: Optional[str] = None, kind: TableKind = TableKind.ALL) -> list[TableInfo]: ...

    @abc.abstractmethod
    def list_functions(self, session: SessionHandle, catalog: Optional[str] = None,
                       database: Optional[str] = None, kind=None) -> list[FunctionInfo]: ...

    @abc.abstractmethod
    def get_table(self, session: SessionHandle, name: str) -> TableDetail: ...

    @abc.abstractmethod
    def get_function(self, session: SessionHandle, name: str) -> FunctionDetail: ...

    # ------------------------------------------------------------------------------------------
    # Modules (FLIP-68)
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def list_modules(self, session: SessionHandle, full: bool = False) -> list:
        """Used modules in resolution order (``full``: then the unused ones) as ModuleInfo."""

    @abc.abstractmethod
    def load_module(self, session: SessionHandle, name: str, properties: Optional[dict] = None):
        """LOAD MODULE: create a module (type = ``properties['type']``, else the name) and append it."""

    @abc.abstractmethod
    def unload_module(self, session: SessionHandle, name: str) -> None:
        """UNLOAD MODULE: the others keep their relative order."""

    @abc.abstractmethod
    def use_modules(self, session: SessionHandle, names: list[str]) -> None:
        """USE MODULES: exactly these loaded modules, in this order; the rest stay loaded, unused."""

    # ------------------------------------------------------------------------------------------
    # Jars and function resources (FLIP-214)
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def list_jars(self, session: SessionHandle) -> list[JarInfo]:
        """This session's jars (not the JVM's), each with the functions that use it."""

    @abc.abstractmethod
    def add_jar(self, session: SessionHandle, uri: str) -> JarInfo:
        """ADD JAR: a path, file://, http(s)://, hdfs:// or s3a:// URI, copied into the jar store."""

    @abc.abstractmethod
    def remove_jar(self, session: SessionHandle, uri: str) -> list[str]:
        """REMOVE JAR for this session; returns the functions that stop resolving here."""

    @abc.abstractmethod
    def upload_jar(self, session: SessionHandle, filename: str, data: bytes) -> JarInfo:
        """Validate, store by content hash and add an uploaded jar (or .py/.zip/.whl)."""

    @abc.abstractmethod
    def list_udf_classes(self, session: SessionHandle, jar: str) -> list[UdfClass]:
        """Classes in one of the session's jars that CREATE FUNCTION can use."""

    # ------------------------------------------------------------------------------------------
    # Compiled plans (FLIP-190)
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def compile_plan(self, session: SessionHandle, statement: str, path: Optional[str] = None,
                     overwrite: bool = False) -> dict:
        """The plan of a SELECT, INSERT or CTAS (nothing runs); written to ``path`` when given."""

    @abc.abstractmethod
    def explain_plan(self, session: SessionHandle, plan) -> dict:
        """A plan (file name or dict) and its differences from the session now: ``{plan, differences, path}``."""

    @abc.abstractmethod
    def load_plan(self, path: str) -> dict:
        """A plan file, validated (format and version)."""

    @abc.abstractmethod
    def list_plans(self) -> list[str]:
        """Plan files under the plans directory, relative names."""

    @abc.abstractmethod
    def diff_plans(self, left, right) -> dict:
        """Differences of two plans (file names or dicts): changes, text diffs, one-sided nodes."""

    # ------------------------------------------------------------------------------------------
    # Utilities
    # ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def get_gateway_info(self) -> dict[str, str]:
        """Product and Spark versions, master, metastore."""
