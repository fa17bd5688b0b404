"""One result per statement of a script, under the editor: each statement's status, time, rows and error.

The gateway keeps every statement's result (``fetch_results(…, statement=i)``); the run's spool holds
the last statement's (the operation's own) for the grid, and a ``ScriptReader`` reads the earlier ones
once the run has ended (the operation stays open until the tab's next run), so nothing runs twice. A single statement gets no reader:
its path is exactly as before.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Optional

import streamlit as st

from gateway import GatewayError, ResultType

from .results import frame_of

log = logging.getLogger(__name__)


@dataclass
class StatementView:
    """What the list shows of one statement."""

    index: int
    line: int
    kind: str
    status: str
    rows: Optional[int] = None
    elapsed_ms: Optional[int] = None
    error: Optional[dict] = None
    columns: list = field(default_factory=list)
    shown: list = field(default_factory=list)    # its first rows (the last statement's are in the grid)
    truncated: bool = False


class ScriptReader:
    """Reads a finished script's other results from its operation (open until the tab's next run)."""

    def __init__(self, statements: list, display_limit: int) -> None:
        self.statements = statements              # the gateway's split: StatementText (kind, index, line)
        self.display_limit = display_limit
        self.views: list[StatementView] = []
        self.error: Optional[dict] = None          # why the statements' results could not be read
        self.done = threading.Event()

    def __call__(self, spool) -> None:
        """Read once; a failure is kept in ``error`` and shown, never an empty list that looks like nothing ran."""
        try:
            self.views = self._read(spool.gateway, spool.session, spool.operation)
        except GatewayError as exc:
            self.error = exc.to_json()
        except Exception as exc:  # noqa: BLE001 - a bug of ours: shown once per run, logged with its traceback
            log.exception("the script's statement results could not be read")
            self.error = {"error_class": type(exc).__name__, "root_cause": str(exc)}
        finally:
            self.done.set()

    def _read(self, gateway, session, operation) -> list[StatementView]:
        info = gateway.get_operation_info(session, operation)
        ran = {s.index: s for s in info.statements}
        last = len(self.statements) - 1
        views: list[StatementView] = []
        for statement in self.statements:
            summary = ran.get(statement.index)
            if summary is None:
                views.append(StatementView(statement.index, statement.line, statement.kind, "NOT RUN"))
                continue
            view = StatementView(statement.index, statement.line, statement.kind, summary.status, summary.rows,
                                 summary.elapsed_ms, summary.error, truncated=summary.truncated)
            if statement.index < last and summary.has_result and summary.error is None:
                self._read_rows(gateway, session, operation, view)
            views.append(view)
        return views

    def _read_rows(self, gateway, session, operation, view: StatementView) -> None:
        try:
            for page in gateway.iter_results(session, operation, self.display_limit, timeout_s=60,
                                             statement=view.index):
                if page.result_type is ResultType.ERROR:
                    view.error = page.exception
                    return
                view.columns = list(page.columns)
                view.shown.extend(page.rows[:self.display_limit - len(view.shown)])
                if len(view.shown) >= self.display_limit:
                    return
        except GatewayError as exc:
            view.error = exc.to_json()


def reader_for(gateway, sql: str, display_limit: int) -> Optional[ScriptReader]:
    """A reader when ``sql`` is a script (two statements or more); None for one statement."""
    if ";" not in sql:
        return None
    try:
        statements = gateway.split_statements(sql)
    except GatewayError:
        return None
    return ScriptReader(statements, display_limit) if len(statements) > 1 else None


_ICONS = {"FINISHED": ":material/check_circle:", "ERROR": ":material/error:", "NOT RUN": ":material/block:",
          "RUNNING": ":material/progress_activity:"}


def summary_line(view: StatementView) -> str:
    parts = [f"Statement {view.index + 1}", f"line {view.line}", view.kind, view.status.lower()]
    if view.rows is not None and view.status == "FINISHED":
        parts.append("1 row" if view.rows == 1 else f"{view.rows:,} rows")
    if view.elapsed_ms is not None:
        parts.append(f"{view.elapsed_ms / 1000:.2f} s")
    return " · ".join(parts)


def render(run) -> None:
    """The list of statements of a finished script run (nothing for a single statement)."""
    reader: Optional[ScriptReader] = getattr(run, "script", None)
    if reader is None or run.spool is None:
        return
    if not reader.done.is_set():
        reader(run.spool)  # in process, from the gateway's kept results: no statement runs again
    if reader.error is not None:
        st.error(f"The script's {len(reader.statements)} statements ran, but their own results could not be read "
                 f"({reader.error.get('error_class') or 'error'}: {str(reader.error.get('root_cause', ''))[:500]}). "
                 "The last statement's result is below; run the script again to see each statement's.",
                 icon=":material/error:")
        return
    last = len(reader.views) - 1
    with st.container(key="script-results"):
        st.caption(f"Script · {len(reader.views)} statements, one result each")
        for view in reader.views:
            label = summary_line(view)
            icon = _ICONS.get(view.status, ":material/radio_button_unchecked:")
            if view.error is not None:
                where = f" (line {view.error['line']})" if view.error.get("line") else ""
                st.error(f"{label}{where}: {str(view.error.get('root_cause', ''))[:500]}", icon=icon)
            elif view.index == last:
                st.markdown(f"{icon} {label} — its result is below")
            elif view.columns:
                with st.expander(label, icon=icon):
                    st.dataframe(frame_of(view.columns, view.shown), hide_index=True)
                    if view.truncated or (view.rows or 0) > len(view.shown):
                        st.caption(f"the first {len(view.shown):,} of {view.rows:,} rows")
            else:
                st.markdown(f"{icon} {label}")
