"""Showing a run: live status with Spark progress and Cancel, the grid, errors, the chart and the downloads.

Sorting, filtering and searching the grid are the gateway's calls over the whole spooled result
(``result_page``), never a sort of the page the browser holds; the caption says what the answer covers."""
from __future__ import annotations

import re
import time

import pandas as pd
import streamlit as st

from gateway import FILTER_OPS, GatewayError, RowFilter, SortKey

from . import charts, downloads, profile_panel, state
from .runs import Run, cancel_run, finish_history

GRID_PAGE_ROWS = 1_000   # rows per grid page when the editor's "Rows per page" is not set
VIEW_KEY = "result_view"  # + the operation: which of Result and Chart is open (st.tabs' state)
_POLL_S = 0.5
STRIP_AFTER_S = 1.0   # a run longer than this gets its tab's ⏳ (one page rerun)


def rows_label(n: int) -> str:
    """"1 row", "0 rows", "1,234 rows"."""
    return "1 row" if n == 1 else f"{n:,} rows"


def frame_of(columns, rows) -> pd.DataFrame:
    """A DataFrame of JSON rows with unique column names (Spark allows duplicates)."""
    names, seen = [], {}
    for column in columns:
        count = seen.get(column.name, 0)
        seen[column.name] = count + 1
        names.append(column.name if count == 0 else f"{column.name}_{count + 1}")
    return pd.DataFrame(rows, columns=names)


NUMERIC_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL"}


def column_labels(columns, names) -> dict:
    """Each column's header with its type; numbers right-aligned (a DECIMAL arrives as exact text)."""
    return {name: st.column_config.Column(f"{name} · {c.type_name}", help=c.type_name,
                                          alignment="right" if c.type.get("type") in NUMERIC_TYPES else None)
            for name, c in zip(names, columns)}


AREA_KEY = "result_area_place"  # which of the two places the result area draws its view in, and that view


def view_of(run: Run | None) -> tuple:
    """What the result area shows: the welcome, a run's live status, or a run's result (a new run, or the
    same run once it ends, is a new view)."""
    return ("welcome",) if run is None else (run.history_id, id(run), run.finished)


def area_for(view: tuple):
    """The container the result area draws ``view`` in.

    The browser keeps an element of the last script run on screen until the new run puts another at its
    place or the run ends: a running statement drawn over the last result's places left that result's grid
    showing (stale) below the new status until the run ended (issue 31, seen for ~150 ms a run). So a new
    view goes into the other of two places, and the first thing sent is an empty element over the place the
    last view used, which removes it (grid, chart and all) at once. The same view drawn again stays in its
    place, so a sort, a page or the polling redraws the grid in place instead of building it anew."""
    held = st.session_state.get(AREA_KEY)
    if held is None:
        place = 0
    elif held[0] == view:
        place = held[1]
    else:
        place = 1 - held[1]
    st.session_state[AREA_KEY] = (view, place)
    if place == 0:
        area = st.container()
        st.empty()
    else:
        st.empty()
        area = st.container()
    return area


def render_run(gateway, session, run: Run) -> None:
    """Live status while running; the result, chart and history once done."""
    if not run.finished:
        _live_status(gateway, session, run)
        return
    if run.canceled or run.error:
        _record_finish(run)
        _status_line(st, run, profile_panel.spark_ui_link(gateway, session, run))   # drawn in place
        profile_panel.render_entry(gateway, session, run)  # the elapsed time opens the query profile
        if run.status == "CANCELED":
            who = "Canceled by an admin or another client" if run.canceled_elsewhere else "Canceled"
            st.info(f"{who}: the statement and its Spark jobs were stopped. The session is ready for the "
                    "next statement.", icon=":material/stop_circle:")
            return
        render_error(run.error, run)
        return
    # A result read to its end without an error: the grid is sent first and the status line after it, in the
    # place kept for it above. Its facts (the operation's info: its Spark jobs and their UI links, two calls
    # into the JVM, 10-30 ms of a loaded machine) are not what the user waits for (benchmarks/click_counts.py).
    status = st.empty()
    profile_panel.render_entry(gateway, session, run)  # the elapsed time opens the query profile
    _result_and_chart(gateway, session, run)
    _record_finish(run)
    _status_line(status, run, profile_panel.spark_ui_link(gateway, session, run))


