"""The catalog to the editor (issue 31, item 5): a click on a table's name picks it (not only its row's
checkbox), and "Open … in the editor" over a draft opens a new tab that the tab strip then shows."""
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_all
from gateway import LOCAL_USER

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _catalog_with_tables(at):
    app_gateway, handle = at.session_state["gateway"], at.session_state["session_handle"]
    for sql in ("CREATE DATABASE IF NOT EXISTS polish_catalog_db", "USE polish_catalog_db",
                "CREATE TABLE IF NOT EXISTS polish_a (id BIGINT) USING parquet",
                "CREATE TABLE IF NOT EXISTS polish_b (id BIGINT) USING parquet"):
        *_, page = run_all(app_gateway, handle, sql)
        assert page.exception is None, page.exception
    at.switch_page("pages/catalog.py").run()
    assert not at.exception, at.exception
    names = at.dataframe[0].value["name"].tolist()
    assert names == ["polish_a", "polish_b"], names
    return names


def test_a_click_on_a_table_name_picks_the_table(fresh_tabs):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    _catalog_with_tables(at)
    # What the grid sends for a click on the second name: a cell, not a row.
    at.session_state["catalog_list"] = {"selection": {"rows": [], "columns": [], "cells": [[1, "name"]]}}
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["selected_table"] == "spark_catalog.polish_catalog_db.polish_b"
    assert any(header.value == "polish_b" for header in at.subheader)


def test_open_in_the_editor_over_a_draft_shows_the_new_tab_in_the_strip(fresh_tabs):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    draft_tab = at.session_state["active_tab"]
    at.session_state["sql_editor"] = {"events": [{"id": f"t-{time.monotonic_ns()}", "action": "change",
                                                  "text": "SELECT 'my draft'", "tab": draft_tab}]}
    at.run()
    _catalog_with_tables(at)
    at.session_state["selected_table"] = "spark_catalog.polish_catalog_db.polish_a"
    at.run()
    at.button(key="open_select").click().run()
    assert not at.exception, at.exception
    tabs = fresh_tabs.list_tabs(LOCAL_USER)
    assert [t.text for t in tabs] == ["SELECT 'my draft'",
                                      "SELECT * FROM `spark_catalog`.`polish_catalog_db`.`polish_a` LIMIT 100"]
    assert at.session_state["active_tab"] == tabs[1].tab_id
    assert at.session_state["tab_strip"] == tabs[1].tab_id, "the tab strip still shows the tab of the draft"
