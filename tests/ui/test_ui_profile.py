"""The query profile and EXPLAIN in Streamlit's AppTest (issue 31 item 3): the elapsed time opens the
profile (the operator graph, operators slowest first, stages), two runs of the tab compare side by side,
the "Spark jobs" link is the statement's own SQL execution, and EXPLAIN FORMATTED reads as text."""
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import rerun_until_ended, wait_for
from gateway import LOCAL_USER
from ui.profile_panel import profile_dot

APP = str(Path(__file__).resolve().parents[2] / "app.py")
QUERY = "SELECT id % 3 AS k, count(*) AS n FROM range(0, 3000, 1, 3) GROUP BY id % 3"


@pytest.fixture()
def app(gateway):
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    yield at
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)


def run_all(at, text):
    at.session_state["sql_editor"] = {"events": [{"id": f"p-{time.monotonic_ns()}", "action": "run_all",
                                                  "text": text, "tab": at.session_state["active_tab"]}]}
    at.run()
    rerun_until_ended(at)
    assert not at.exception, at.exception
    run = at.session_state["current_run"]
    assert run.status == "FINISHED", run.error
    return run


def profile_button(at, run):
    return next(b for b in at.button if b.key == f"profile_{run.operation}")


def test_explain_formatted_is_readable_text_not_a_grid_cell(app):
    run_all(app, "EXPLAIN FORMATTED " + QUERY)
    code = [c.value for c in app.code]
    assert any("== Physical Plan ==" in text and "HashAggregate" in text and "\n" in text for text in code), code
    assert not app.dataframe  # no one-cell grid


def test_the_elapsed_time_opens_the_profile_and_two_runs_compare(gateway, app):
    first = run_all(app, QUERY)
    button = profile_button(app, first)
    assert button.label.startswith(f"{first.elapsed_s:.2f} s")
    button.click().run()
    assert not app.exception, app.exception
    profile = app.session_state["gateway"].get_operation_profile(app.session_state["session_handle"],
                                                                 first.operation, timeout_s=60)
    assert profile["available"]
    wait_for(lambda: app.run() and False or not any("being read" in i.value for i in app.info), timeout_s=60,
             interval=0.5)
    charts = app.get("graphviz_chart")
    assert charts and "HashAggregate" in charts[0].proto.spec
    operators = app.dataframe[0].value
    assert list(operators["operator"][:1]) == [profile["slowest"][0]["name"]]  # slowest first
    assert 3000 in set(operators["rows"].dropna())  # the Range's rows
    links = [m.value for m in app.markdown if "[Spark jobs](" in m.value]
    assert links and f"/SQL/execution/?id={profile['executions'][-1]['id']})" in links[0]
    second = run_all(app, QUERY)
    profile_button(app, second).click().run()
    wait_for(lambda: app.run() and False or len(app.get("expander")) > 0, timeout_s=60, interval=0.5)
    labels = [s.label for s in app.selectbox if s.key and s.key.startswith("profile_compare")]
    assert labels == ["Run", "Run"]
    left, right = (s.value for s in app.selectbox if s.key and s.key.startswith("profile_compare"))
    assert {left, right} == {str(first.operation), str(second.operation)}  # the same statement, side by side
    assert [m.label for m in app.metric] == ["Spark time", "Spark time"]


def test_the_graph_joins_operators_and_fills_the_slowest():
    execution = {"operators": [
        {"id": 0, "kind": "operator", "name": "HashAggregate", "cluster": 5, "time_ms": 1200.0, "rows": 3,
         "spill_bytes": None, "peak_memory_bytes": 2048},
        {"id": 1, "kind": "operator", "name": "Range", "cluster": None, "time_ms": None, "rows": 3000,
         "spill_bytes": None, "peak_memory_bytes": None},
        {"id": 5, "kind": "cluster", "name": "WholeStageCodegen (1)", "members": [0], "time_ms": 1500.0,
         "rows": None, "spill_bytes": None, "peak_memory_bytes": None}], "edges": [[1, 0]]}
    dot = profile_dot(execution, slowest=(0,))
    assert "subgraph cluster_5" in dot and "n1 -> n0;" in dot
    assert "1.20 s · 3 rows · mem 2.0 KiB" in dot and "3,000 rows" in dot
    assert 'n0 [label=<HashAggregate<br/>1.20 s · 3 rows · mem 2.0 KiB>, fillcolor="#f4b183"]' in dot
