"""Running a statement from the UI: the operation, its result spool, and the session's history.

A ``ResultSpool`` reads every page of an operation through ``fetch_results`` in a thread:
the first ``display_limit`` rows stay in memory for the grid and the chart, and every row
goes to a CSV file and to a Parquet file (from the pages' Arrow tables, typed as Spark returned them),
so either download holds the full result (up to ``SPOOL_MAX_ROWS``) without running the query again
and without collecting it in memory. No Streamlit here: the thread
must not touch ``st``; pages read the spool's fields.
"""
from __future__ import annotations

import csv
import json
import logging
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import pyarrow as pa
import pyarrow.parquet as pq

from gateway import GatewayError, OperationStatus, ResultType

DISPLAY_LIMITS = (1_000, 10_000, 100_000)
SPOOL_MAX_ROWS = 10_000_000
_SPOOL_TIMEOUT_S = 6 * 3600.0


def _csv_value(value):
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return value


def unique_names(columns) -> list[str]:
    """Column names made unique (Spark allows duplicates, a file's readers do not): ``x``, ``x_2``."""
    names, seen = [], {}
    for column in columns:
        count = seen.get(column.name, 0)
        seen[column.name] = count + 1
        names.append(column.name if count == 0 else f"{column.name}_{count + 1}")
    return names


def _nullable_nulls(kind: pa.DataType) -> pa.DataType:
    """``kind`` with every null-typed child nullable: Spark's Arrow marks the elements of
    ``array_compact(array(null))`` as a non-nullable null type, which Parquet refuses."""
    def field(f: pa.Field) -> pa.Field:
        return pa.field(f.name, _nullable_nulls(f.type), f.nullable or pa.types.is_null(f.type), f.metadata)

    if pa.types.is_map(kind):
        return pa.map_(field(kind.key_field), field(kind.item_field))
    if pa.types.is_list(kind):
        return pa.list_(field(kind.value_field))
    if pa.types.is_large_list(kind):
        return pa.large_list(field(kind.value_field))
    if pa.types.is_struct(kind):
        return pa.struct([field(kind.field(i)) for i in range(kind.num_fields)])
    return kind


def parquet_ready(table: pa.Table) -> pa.Table:
    """``table`` as Parquet can store it (see ``_nullable_nulls``); the same table when it already can.
    A column whose type changes is built again from its values (Arrow's cast of a list of null
    type to a nullable one leaves its children short)."""
    schema = pa.schema([pa.field(f.name, _nullable_nulls(f.type), f.nullable or pa.types.is_null(f.type), f.metadata)
                        for f in table.schema], metadata=table.schema.metadata)
    if schema.equals(table.schema):
        return table
    columns = [column if column.type.equals(target.type) else
               pa.chunked_array([pa.array(column.to_pylist(), type=target.type)], type=target.type)
               for column, target in zip(table.columns, schema)]
    return pa.Table.from_arrays(columns, schema=schema)


