"""The plans page in Streamlit's AppTest, over the test run's gateway (no app.py: the lead wires navigation)."""
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from gateway import GatewayError

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "plans.py")


def page(gateway, session, **state):
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["gateway"] = gateway
    at.session_state["session_handle"] = str(session)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def execute_and_wait(at, timeout_s: float = 90) -> None:
    """Press Execute and rerun the page until the plan's run is no longer RUNNING (as its polling does)."""
    at.button(key="plan_execute").click().run()
    deadline = time.monotonic() + timeout_s
    while at.session_state["plan_run"].status == "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.2)
        at.run()
    at.run()


def graphs(at) -> list[str]:
    return [element.proto.spec for element in at.get("graphviz_chart")]


def test_compile_the_editor_statement_and_see_its_graph(gateway, session):
    at = page(gateway, session, editor_sql="SELECT id % 3 AS k, count(*) AS n FROM range(10) GROUP BY id % 3")
    assert at.text_area(key="plan_sql").value.startswith("SELECT id % 3")
    at.button(key="plan_compile").click().run()
    assert not at.exception and not at.error
    drawn = graphs(at)
    assert len(drawn) == 1 and drawn[0].startswith("digraph plan") and "Aggregate" in drawn[0]
    assert any("4.3" in caption.value for caption in at.caption)


def test_compare_two_plans_highlights_differences(gateway, session):
    name = f"page-{session}.json"
    at = page(gateway, session, editor_sql="SELECT id FROM range(10) WHERE id > 5")
    at.text_input(key="plan_file").set_value(name)
    at.button(key="plan_compile").click().run()
    assert not at.error, at.error
    at.text_area(key="plan_sql").set_value("SELECT id, id * 2 AS twice FROM range(10) WHERE id > 7")
    at.text_input(key="plan_file").set_value("")
    at.button(key="plan_compile").click().run()
    at.selectbox(key="plan_right").set_value(name)
    at.button(key="plan_compare").click().run()
    assert not at.exception and not at.error
    changes = at.dataframe[-1].value if at.dataframe else None
    assert changes is not None and "statement" in changes["section"].tolist()
    left, right = graphs(at)[-2:]
    assert "#ffd6d6" in left and "#d6f5d6" in right  # nodes on one side only are highlighted
    assert any("twice" in block.value for block in at.code)  # the text diff


def test_bad_statement_shows_an_error_and_page_stays_up(gateway, session):
    at = page(gateway, session, editor_sql="SHOW TABLES")
    at.button(key="plan_compile").click().run()
    assert not at.exception
    assert "cannot be compiled into a plan" in at.error[0].value


def test_execute_a_plan_file_and_see_its_result(gateway, session):
    name = f"exec-{session}.json"
    at = page(gateway, session, editor_sql="SELECT id, id * 10 AS tens FROM range(4) WHERE id > 0")
    at.text_input(key="plan_file").set_value(name)
    at.button(key="plan_compile").click().run()
    assert not at.error, at.error
    at.selectbox(key="plan_check_file").set_value(name)
    execute_and_wait(at)
    assert not at.exception and not at.error, at.error
    assert at.session_state["plan_run"].status == "FINISHED"
    grid = at.dataframe[-1].value
    assert grid["id"].tolist() == [1, 2, 3] and grid["tens"].tolist() == [10, 20, 30]
    assert any(name in header.value for header in at.subheader)


def test_execute_plan_refuses_a_missing_file_and_a_plan_whose_table_changed(gateway, session):
    with pytest.raises(GatewayError, match="missing-plan"):
        gateway.execute_plan(session, "missing-plan.json")
    with pytest.raises(GatewayError, match="plan file"):
        gateway.execute_plan(session, "")
    table = f"plan_exec_{str(session).replace('-', '_')}"
    gateway.configure_session(session, f"CREATE TABLE {table} (a INT) USING parquet")
    try:
        name = f"changed-{session}.json"
        gateway.compile_plan(session, f"SELECT a FROM {table}", name)
        gateway.configure_session(session, f"DROP TABLE {table}")
        gateway.configure_session(session, f"CREATE TABLE {table} (a STRING, b INT) USING parquet")
        at = page(gateway, session)
        at.selectbox(key="plan_check_file").set_value(name)
        execute_and_wait(at)
        assert not at.exception
        assert at.session_state["plan_run"].status == "ERROR"
        assert at.error and table in "".join(c.value for c in at.code)
    finally:
        gateway.configure_session(session, f"DROP TABLE IF EXISTS {table}")
