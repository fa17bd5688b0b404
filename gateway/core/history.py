"""Every statement run through ``execute_statement`` goes into the store's history, whichever front
end sent it: a row when it is submitted (RUNNING), its outcome when it ends, its row count once
its worker is through. The observer only hands events to the store's recorder (a queue), so a
statement never waits for the store nor fails because of it. Each statement's kind comes from its
``StatementAnalysis`` (the split the service made before queuing it), never from its first words.
"""
from __future__ import annotations

import datetime as dt
from typing import Optional

from gateway.core.operations import Operation
from gateway.core.statements import StatementAnalysis, StatementKind, split_script
from gateway.errors import GatewayError
from gateway.models import HistoryStatus, OperationStatus, OperationType
from gateway.store.history import HistoryRecorder

# An operation's first terminal status, as the history shows it.
_HISTORY_STATUS = {
    OperationStatus.FINISHED: HistoryStatus.FINISHED,
    OperationStatus.ERROR: HistoryStatus.ERROR,
    OperationStatus.TIMEOUT: HistoryStatus.ERROR,     # error class TIMEOUT
    OperationStatus.CANCELED: HistoryStatus.CANCELED,
    OperationStatus.CLOSED: HistoryStatus.CANCELED,   # closed before it ended: the client gave it up
}
TIMEOUT_ERROR_CLASS = "TIMEOUT"
_ERROR_CLASS_CHARS = 200


def recorded_kind(analysis: StatementAnalysis) -> str:
    """A statement's kind as the history shows it: its analysis's kind, except that a query that
    writes (``WITH … INSERT INTO``, ``FROM s INSERT OVERWRITE …``) shows as the write it is."""
    if analysis.kind == StatementKind.QUERY and analysis.writes:
        return StatementKind.INSERT_OVERWRITE if "OVERWRITE" in analysis.words else StatementKind.INSERT
    return str(analysis.kind)


def statement_kinds(text: str) -> tuple[str, ...]:
    """Each statement's kind, in order, from the analysis the split makes (cached for the texts the
    service has just split); () for text that does not split (it never ran)."""
    try:
        return tuple(recorded_kind(s.analysis) for s in split_script(text, max_nesting=1 << 30))
    except GatewayError:
        return ()


def _error_class(operation: Operation) -> Optional[str]:
    if operation.outcome == OperationStatus.TIMEOUT:
        return TIMEOUT_ERROR_CLASS
    error = operation.exception
    if not error:
        return None
    return str(error.get("error_class") or "ERROR")[:_ERROR_CLASS_CHARS]


class StatementHistory:
    """An ``OperationObserver`` that records EXECUTE_STATEMENT operations (not configure_session's)."""

    def __init__(self, recorder: HistoryRecorder) -> None:
        self.recorder = recorder

    @staticmethod
    def _recorded(operation: Operation) -> bool:
        return operation.type == OperationType.EXECUTE_STATEMENT

    def operation_submitted(self, operation: Operation) -> None:
        if not self._recorded(operation):
            return
        self.recorder.started(operation.handle, operation.session.user, str(operation.session.handle),
                              str(operation.handle), operation.statement,
                              dt.datetime.fromtimestamp(operation.submitted_at, dt.timezone.utc),
                              statement_kinds(operation.statement), getattr(operation, "parameters", None) or None)

    def operation_ended(self, operation: Operation) -> None:
        if not self._recorded(operation):
            return
        status = _HISTORY_STATUS.get(operation.outcome, HistoryStatus.ERROR)
        ended_at = operation.ended_at or operation.submitted_at
        self.recorder.ended(operation.handle, status.value, max(0, round((ended_at - operation.submitted_at) * 1000)),
                            _error_class(operation))

    def operation_done(self, operation: Operation) -> None:
        """The row count, when the whole result was produced; an error that came while streaming."""
        if not self._recorded(operation):
            return
        fetcher = operation.fetcher
        changes: dict = {}
        if operation.exception and operation.outcome == OperationStatus.FINISHED:
            changes.update(status=HistoryStatus.ERROR.value, error_class=_error_class(operation))
        elif operation.outcome == OperationStatus.FINISHED and fetcher.ended and fetcher.columns:
            changes["rows"] = fetcher.rows_produced
        self.recorder.through(operation.handle, changes)
