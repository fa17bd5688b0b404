"""Running a statement from the UI: the operation, its result spool in the gateway, and the session's history.

The gateway spools every row of a run's result to Parquet (``ResultsApi.spool_result``); sort, filter, search,
the chart and the downloads are its calls over the whole result. ``ResultSpool`` here is the page's view of
that spool: its state, read through the contract. No Streamlit here.
"""
from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from typing import Optional

from gateway import GatewayError, OperationStatus

DISPLAY_LIMITS = (1_000, 10_000, 100_000)   # rows per grid page


class _SpoolSignal:
    """``wait``/``is_set`` over the gateway's spool (what the editor waits for after a click on Run)."""

    def __init__(self, spool: "ResultSpool", until: str) -> None:
        self._spool, self._until = spool, until

    def wait(self, timeout: Optional[float] = None) -> bool:
        return self._spool._wait(self._until, timeout)

    def is_set(self) -> bool:
        return self._spool._wait(self._until, 0.0)


class ResultSpool:
    """The gateway's spool of one operation, as the page reads it: columns, rows so far, its end, its error."""

    def __init__(self, gateway, session, operation, display_limit: int, directory: Optional[str] = None) -> None:
        self.gateway, self.session, self.operation = gateway, session, operation
        self.display_limit = display_limit
        self.directory = directory          # where downloads are written for the browser
        self.ended: Optional[float] = None
        self._created = time.monotonic()
        self._info = None                   # the spool's last state (final once done)
        self._operation_info = None
        self._rows: Optional[list] = None
        self._downloads: dict[str, str] = {}
        self.first_page = _SpoolSignal(self, "rows")
        self.done = _SpoolSignal(self, "done")
        try:
            self._info = gateway.spool_result(session, operation)
        except GatewayError as exc:
            self._failed = exc.to_json()
        else:
            self._failed = None

    def _wait(self, until: str, timeout: Optional[float]) -> bool:
        if self._failed is not None:
            return True
        if self._info is None or not self._info.done:
            try:
                self._info = self.gateway.get_result_spool(self.session, self.operation,
                                                           wait_s=min(max(timeout or 0.0, 0.0), 3600.0), until=until)
            except GatewayError as exc:
                self._failed = exc.to_json()
                return True
            if self._info.done and self.ended is None:
                self.ended = self._created + self._info.elapsed_s
        return self._info.done or (until == "rows" and (self._info.rows > 0 or bool(self._info.columns)))

    def _state(self):
        self._wait("done", 0.0)
        return self._info

    @property
    def columns(self) -> list:
        info = self._state()
        return list(info.columns) if info is not None else []

    @property
    def total(self) -> int:
        info = self._state()
        return info.rows if info is not None else 0

    @property
    def capped(self) -> bool:
        info = self._state()
        return bool(info and info.capped)

    @property
    def note(self) -> Optional[str]:
        info = self._state()
        return info.note if info is not None else None

    @property
    def error(self) -> Optional[dict]:
        if self._failed is not None:
            return self._failed
        info = self._state()
        return info.error if info is not None else None

    @property
    def info(self):
        """The operation's info (status, statements, Spark UI link), read once the spool has ended."""
        if self._operation_info is None and self.done.is_set() and self.operation is not None:
            try:
                self._operation_info = self.gateway.get_operation_info(self.session, self.operation)
            except GatewayError:
                pass
        return self._operation_info

    @property
    def rows(self) -> list[list]:
        """The first ``display_limit`` rows in the result's order (for a quick look; the grid pages the whole)."""
        if self._rows is None or not self.done.is_set():
            try:
                self._rows = self.gateway.result_page(self.session, self.operation, 0, self.display_limit).rows
            except GatewayError:
                self._rows = []
        return self._rows

    @property
    def cut(self) -> bool:
        return self.total > self.display_limit

    def download(self, format: str) -> str:
        """The whole result exported by the gateway (``export_result``) into a file for the browser; its path."""
        path = self._downloads.get(format)
        if path is None or not os.path.exists(path):
            fd, path = tempfile.mkstemp(prefix="result-", suffix=f".{format}", dir=self.directory)
            with os.fdopen(fd, "wb") as out:
                for chunk in self.gateway.export_result(self.session, self.operation, format):
                    out.write(chunk)
            self._downloads[format] = path
        return path

    @property
    def csv_path(self) -> str:
        return self.download("csv")

    def stop(self) -> None:
        """Nothing to stop here: cancelling the operation ends the gateway's spool."""

    def discard(self) -> None:
        """Close the operation: the gateway removes its spool; and the exported files of this page."""
        self.info  # noqa: B018 - kept for the status line of a run that is still shown
        try:
            self.gateway.close_operation(self.session, self.operation)
        except GatewayError:
            pass
        for path in self._downloads.values():
            try:
                os.unlink(path)
            except OSError:
                pass
        self._downloads.clear()


