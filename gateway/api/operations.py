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
                                    timeout_s: float = 30.0, statement: Optional[int] = None) -> list[Column]:
        """Result columns with type JSON, waiting until they are known (``statement``: of that statement
        of a script, by 0-based index; None: the last statement's, the operation's result)."""

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
                          config: Optional[dict] = None, parameters: Optional[dict] = None) -> OperationHandle:
        """Run a statement or script asynchronously; the operation's result is the last statement's, and
        each earlier statement's result is kept too (``fetch_results(…, statement=i)``). ``parameters``:
        a value for each ``:name`` marker (name without the colon → value), bound through Spark's args;
        a missing one fails here, before anything runs."""

    def fetch_results(self, session: SessionHandle, operation: OperationHandle, token: int,
                      max_rows: Optional[int] = None, statement: Optional[int] = None) -> ResultSet:
        """Page ``token``: the same token replays, token + 1 moves on, others are errors. ``statement``:
        the result of that statement of a script (0-based; each has its own tokens); None: the last's."""

    def iter_results(self, session: SessionHandle, operation: OperationHandle, max_rows: Optional[int] = None,
                     timeout_s: float = 600.0, statement: Optional[int] = None) -> Iterator[ResultSet]:
        """Every page with rows or an end, in token order (NOT_READY answers retried); ``statement`` as in
        ``fetch_results``."""

    def split_statements(self, script: str) -> list[StatementText]:
        """The statements of a script with their kind, line and offset (what Run runs, one by one)."""

    def statement_parameters(self, script: str) -> list[dict]:
        """One form field per ``:name`` marker of the script, in order: ``{"name", "kind", "source", "pair"}``,
        kind text, number, date, date range or list (from the saved query named by ``source``), chosen by a
        comment hint (``-- :n number``, ``-- :c list from "Countries"``) or a ``:from``/``:to`` pair."""

    def format_statement(self, script: str) -> str:
        """The script pretty-printed in Spark SQL, comments kept."""
