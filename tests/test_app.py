"""Every page in Streamlit's AppTest, over the test run's Spark (shared root session)."""
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import rerun_until_ended

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def open_app(page=None):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    if page:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def run_sql(at, sql, timeout_s=90):
    """Run ``sql`` the way history re-run and "open in editor" do, then rerun until it has finished."""
    at.session_state["editor_request"] = {"action": "run_all", "text": sql}
    at.run()
    rerun_until_ended(at, timeout_s=timeout_s)
    assert not at.exception, at.exception
    return at


def texts(elements):
    return " ".join(str(e.value) for e in elements)


def test_every_page_renders_with_a_hint_on_what_to_do(gateway):
    at = open_app()
    assert "session" in at.query_params and at.session_state["session_handle"]
    assert "Run all" in texts(at.info) and any(b.label == "Create the sample database" for b in at.button)
    for page, hint in [("pages/catalog.py", "Pick a table"), ("pages/functions.py", "Search on the left"),
                       ("pages/session.py", "No open operations")]:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        assert hint in texts(at.info), page


def test_run_a_query_and_see_its_rows_with_types(gateway):
    at = run_sql(open_app(), "SELECT id, id * 2 AS twice, 'x' AS label FROM range(3)")
    frame = at.dataframe[0].value
    assert list(frame.columns) == ["id", "twice", "label"] and frame["twice"].tolist() == [0, 2, 4]
    assert "FINISHED" in texts(at.markdown) and "3 rows" in texts(at.markdown)
    assert any(b.label.startswith("Download CSV (3 rows)") for b in at.get("download_button"))


def test_grid_pages_the_whole_result_and_csv_holds_all(gateway):
    at = open_app()
    at.session_state["display_limit"] = 1_000
    at = run_sql(at, "SELECT id FROM range(2500)")
    assert len(at.dataframe[0].value) == 1_000
    assert "2,500 rows · rows 1–1,000" in texts(at.caption)
    spool = at.session_state["current_run"].spool
    lines = Path(spool.csv_path).read_text().splitlines()
    assert lines[0] == "id" and len(lines) == 2_501 and lines[-1] == "2499"


def test_error_is_shown_with_its_class_and_marked_in_the_editor(gateway):
    at = run_sql(open_app(), "SELECT 1;\nSELECT * FROM no_such_table_anywhere")
    assert "TABLE_OR_VIEW_NOT_FOUND" in at.error[0].value
    at = run_sql(at, "SELECT 1\nFROM range(2) WHERE )")
    assert "PARSE_SYNTAX_ERROR" in at.error[0].value and "line 2" in at.error[0].value
    from ui.editor_panel import markers_for
    run = at.session_state["current_run"]
    marker = markers_for(run, run.editor_text)[0]
    assert (marker["row"], marker["column"]) == (1, 20) and "PARSE_SYNTAX_ERROR" in marker["text"]
    assert markers_for(run, run.editor_text + " ") == []  # an edit clears the mark
    # The session stays usable after errors.
    at = run_sql(at, "SELECT 42 AS answer")
    assert at.dataframe[0].value["answer"].tolist() == [42]


def test_history_reruns_a_statement(gateway):
    at = run_sql(open_app(), "SELECT 7 AS seven")
    at = run_sql(at, "SELECT 8 AS eight")
    history = at.session_state["history"]
    assert [h.sql for h in history] == ["SELECT 7 AS seven", "SELECT 8 AS eight"]
    assert history[0].status == "FINISHED" and history[0].rows == 1
    # The History tab lists the store's history (kept across reloads and restarts), newest first.
    from conftest import wait_for
    from gateway import LOCAL_USER
    stored = wait_for(lambda: [e for e in gateway.list_history(LOCAL_USER, search="SELECT 7 AS seven", limit=5)
                               if e.status == "FINISHED"], 20)
    assert stored and stored[0].rows == 1
    at.run()
    at.button(key=f"history_rerun_{stored[0].entry_id}").click().run()
    rerun_until_ended(at, timeout_s=60)
    assert at.dataframe[0].value.columns.tolist() == ["seven"]
    assert [h.sql for h in at.session_state["history"]][-1] == "SELECT 7 AS seven"


def editor_event(at, **event):
    """What the editor component sends: an event with a fresh id."""
    at.session_state["sql_editor"] = {"events": [{"id": f"test-{time.monotonic_ns()}", **event}]}
    at.run()
    assert not at.exception, at.exception
    return at


def test_format_keeps_comments_and_run_statement_takes_the_one_at_the_cursor(gateway):
    at = editor_event(open_app(), action="format", text="select 6 * 7 as answer -- the answer\n;\nselect 1")
    formatted = at.session_state["editor_text"]
    assert formatted == "SELECT\n  6 * 7 AS answer; -- the answer\n\nSELECT\n  1;"
    editor_event(at, action="format", text="SELECT (((")
    assert "line 1 cannot be formatted" in texts(at.toast)
    assert at.session_state["editor_text"] == "SELECT ((("        # left as typed
    editor_event(at, action="run_statement", text=formatted, cursor=3)
    rerun_until_ended(at, timeout_s=90)
    assert at.session_state["history"][-1].sql == "SELECT\n  6 * 7 AS answer"
    assert at.dataframe[0].value["answer"].tolist() == [42]


