"""The minimal app in Streamlit's AppTest, over the test run's Spark (shared root session)."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def test_sql_box_runs_a_query_and_shows_rows(gateway):
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception
    at.text_area(key="sql_text").set_value("SELECT id, id * 2 AS twice FROM range(3)")
    at.button(key="run").click()
    at.run()
    assert not at.exception
    frame = at.dataframe[0].value
    assert list(frame.columns) == ["id", "twice"] and frame["twice"].tolist() == [0, 2, 4]
    assert "session" in at.query_params


def test_error_is_shown_with_its_class(gateway):
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.text_area(key="sql_text").set_value("SELECT * FROM no_such_table_anywhere")
    at.button(key="run").click()
    at.run()
    assert not at.exception
    assert "TABLE_OR_VIEW_NOT_FOUND" in at.error[0].value


def test_gateway_does_not_import_streamlit():
    root = Path(APP).parent / "gateway"
    offenders = [p.name for p in root.rglob("*.py") if "import streamlit" in p.read_text()
                 or "from streamlit" in p.read_text()]
    assert offenders == []
