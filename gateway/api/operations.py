"""Operations and results: run statements asynchronously, follow them, page their results."""
from __future__ import annotations

from typing import Iterator, Optional, Protocol, runtime_checkable

from gateway.api.values import Column, OperationHandle, OperationInfo, OperationProgress, ResultSet, SessionHandle, StatementText


@runtime_checkable
class OperationsApi(Protocol):
    """Operations, statements and result paging (Flink's operation and statement sections)."""

    def get_operation_info(self, session: SessionHandle, operation: OperationHandle) -> OperationInfo:
        """Status, type and whether it has a result."""

    def get_operation_result_schema(self, session: SessionHandle, operation: OperationHandle,
                                    timeout_s: float = 30.0) -> list[Column]:
        """Result columns with type JSON, waiting until they are known."""

    def get_operation_progress(self, session: SessionHandle, operation: OperationHandle) -> OperationProgress:
        """Spark job and stage progress of a running operation."""

    def get_operation_profile(self, session: SessionHandle, operation: OperationHandle,
                              timeout_s: float = 10.0) -> dict:
        """The query profile of an ended operation, kept after it is closed (the last N per session):
        its SQL executions' operator graphs with each operator's time, rows, spill and peak memory, the
        slowest operators, and its stages with the tasks' run-time spread (skew). A plain value."""

    def list_operations(self, session: SessionHandle) -> list[tuple[OperationHandle, OperationInfo]]:
        """The session's operations that are not closed, oldest first."""

    def cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Stop a pending or running operation and its Spark jobs."""

    def close_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Stop it if needed and free its result buffer; the handle is gone afterwards."""

    def execute_statement(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None,
                          config: Optional[dict] = None) -> OperationHandle:
        """Run a statement or script asynchronously; the result is the last statement's."""

    def fetch_results(self, session: SessionHandle, operation: OperationHandle, token: int,
                      max_rows: Optional[int] = None) -> ResultSet:
        """Page ``token``: the same token replays, token + 1 moves on, others are errors."""

    def iter_results(self, session: SessionHandle, operation: OperationHandle, max_rows: Optional[int] = None,
                     timeout_s: float = 600.0) -> Iterator[ResultSet]:
        """Every page with rows or an end, in token order (NOT_READY answers retried)."""

    def split_statements(self, script: str) -> list[StatementText]:
        """The statements of a script with their kind, line and offset (what Run runs, one by one)."""

    def format_statement(self, script: str) -> str:
        """The script pretty-printed in Spark SQL, comments kept."""