def test_created_table_appears_in_the_catalog_tree_with_detail(gateway):
    at = run_sql(open_app(), "CREATE DATABASE IF NOT EXISTS ui_tree; USE ui_tree; "
                             "CREATE TABLE IF NOT EXISTS ui_orders (id BIGINT COMMENT 'the id', day STRING) "
                             "USING parquet PARTITIONED BY (day); "
                             "CREATE OR REPLACE TEMPORARY VIEW ui_recent AS SELECT 1 AS id")
    assert not at.error
    at.switch_page("pages/catalog.py").run()
    assert not at.exception, at.exception
    listing = at.dataframe[0].value
    assert {"ui_orders", "ui_recent"} <= set(listing["name"])
    assert listing.set_index("name").loc["ui_recent", "kind"].endswith("temporary view")
    at.text_input(key="catalog_search").input("recent").run()
    assert at.dataframe[0].value["name"].tolist() == ["ui_recent"]
    at.session_state["selected_table"] = "spark_catalog.ui_tree.ui_orders"
    at.text_input(key="catalog_search").input("").run()
    assert not at.exception, at.exception
    columns = at.dataframe[1].value
    assert columns["column"].tolist() == ["id", "day"] and columns["comment"].tolist()[0] == "the id"
    assert "CREATE TABLE" in texts(at.code) and "Partitioned by `day`" in texts(at.markdown)
    assert "No statistics yet" in texts(at.info)
    at.button(key="analyze").click().run()
    assert not at.exception and not at.error, at.error
    assert "0 rows" in texts(at.markdown) and "No statistics yet" not in texts(at.info)
    at.button(key="open_select").click().run()
    assert at.session_state["editor_text"] == "SELECT * FROM `spark_catalog`.`ui_tree`.`ui_orders` LIMIT 100"


def test_function_search_finds_upper_with_usage_and_examples(gateway):
    at = open_app("pages/functions.py")
    at.text_input(key="function_search").input("upper").run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value["function"].tolist()[0] == "upper"
    assert "upper(str)" in texts(at.code) and "SELECT upper('SparkSql')" in texts(at.code)


def shown_setting(at, key):
    at.text_input(key="config_filter").input(key).run()
    frame = at.dataframe[0].value
    values = frame.loc[frame["setting"] == key, "value"].tolist()
    return values[0] if values else None


def test_session_page_sets_and_resets_a_setting(gateway):
    at = open_app("pages/session.py")
    default = shown_setting(at, "spark.sql.shuffle.partitions")
    at.text_input(key="set_key").input("spark.sql.shuffle.partitions")
    at.text_input(key="set_value").input("7")
    at.button[0].click().run()
    assert "applied" in texts(at.success)
    frame = at.dataframe[0].value                    # the page shows its own change at once, no extra run
    assert frame.loc[frame["setting"] == "spark.sql.shuffle.partitions", "value"].tolist() == ["7"]
    assert shown_setting(at, "spark.sql.shuffle.partitions") == "7"
    at.text_input(key="set_key").input("bad key; DROP TABLE x")
    at.button[0].click().run()
    assert "is not a setting name" in texts(at.error)
    at.text_input(key="reset_key").input("spark.sql.shuffle.partitions")
    at.button[1].click().run()
    assert shown_setting(at, "spark.sql.shuffle.partitions") == default != "7"


def test_reload_reattaches_and_an_expired_session_is_replaced_with_a_notice(gateway):
    at = open_app()
    first = at.session_state["session_handle"]
    again = AppTest.from_file(APP, default_timeout=180)
    again.query_params["session"] = first          # a reload: the handle comes from the URL
    again.run()
    assert again.session_state["session_handle"] == first and not again.warning
    expired = AppTest.from_file(APP, default_timeout=180)
    expired.query_params["session"] = "6f1c2d3e-0000-4000-8000-000000000000"  # closed, or expired while away
    expired.run()
    assert not expired.exception, expired.exception
    assert expired.session_state["session_handle"] not in (first, "6f1c2d3e-0000-4000-8000-000000000000")
    assert expired.query_params["session"] == expired.session_state["session_handle"]
    assert "expired" in texts(expired.warning)


def test_gateway_does_not_import_streamlit():
    root = ROOT / "gateway"
    offenders = [p.name for p in root.rglob("*.py") if "import streamlit" in p.read_text()
                 or "from streamlit" in p.read_text()]
    assert offenders == []


def test_pages_call_only_the_gateway_service():
    for page in (ROOT / "pages").glob("*.py"):
        text = page.read_text()
        assert "pyspark" not in text and ".spark." not in text and "spark.sql(" not in text, page.name


def test_catalog_page_follows_the_sessions_database(gateway):
    at = open_app("pages/catalog.py")
    assert at.selectbox(key="catalog_database").value == "default"
    at.switch_page("pages/editor.py").run()
    at = run_sql(at, "CREATE DATABASE IF NOT EXISTS ui_follow; USE ui_follow")   # as the sample button would
    at.switch_page("pages/catalog.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="catalog_database").value == "ui_follow"
    assert "Database `ui_follow` has no tables" in texts(at.info)