def _result_and_chart(gateway, session, run: Run) -> None:
    # Only the open tab runs (its content is not drawn hidden): a chart in the hidden tab was aggregated,
    # sent and laid out again by Vega on every rerun of the grid (a sort, a filter, a page), blocking the
    # browser; the grid is not sent while the chart is shown either.
    if run.spool and run.spool.columns and run.spool.total:
        charts.warm_up()   # the chart's picture engine, ready by the time the Chart tab is opened
    result_tab, chart_tab = st.tabs(["Result", "Chart"], key=f"{VIEW_KEY}_{run.operation}", on_change="rerun")
    with result_tab:
        if result_tab.open is not False:
            _result_grid(gateway, session, run)
    with chart_tab:
        if not chart_tab.open:
            pass
        elif run.spool and run.spool.columns and run.spool.total:
            names = list(frame_of(run.spool.columns, []).columns)
            charts.render(gateway, session, run, names)
        else:
            st.info("Nothing to chart: run a query that returns rows, e.g. "
                    "`SELECT country, count(*) AS customers FROM customers GROUP BY country`.")


def _record_finish(run: Run) -> None:
    for entry in state.history():
        if entry.id == run.history_id and entry.status == "RUNNING":
            finish_history(entry, run)
            info = run.spool.info if run.spool is not None else None
            # A run of reads only (most runs) leaves the catalog and the current database as they were: no
            # lookups of the current database, no new completion dictionary in the render that shows its row.
            if state.note_statements([s.kind for s in info.statements] if info is not None else None):
                state.bump_schema_generation()  # DDL may have changed what completion offers


def _status_line(slot, run: Run, sql_execution_url: str | None = None) -> None:
    """The run's status, elapsed time and rows (and a script's statements) in ``slot``: an ``st.empty`` kept for
    it, or ``st`` itself (here)."""
    spool = run.spool
    icon = {"FINISHED": ":material/check_circle:", "ERROR": ":material/error:", "CANCELED": ":material/stop_circle:"}.get(run.status, ":material/hourglass_top:")
    parts = [f"{icon} **{run.status}**", f"{run.elapsed_s:.2f} s"]
    if spool is not None and not run.error:
        parts.append(rows_label(spool.total) if spool.columns else "no result rows")
        info = spool.info
        if info is not None and len(info.statements) > 1:
            parts.append(f"script of {len(info.statements)} statements; the result is the last one's")
    if sql_execution_url or (spool is not None and spool.info is not None and spool.info.spark_ui_url):
        parts.append(f"[Spark jobs]({sql_execution_url or spool.info.spark_ui_url})")  # its SQL execution, once known
    if spool is None or spool.info is None or len(spool.info.statements) <= 1:
        slot.markdown(" · ".join(parts))
        return
    with slot.container():
        st.markdown(" · ".join(parts))
        with st.expander("Statements of the script"):
            st.dataframe(pd.DataFrame([{"#": s.index + 1, "line": s.line, "kind": s.kind, "status": s.status,
                                        "rows": s.rows, "statement": s.statement[:120]}
                                       for s in spool.info.statements]), hide_index=True)


def _live_status(gateway, session, run: Run) -> None:
    # Cancel stands outside the polling fragment: a button the fragment redraws every poll can lose
    # a click that lands while it is being replaced (seen on a loaded machine).
    if st.button("Cancel", key="cancel_run", icon=":material/stop_circle:", help="Stop the statement and its Spark jobs"):
        cancel_run(gateway, session, run)
        deadline = time.monotonic() + 5
        while not run.finished and time.monotonic() < deadline:
            time.sleep(0.05)
        st.rerun()

    @st.fragment(run_every=_POLL_S)
    def poll() -> None:
        if run.finished:
            st.rerun()
        if not run.page_redrawn and run.elapsed_s >= STRIP_AFTER_S:
            # A click on Run redraws only the result and the editor, not the tab strip: once a run
            # outlasts a glance, the page reruns (once) so its tab shows ⏳; the end reruns it again.
            run.page_redrawn = True
            st.rerun()
        progress = None
        try:
            progress = gateway.get_operation_progress(session, run.operation)
        except GatewayError:
            pass
        fraction = progress.fraction if progress is not None else None
        text = f"Running · {run.elapsed_s:.1f} s"
        if progress is not None:
            text += " · " + progress.summary()
        if run.spool is not None and run.spool.total:
            text += f" · {run.spool.total:,} rows fetched"
        st.progress(min(1.0, fraction or 0.0), text=text)
        _first_rows(gateway, session, run)

    poll()


