"""A click on Run in Streamlit's AppTest over the workbench store: the statement is submitted before the
draft is saved (the store write no longer comes before the run), the draft is still saved, and a quick
statement's rows come with the click's own rerun of the result area (``Run.result_draws``), not a second."""
import time

import pytest
from conftest import event, open_app, rerun_until_ended
from gateway import LOCAL_USER, GatewayError, OperationNotFoundError, OperationStatus
from ui import editor_panel


def history_entry(gateway, statement):
    return next(e for e in gateway.list_history(LOCAL_USER, search=statement) if e.statement == statement)


def test_run_submits_then_saves_the_draft_which_a_reload_gets_back(fresh_tabs):
    gateway = fresh_tabs
    at = open_app()
    tab = at.session_state["active_tab"]
    sql = f"SELECT 'saved on run {time.monotonic_ns()}' AS s"
    event(at, action="run_all", text=sql, tab=tab)
    rerun_until_ended(at)
    assert at.dataframe[0].value["s"].tolist() == [sql.split("'")[1]]
    saved = next(t for t in gateway.list_tabs(LOCAL_USER) if t.tab_id == tab)
    assert saved.text == sql
    # The gateway records the run when it is submitted; the draft's save came after that, not before it.
    assert saved.updated_at >= history_entry(gateway, sql).started_at
    again = open_app({"session": at.session_state["session_handle"], "tab": tab})
    assert again.session_state["editor_text"] == sql


def test_a_click_that_starts_nothing_still_saves_the_draft(fresh_tabs):
    gateway = fresh_tabs
    at = open_app()
    tab = at.session_state["active_tab"]
    # a scan that runs until the test cancels it (20M rows ended before the second click in a whole run)
    event(at, action="run_all", text="SELECT count(*) AS n FROM range(0, 10000000000000, 1, 2)", tab=tab)
    slow = at.session_state["current_run"]
    try:
        # The tab's statement still runs: this click starts nothing (a toast says so), yet its text is kept.
        event(at, action="run_all", text="SELECT 'typed while it ran' AS t", tab=tab)
        assert at.session_state["current_run"] is slow and any("still running" in t.value for t in at.toast)
        assert next(t for t in gateway.list_tabs(LOCAL_USER) if t.tab_id == tab).text == \
            "SELECT 'typed while it ran' AS t"
    finally:
        slow.spool.gateway.cancel_operation(slow.spool.session, slow.operation)
    rerun_until_ended(at)


def test_a_quick_statement_shows_its_rows_in_the_clicks_own_draw(fresh_tabs, monkeypatch):
    # The click's wait for the first page made long enough for any load: what is tested is that the
    # result area draws the ended run in the rerun that answers the click, with no second rerun.
    monkeypatch.setattr(editor_panel, "QUICK_WAIT_S", 60)
    at = open_app()
    event(at, action="run_all", text="SELECT 1 AS one", tab=at.session_state["active_tab"])
    run = at.session_state["current_run"]
    assert run.finished and run.result_shown and run.result_draws == 1
    assert at.dataframe[0].value["one"].tolist() == [1]


def test_a_run_that_outlasts_the_clicks_wait_counts_the_draws_until_its_rows(fresh_tabs, monkeypatch):
    monkeypatch.setattr(editor_panel, "QUICK_WAIT_S", 0)   # the click's rerun draws it running
    at = open_app()
    event(at, action="run_all", text="SELECT 2 AS two", tab=at.session_state["active_tab"])
    run = at.session_state["current_run"]
    assert run.result_draws == 1 and not run.result_shown
    rerun_until_ended(at)
    assert run.result_shown and run.result_draws >= 2
    assert at.dataframe[0].value["two"].tolist() == [2]


def grid_controls(at) -> list[str]:
    """The keys of the grid's search, sort and filter widgets on the page."""
    return [w.key for kind in ("text_input", "multiselect", "selectbox") for w in at.get(kind)
            if (w.key or "").startswith(("grid_search_", "grid_sort_", "grid_filter_"))]


