"""Result downloads in Streamlit's AppTest: named after the query and the time of the run, as CSV and
as Parquet, both holding the full result; the Parquet file read back with pyarrow has the rows and types."""
import csv
import io
import re
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from gateway import LOCAL_USER
from ui.downloads import file_name, query_name

APP = str(Path(__file__).resolve().parents[2] / "app.py")
STAMP = r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d"


class RecordingMediaFileManager(MediaFileManager):
    """Streamlit's own media file manager, remembered so the test can ask it for a download's file."""

    last = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        RecordingMediaFileManager.last = self


@pytest.fixture()
def app(gateway, monkeypatch):
    monkeypatch.setattr(app_test_module, "MediaFileManager", RecordingMediaFileManager)
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    yield at
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)


def run_all(at, text):
    at.session_state["sql_editor"] = {"events": [{"id": f"d-{time.monotonic_ns()}", "action": "run_all",
                                                  "text": text, "tab": at.session_state["active_tab"]}]}
    at.run()
    deadline = time.monotonic() + 90
    while at.session_state["current_run"].status == "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.2)
        at.run()
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["current_run"].status == "FINISHED", at.session_state["current_run"].error


def download(at, key):
    """(file name, bytes) of the download button ``key``, as the browser would receive them on a click."""
    button = next(b for b in at.get("download_button") if b.proto.id.endswith(key))
    entry = RecordingMediaFileManager.last._deferred_callables[button.proto.deferred_file_id]
    data = entry["callable"]()
    if hasattr(data, "read"):
        with data:
            data = data.read()
    return entry["filename"], data


def test_downloads_are_named_after_the_tab_and_time_and_parquet_reads_back(gateway, app):
    gateway.rename_tab(LOCAL_USER, app.session_state["active_tab"], "Orders by country")
    before = time.time()
    run_all(app, "SELECT id, id * 1.5 AS amount, date_add(DATE'2026-01-01', CAST(id AS INT)) AS day, "
                 "concat('c', id) AS name FROM range(0, 2500, 1, 3)")
    csv_name, csv_bytes = download(app, "download_csv")
    parquet_name, parquet_bytes = download(app, "download_parquet")
    assert re.fullmatch(rf"orders_by_country-{STAMP}\.csv", csv_name), csv_name
    assert parquet_name == csv_name[:-len("csv")] + "parquet"
    stamp = time.strftime("%Y-%m-%dT%H-%M", time.localtime(before))
    assert csv_name[len("orders_by_country-"):].startswith(stamp[:13])  # the hour of the run
    assert len(list(csv.reader(io.StringIO(csv_bytes.decode())))) == 2501
    table = pq.read_table(io.BytesIO(parquet_bytes))
    assert table.column_names == ["id", "amount", "day", "name"] and table.num_rows == 2500
    assert table.schema.field("id").type == pa.int64() and table.schema.field("day").type == pa.date32()
    assert sorted(table.column("id").to_pylist()) == list(range(2500))
    first = table.sort_by("id").slice(0, 2).to_pylist()
    assert [r["name"] for r in first] == ["c0", "c1"] and str(first[1]["day"]) == "2026-01-02"
    assert float(first[1]["amount"]) == 1.5


def test_without_a_title_the_statement_names_the_file_and_odd_results_still_read_back(app):
    run_all(app, "-- duplicate names\nSELECT 1 AS x, 'two' AS x")
    name, data = download(app, "download_parquet")
    assert re.fullmatch(rf"select_1_as_x_two-{STAMP}\.parquet", name), name
    assert pq.read_table(io.BytesIO(data)).to_pylist() == [{"x": 1, "x_2": "two"}]
    run_all(app, "SHOW MODULES")      # answered by the gateway itself: JSON rows, no Arrow from Spark
    name, data = download(app, "download_parquet")
    assert name.startswith("show_modules-")
    assert "core" in pq.read_table(io.BytesIO(data)).column(0).to_pylist()


def test_a_saved_query_names_the_file_before_the_tab_title(gateway, app):
    tab_id = app.session_state["active_tab"]
    saved = gateway.save_query(LOCAL_USER, "Weekly revenue (EU)", "SELECT 7 AS n")
    app.session_state["tab_saved_query"] = {tab_id: saved.query_id}
    gateway.rename_tab(LOCAL_USER, tab_id, "scratch")
    run_all(app, "SELECT 7 AS n")
    assert download(app, "download_csv")[0].startswith("weekly_revenue_eu-")
    gateway.delete_saved_query(LOCAL_USER, saved.query_id)


@pytest.mark.parametrize("sql, title, saved, expected", [
    ("SELECT * FROM orders", None, None, "select_from_orders"),
    ("  /* c */ select a,\n b from t where x > 1", "Query 3", None, "select_a_b_from_t"),
    ("SELECT 1", "Käufe: März/2026", None, "käufe_märz_2026"),
    ("SELECT 1", "Query 2", "", "select_1"),
    ("", None, None, "result"),
])
def test_query_name(sql, title, saved, expected):
    assert query_name(sql, title, saved) == expected


def test_file_name_has_no_colons():
    assert re.fullmatch(rf"q-{STAMP}\.csv", file_name("q", time.time(), "csv"))