@dataclass
class Run:
    """One run from the editor: what was sent, where it sits in the editor, and its spool."""

    sql: str
    offset: int                     # where ``sql`` starts in the editor text (for error marks)
    editor_text: str
    operation: object
    spool: Optional[ResultSpool]
    started: float = field(default_factory=time.monotonic)
    started_at: float = field(default_factory=time.time)
    ended: Optional[float] = None
    canceled: bool = False
    submit_error: Optional[dict] = None
    history_id: int = 0
    name: str = "result"            # what the downloads are called after (ui.downloads.query_name)
    page_redrawn: bool = False      # the page reran once while it ran (ui.results: the tab strip's ⏳)
    script: Optional[object] = None  # a script's ScriptReader (ui.script_results): each statement's result
    parameters: Optional[dict] = None  # the :name values it ran with
    first_rows: Optional[object] = None  # the first page shown while the result spools (ui.results)
    result_draws: int = 0           # draws of the result area until it showed the ended run (1: the click's own)
    result_shown: bool = False      # the ended run has been drawn

    @property
    def error(self) -> Optional[dict]:
        if self.submit_error:
            return self.submit_error
        return self.spool.error if self.spool else None

    @property
    def finished(self) -> bool:
        return self.submit_error is not None or (self.spool is not None and self.spool.done.is_set())

    @property
    def elapsed_s(self) -> float:
        end = self.ended or (self.spool.ended if self.spool is not None else None)
        return (end or time.monotonic()) - self.started

    @property
    def canceled_elsewhere(self) -> bool:
        """Canceled by someone else (an admin, a REST client): the operation ended CANCELED, not by this page."""
        info = self.spool.info if self.spool is not None else None
        return not self.canceled and info is not None and info.status is OperationStatus.CANCELED

    @property
    def status(self) -> str:
        if self.canceled or self.canceled_elsewhere:
            return "CANCELED"
        if self.error:
            return "ERROR"
        if not self.finished:
            return "RUNNING"
        return "FINISHED"


@dataclass
class HistoryEntry:
    id: int
    sql: str
    started_at: float
    status: str = "RUNNING"
    duration_s: Optional[float] = None
    rows: Optional[int] = None
    error_class: Optional[str] = None
    parameters: Optional[dict] = None  # the :name values it ran with


def spool_dir(gateway) -> Optional[str]:
    """Where the browser's downloads are written: ``ui-results`` in the data directory; None if it cannot be made."""
    try:
        directory = os.path.join(gateway.get_gateway_info()["data_dir"], "ui-results")
        os.makedirs(directory, exist_ok=True)
        return directory
    except (OSError, KeyError):
        return None


def start_run(gateway, session, sql: str, offset: int, editor_text: str, display_limit: int,
              spool_dir: Optional[str] = None, parameters: Optional[dict] = None, script=None) -> Run:
    """Submit ``sql`` and start spooling its result; a rejected statement becomes the run's error.
    ``script``: a script's reader of its other statements' results (ui.script_results), read once it ends."""
    try:
        operation = (gateway.execute_statement(session, sql, parameters=parameters) if parameters
                     else gateway.execute_statement(session, sql))
    except GatewayError as exc:
        return Run(sql, offset, editor_text, None, None, submit_error=exc.to_json(), ended=time.monotonic(),
                   parameters=parameters)
    return Run(sql, offset, editor_text, operation, ResultSpool(gateway, session, operation, display_limit, spool_dir),
               script=script, parameters=parameters)


def cancel_run(gateway, session, run: Run) -> None:
    """Cancel the operation: its Spark jobs stop, and so does the gateway's spool."""
    run.canceled = True
    if run.spool is not None:
        run.spool.stop()
    if run.operation is not None:
        try:
            gateway.cancel_operation(session, run.operation)
        except GatewayError:
            pass  # it ended meanwhile


def finish_history(entry: HistoryEntry, run: Run) -> None:
    entry.status = run.status
    entry.duration_s = round(run.elapsed_s, 3)
    entry.rows = run.spool.total if run.spool else None
    entry.error_class = None if run.status == "CANCELED" else (run.error or {}).get("error_class")


def operation_status(gateway, session, run: Run) -> Optional[OperationStatus]:
    if run.operation is None:
        return None
    try:
        return gateway.get_operation_info(session, run.operation).status
    except GatewayError:
        return None