class ParquetSink:
    """Appends pages to one Parquet file: their Arrow tables as they are, or a table built from JSON rows
    (statements the gateway answers itself have no Arrow); every page cast to the first page's schema."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.error: Optional[str] = None
        self._writer: Optional[pq.ParquetWriter] = None
        self._schema: Optional[pa.Schema] = None

    def write(self, page, names: list[str]) -> None:
        if self.error is not None:
            return
        try:
            if page.arrow is not None:
                table = parquet_ready(page.arrow.rename_columns(names))
            else:
                table = pa.table({name: pa.array([row[i] for row in page.rows]) for i, name in enumerate(names)})
            if self._writer is None:
                self._schema = table.schema
                self._writer = pq.ParquetWriter(self.path, self._schema)
            elif not table.schema.equals(self._schema):
                table = table.cast(self._schema)
            self._writer.write_table(table)
        except (pa.ArrowException, ValueError, TypeError, OSError) as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self.close()

    def close(self) -> None:
        if self._writer is not None:
            try:
                self._writer.close()
            except (pa.ArrowException, OSError) as exc:
                self.error = self.error or f"{type(exc).__name__}: {exc}"
            self._writer = None

    @property
    def ready(self) -> bool:
        return self.error is None and self._schema is not None


class ResultSpool:
    """Fetches all pages of one operation; keeps the first rows, writes all rows to CSV and Parquet."""

    def __init__(self, gateway, session, operation, display_limit: int, directory: Optional[str] = None,
                 before_close: Optional[Callable[["ResultSpool"], None]] = None) -> None:
        self.gateway, self.session, self.operation = gateway, session, operation
        self.before_close = before_close      # reads what else the operation holds (a script's other results)
        self.display_limit = display_limit
        self.columns: list = []
        self.rows: list[list] = []
        self.total = 0
        self.pages = 0
        self.error: Optional[dict] = None
        self.info = None                      # OperationInfo captured before the operation is closed
        self.capped = False
        self.ended: Optional[float] = None
        fd, self.csv_path = tempfile.mkstemp(prefix="result-", suffix=".csv", dir=directory)
        os.close(fd)
        fd, parquet_path = tempfile.mkstemp(prefix="result-", suffix=".parquet", dir=directory)
        os.close(fd)
        self.parquet = ParquetSink(parquet_path)
        self.first_page = threading.Event()
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"ui-spool-{operation}", daemon=True)
        self._thread.start()

    @property
    def cut(self) -> bool:
        return self.total > len(self.rows)

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        try:
            with open(self.csv_path, "w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out)
                for page in self.gateway.iter_results(self.session, self.operation, timeout_s=_SPOOL_TIMEOUT_S):
                    if page.columns and not self.columns:
                        self.columns = list(page.columns)
                        writer.writerow([c.name for c in self.columns])
                        names = unique_names(self.columns)
                    if page.result_type is ResultType.ERROR:
                        self.error = page.exception or {"root_cause": "the statement failed"}
                        break
                    room = self.display_limit - len(self.rows)
                    if room > 0:
                        self.rows.extend(page.rows[:room])
                    writer.writerows([_csv_value(v) for v in row] for row in page.rows)
                    if self.columns:
                        self.parquet.write(page, names)
                    self.total += len(page.rows)
                    self.pages += 1
                    self.first_page.set()
                    if self._stop.is_set():
                        break
                    if self.total >= SPOOL_MAX_ROWS:
                        self.capped = page.next_token is not None
                        break
        except GatewayError as exc:
            self.error = exc.to_json()
        except Exception as exc:  # noqa: BLE001 - shown to the user, never lost in a thread
            self.error = {"root_cause": str(exc), "error_class": type(exc).__name__}
        finally:
            self.parquet.close()
            if self.before_close is not None:
                try:
                    self.before_close(self)
                except Exception:  # noqa: BLE001 - the main result stands without the others
                    logging.getLogger(__name__).warning("operation %s: reading its other results failed",
                                                        self.operation, exc_info=True)
            try:
                self.info = self.gateway.get_operation_info(self.session, self.operation)
            except GatewayError:
                pass
            try:
                self.gateway.close_operation(self.session, self.operation)
            except GatewayError:
                pass
            self.ended = time.monotonic()
            self.first_page.set()
            self.done.set()

    def discard(self) -> None:
        self.stop()
        for path in (self.csv_path, self.parquet.path):
            try:
                os.unlink(path)
            except OSError:
                pass


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
    """Where result spools (CSV, Parquet) go: ``ui-results`` in the data directory; None if it cannot be made."""
    try:
        directory = os.path.join(gateway.get_gateway_info()["data_dir"], "ui-results")
        os.makedirs(directory, exist_ok=True)
        return directory
    except (OSError, KeyError):
        return None


def start_run(gateway, session, sql: str, offset: int, editor_text: str, display_limit: int,
              spool_dir: Optional[str] = None, parameters: Optional[dict] = None, script=None) -> Run:
    """Submit ``sql`` and start spooling its result; a rejected statement becomes the run's error.
    ``script``: a script's reader of its other statements' results (called before the spool closes)."""
    try:
        operation = (gateway.execute_statement(session, sql, parameters=parameters) if parameters
                     else gateway.execute_statement(session, sql))
    except GatewayError as exc:
        return Run(sql, offset, editor_text, None, None, submit_error=exc.to_json(), ended=time.monotonic(),
                   parameters=parameters)
    spool = ResultSpool(gateway, session, operation, display_limit, spool_dir, before_close=script)
    return Run(sql, offset, editor_text, operation, spool, script=script, parameters=parameters)


def cancel_run(gateway, session, run: Run) -> None:
    """Cancel the operation (its Spark jobs stop) and the spool."""
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