def _first_rows(gateway, session, run: Run) -> None:
    """While the result is spooled, its first page as soon as the spool has it (the gateway writes the
    first fetched page at once); the whole-result grid with sort, filter and search replaces it at the end."""
    spool = run.spool
    if spool is None or not spool.total or not spool.columns:
        return
    page_rows = spool.display_limit or GRID_PAGE_ROWS
    shown = run.first_rows
    if shown is None or len(shown.rows) < page_rows:   # a full first page does not change: asked once
        try:
            shown = gateway.result_page(session, spool.operation, 0, page_rows)
        except GatewayError:
            return
        run.first_rows = shown
    frame = frame_of(shown.columns, shown.rows)
    st.dataframe(frame, hide_index=True, column_config=column_labels(spool.columns, frame.columns),
                 width="stretch", height=min(36 * (len(frame) + 1) + 4, 520))
    st.caption(f"The first {rows_label(len(frame))} while the result is spooling ({spool.total:,} rows so far): "
               f"sort, filter, search, chart and downloads act on the whole result once it is complete.")


def error_message(error: dict) -> str:
    """Spark's message without the ``[CLASS]`` prefix and ``SQLSTATE: …`` it repeats (shown once, above)."""
    message = (error.get("root_cause") or "").strip()
    error_class, sqlstate = error.get("error_class"), error.get("sqlstate")
    if error_class:
        message = re.sub(rf"^\[{re.escape(error_class)}(\.[A-Z_]+)?\]\s*", "", message)
    if sqlstate:
        message = re.sub(rf"\s*SQLSTATE:\s*{re.escape(sqlstate)}\s*[.;]?", "", message, count=1)
    return message.strip()


def render_error(error: dict, run: Run | None = None) -> None:
    """The error class and SQLSTATE once, then the message as plain text (never Markdown or LaTeX:
    ``$anonfun$…$`` stays as Spark wrote it)."""
    error_class = error.get("error_class") or "Error"
    sqlstate = f" · SQLSTATE {error['sqlstate']}" if error.get("sqlstate") else ""
    where = ""
    if error.get("line") is not None:
        where = f" · at line {error['line']}, column {error.get('position', 0) + 1} (marked in the editor)"
    st.error(f"{error_class}{sqlstate}{where}".replace("$", "\\$"), icon=":material/error:")
    st.code(error_message(error), language="text", wrap_lines=True)
    if error.get("exception_stack"):
        with st.expander("Stack trace"):
            st.code(error["exception_stack"], language="text")


def _grid_request(names: list[str], run_key: str) -> tuple[list[SortKey], list[RowFilter], str]:
    """The grid's search, sort and filter controls, as the gateway's typed request (never SQL text)."""
    search_column, sort_column, filter_column = st.columns([2, 3, 4])
    search = search_column.text_input("Search all rows", key=f"grid_search_{run_key}", placeholder="text in any column",
                                      help="Finds rows of the whole result where any column contains this text "
                                           "(ignoring case).")
    directions = [f"{n} ↑" for n in names] + [f"{n} ↓" for n in names]
    chosen = sort_column.multiselect("Sort whole result by", directions, key=f"grid_sort_{run_key}",
                                     help="Sorted in the gateway over every row; the first column first.")
    sort = [SortKey(label[:-2], label.endswith("↓")) for label in chosen]
    with filter_column:
        name_part, op_part, value_part = st.columns([3, 2, 3])
        column = name_part.selectbox("Filter column", ["(no filter)"] + names, key=f"grid_filter_column_{run_key}")
        op = op_part.selectbox("op", FILTER_OPS, key=f"grid_filter_op_{run_key}")
        value = value_part.text_input("value", key=f"grid_filter_value_{run_key}", placeholder="typed as the column")
    filters = []
    if column != "(no filter)" and (value.strip() or op in ("is_null", "is_not_null")):
        filters.append(RowFilter(column, op, value if op not in ("is_null", "is_not_null") else None))
    return sort, filters, search.strip()