def test_a_one_row_result_shows_its_row_without_the_grids_controls(fresh_tabs, monkeypatch):
    # Sort, filter and search of one row change nothing: the click's draw leaves their 13 elements out.
    monkeypatch.setattr(editor_panel, "QUICK_WAIT_S", 60)
    at = open_app()
    event(at, action="run_all", text="SELECT 1 AS one", tab=at.session_state["active_tab"])
    assert at.session_state["current_run"].result_shown
    assert at.dataframe[0].value["one"].tolist() == [1]
    assert grid_controls(at) == []
    assert any("1 row" in c.value for c in at.caption)
    event(at, action="run_all", text="SELECT id FROM range(3)", tab=at.session_state["active_tab"])
    rerun_until_ended(at)
    operation = str(at.session_state["current_run"].operation)
    assert sorted(grid_controls(at)) == sorted(f"grid_{name}_{operation}" for name in (
        "search", "sort", "filter_column", "filter_op", "filter_value"))
    assert at.dataframe[0].value["id"].tolist() == [0, 1, 2]


def test_the_tabs_last_run_is_closed_once_the_next_one_is_submitted(fresh_tabs, monkeypatch):
    monkeypatch.setattr(editor_panel, "QUICK_WAIT_S", 60)
    at = open_app()
    tab = at.session_state["active_tab"]
    event(at, action="run_all", text="SELECT 'first' AS f", tab=tab)
    first = at.session_state["current_run"]
    assert first.finished
    event(at, action="run_all", text="SELECT 'second' AS s", tab=tab)
    second = at.session_state["current_run"]
    assert second is not first and second.finished and at.dataframe[0].value["s"].tolist() == ["second"]
    # Closed (its spool and files gone) by the second click, after that click's statement was submitted.
    gateway, session = first.spool.gateway, first.spool.session   # the page's own view of the gateway
    try:
        status = gateway.get_operation_info(session, first.operation).status
    except OperationNotFoundError:
        status = OperationStatus.CLOSED   # a closed operation may be forgotten at once
    assert status is OperationStatus.CLOSED
    with pytest.raises(GatewayError):
        gateway.result_page(session, first.operation, 0, 10)


def test_the_rows_grid_is_sent_before_the_operation_info_of_its_status_line(fresh_tabs, monkeypatch):
    # The status line's facts (get_operation_info: the run's Spark jobs and UI links, calls into the JVM) are
    # read after the grid is on its way to the browser; the line keeps its place above the grid all the same.
    from gateway import GatewayService
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    monkeypatch.setattr(editor_panel, "QUICK_WAIT_S", 60)
    order = []
    asked, enqueue = GatewayService.get_operation_info, ScriptRunContext.enqueue

    def get_operation_info(self, *args, **kwargs):
        order.append("get_operation_info")
        return asked(self, *args, **kwargs)

    def recorded(self, msg):
        if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            order.append(msg.delta.new_element.WhichOneof("type"))
        return enqueue(self, msg)

    monkeypatch.setattr(GatewayService, "get_operation_info", get_operation_info)
    monkeypatch.setattr(ScriptRunContext, "enqueue", recorded)
    at = open_app()
    del order[:]
    event(at, action="run_all", text="SELECT 1 AS one", tab=at.session_state["active_tab"])
    assert at.session_state["current_run"].result_shown
    assert "dataframe" in order and "get_operation_info" in order, order
    assert order.index("dataframe") < order.index("get_operation_info"), order
    # The status line sits above the grid, and says what it always said.
    shown = [(node.type, getattr(node, "value", None)) for node in in_page_order(at.main)]
    status = next(i for i, (kind, value) in enumerate(shown) if kind == "markdown" and "**FINISHED**" in str(value))
    assert "1 row" in shown[status][1] and "[Spark jobs](" in shown[status][1]
    assert status < next(i for i, (kind, _) in enumerate(shown) if kind == "dataframe")
    assert at.dataframe[0].value["one"].tolist() == [1]


def in_page_order(node):
    """The elements under an AppTest block, in the order the page shows them."""
    children = getattr(node, "children", None)
    if not children:
        yield node
        return
    for index in sorted(children):
        yield from in_page_order(children[index])
