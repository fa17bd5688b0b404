"""Whole results over real HTTP on 127.0.0.1: spool, a sorted/filtered/searched page, a chart, and the
export streamed as a file (CSV, Parquet, JSON lines)."""
from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq

from rest_support import http, rest_session, server  # noqa: F401 - fixtures

SQL = "SELECT id, CAST(id % 5 AS INT) AS g, concat('n', CAST(id AS STRING)) AS name FROM range(20000)"


def spooled(http, session) -> str:
    operation = http.execute(session, SQL)
    base = f"/v2/sessions/{session}/operations/{operation}"
    assert http("POST", base + "/spool").status == 200
    answer = http("GET", base + "/spool?waitS=60")
    assert answer.status == 200 and answer.body["done"] and answer.body["rows"] == 20000, answer.body
    return base


def test_page_sorted_filtered_and_searched_over_the_whole_result(http, rest_session):
    base = spooled(http, rest_session)
    answer = http("POST", base + "/page", {"limit": 3, "sort": [{"column": "id", "descending": True}]})
    assert answer.status == 200 and [r[0] for r in answer.body["rows"]] == [19999, 19998, 19997]
    assert answer.body["total"] == 20000 and answer.body["complete"]
    assert [c["name"] for c in answer.body["columns"]] == ["id", "g", "name"]
    answer = http("POST", base + "/page", {"filters": [{"column": "g", "op": "=", "value": 4},
                                                        {"column": "id", "op": ">", "value": "19990"}]})
    assert [r[0] for r in answer.body["rows"]] == [19994, 19999] and answer.body["total"] == 2
    answer = http("POST", base + "/page", {"search": "N1999", "limit": 0})
    assert answer.body["total"] == 11 and answer.body["rows"] == []
    bad = http("POST", base + "/page", {"filters": [{"column": "id", "op": ">", "value": "many"}]})
    assert bad.status == 400 and "'many' is not a value of its type int64; give a number" in bad.body["root_cause"]
    assert http("POST", base + "/page", {"sort": [{"column": "zzz"}]}).status == 400


def test_chart_and_its_suggestion(http, rest_session):
    base = spooled(http, rest_session)
    answer = http("POST", base + "/chart", {"spec": {"x": "g", "y": "id", "aggregate": "count"}})
    assert answer.status == 200 and answer.body["columns"] == ["g", "count of id"]
    assert sorted(answer.body["rows"]) == [[g, 4000] for g in range(5)]
    answer = http("POST", base + "/chart", {"spec": {"x": "name"}, "top": 7})
    assert len(answer.body["rows"]) == 7 and "top 7 of 20,000" in answer.body["note"]
    suggestion = http("GET", base + "/chart/suggestion")
    assert suggestion.status == 200 and suggestion.body["x"] == "g" and suggestion.body["y"] == "id"


def test_export_streams_each_format(http, rest_session):
    operation = http.execute(rest_session, SQL)  # no spool yet: the export starts it
    base = f"/v2/sessions/{rest_session}/operations/{operation}"
    answer = http("GET", base + "/export?format=csv")
    assert answer.status == 200 and answer.headers["content-type"].startswith("text/csv")
    assert 'attachment; filename="result-' in answer.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(answer.raw.decode())))
    assert rows[0] == ["id", "g", "name"] and len(rows) == 20001 and rows[-1] == ["19999", "4", "n19999"]
    answer = http("GET", base + "/export?format=parquet")
    table = pq.read_table(io.BytesIO(answer.raw))
    assert table.num_rows == 20000 and table.column("id").to_pylist()[:2] == [0, 1]
    answer = http("GET", base + "/export?format=jsonl")
    lines = answer.raw.decode().splitlines()
    assert len(lines) == 20000 and json.loads(lines[3]) == {"id": 3, "g": 3, "name": "n3"}
    bad = http("GET", base + "/export?format=xls")
    assert bad.status == 400 and "csv, parquet, jsonl" in bad.body["root_cause"]


def test_no_spool_unknown_operation_and_closed_operation(http, rest_session):
    operation = http.execute(rest_session, "SELECT 1 AS one")
    base = f"/v2/sessions/{rest_session}/operations/{operation}"
    answer = http("POST", base + "/page", {})
    assert answer.status == 409 and "call spool_result first" in answer.body["root_cause"]
    assert http("DELETE", f"/v1/sessions/{rest_session}/operations/{operation}/close").status == 200
    assert http("POST", base + "/page", {}).status == 404
    assert http("GET", base + "/export").status == 404