def describe_page(total: int, spooled: int, complete: bool, sort: list, filters: list, search: str) -> str:
    """What the grid shows, said plainly: "sorted by id ↓ over all 100,000 rows", "12 of 100,000 rows match"."""
    whole = f"all {spooled:,} rows" if complete else f"the {spooled:,} rows spooled so far"
    parts = []
    if filters or search:
        parts.append(f"{total:,} of {spooled:,} rows match" + ("" if complete else " (so far)"))
    if sort:
        parts.append("sorted by " + ", ".join(f"{k.column} {'↓' if k.descending else '↑'}" for k in sort)
                     + f" over {whole}")
    if not parts:
        parts.append(rows_label(spooled) + ("" if complete else " so far"))
    return " · ".join(parts)


def _result_grid(gateway, session, run: Run) -> None:
    spool = run.spool
    if spool is None or not spool.columns:
        st.success("The statement ran; it returns no rows. Query a table to see a grid, e.g. "
                   "`SELECT * FROM orders LIMIT 100`.")
        return
    if profile_panel.render_explain(run):  # EXPLAIN's plan as text, not one grid cell
        return
    names = list(frame_of(spool.columns, []).columns)
    if spool.total > 1:
        sort, filters, search = _grid_request(names, str(spool.operation))
    else:
        # One row (SELECT 1, a count) or none: nothing to sort, filter or search. The controls are 13 of the
        # result area's 30 elements, each drawn by the browser before the row shows (benchmarks/click_counts.py).
        sort, filters, search = [], [], ""
    page_rows = spool.display_limit or GRID_PAGE_ROWS
    page_number = st.session_state.get("grid_page", 1)
    try:
        page = gateway.result_page(session, spool.operation, (page_number - 1) * page_rows, page_rows,
                                   sort=sort, filters=filters, search=search or None)
        if page_number > 1 and not page.rows:
            st.session_state.pop("grid_page", None)  # the filter left fewer pages: back to the first
            page_number = 1
            page = gateway.result_page(session, spool.operation, 0, page_rows, sort=sort, filters=filters,
                                       search=search or None)
    except GatewayError as exc:
        st.warning(str(exc), icon=":material/filter_alt_off:")  # a bad filter value: say why; downloads stay
        _downloads(run)
        return
    frame = frame_of(page.columns, page.rows)
    st.dataframe(frame, hide_index=True, column_config=column_labels(spool.columns, frame.columns),
                 width="stretch", height=min(36 * (len(frame) + 1) + 4, 520))
    pages = max(1, -(-page.total // page_rows))
    where = f" · rows {page.offset + 1:,}–{page.offset + len(frame):,}" if pages > 1 and len(frame) else ""
    st.caption(describe_page(page.total, page.spooled, page.complete, sort, filters, search) + where)
    if pages > 1:
        st.number_input(f"Page (of {pages:,}, {page_rows:,} rows each)", 1, pages, key="grid_page")
    if spool.capped:
        st.warning(f"Not the whole result: {spool.note}.", icon=":material/content_cut:")
    _downloads(run)


def _downloads(run: Run) -> None:
    """The whole spooled result as a file, exported by the gateway (the same call as REST's /export)."""
    spool = run.spool
    label = rows_label(spool.total) + ("+" if spool.capped else "")
    for column, (format, title, mime, key, help_text) in zip(st.columns(3), (
            ("csv", "CSV", "text/csv", "download_csv", None),
            ("parquet", "Parquet", "application/vnd.apache.parquet", "download_parquet",
             "The full result with Spark's column types, for pandas, DuckDB or Spark"),
            ("jsonl", "JSON lines", "application/x-ndjson", "download_jsonl", "One JSON object per row"))):
        column.download_button(f"Download {title} ({label})", data=lambda f=format: open(spool.download(f), "rb"),
                               file_name=downloads.file_name(run.name, run.started_at, format), mime=mime, key=key,
                               icon=":material/download:", on_click="ignore", help=help_text)
