"""The result spool on real Spark: sort, filter, search and chart act on the whole result, exports hold
Spark's rows, another user cannot read a spool, and the bounds say what they cut."""
import csv
import io
import json
import os

import pyarrow.parquet as pq
import pytest

from gateway import InvalidRequestError, OperationNotFoundError, OperationStateError, Principal, SessionNotFoundError
from gateway.api.results import ChartSpec, RowFilter, SortKey
from tests.conftest import run_all

HUNDRED_K = ("SELECT id, CAST(id % 7 AS INT) AS bucket, concat('name-', CAST(id AS STRING)) AS name, "
             "date_add(DATE'2024-01-01', CAST(id % 365 AS INT)) AS day FROM range(100000)")


def spooled(gateway, session, sql, wait_s=120):
    op = gateway.execute_statement(session, sql)
    gateway.spool_result(session, op)
    info = gateway.get_result_spool(session, op, wait_s=wait_s)
    assert info.done and info.error is None, info
    return op


@pytest.fixture
def hundred_k(gateway, session):
    op = spooled(gateway, session, HUNDRED_K)
    yield op
    gateway.close_operation(session, op)


def test_sort_descending_over_the_whole_result_starts_at_99999(gateway, session, hundred_k):
    page = gateway.result_page(session, hundred_k, 0, 5, sort=[SortKey("id", descending=True)])
    assert [row[0] for row in page.rows] == [99999, 99998, 99997, 99996, 99995]
    assert page.total == page.spooled == 100_000 and page.complete
    # Several keys, as dicts (REST sends them so): bucket ascending, then id descending.
    page = gateway.result_page(session, hundred_k, 0, 3, sort=[{"column": "bucket"}, {"column": "id", "descending": True}])
    assert [(row[1], row[0]) for row in page.rows] == [(0, 99995), (0, 99988), (0, 99981)]
    # Offset pages through the sorted whole.
    page = gateway.result_page(session, hundred_k, 1000, 2, sort=[SortKey("id", True)])
    assert [row[0] for row in page.rows] == [98999, 98998]


def test_filter_and_search_over_the_whole_result(gateway, session, hundred_k):
    page = gateway.result_page(session, hundred_k, 0, 100, filters=[RowFilter("id", ">=", "99990")])
    assert page.total == 10 and sorted(r[0] for r in page.rows) == list(range(99990, 100000))
    page = gateway.result_page(session, hundred_k, 0, 5, filters=[{"column": "bucket", "op": "=", "value": 3},
                                                                   {"column": "day", "op": "<", "value": "2024-01-05"}])
    assert page.total == sum(1 for i in range(100000) if i % 7 == 3 and i % 365 < 4)
    # Search: a substring of any column, ignoring case, over every row (not the first page's).
    page = gateway.result_page(session, hundred_k, 0, 10, search="NAME-9999", sort=[SortKey("id")])
    assert page.total == 11 and [r[0] for r in page.rows][:2] == [9999, 99990]
    page = gateway.result_page(session, hundred_k, 0, 10, search="2024-12-30")  # a date column's text
    assert page.total == sum(1 for i in range(100000) if i % 365 == 364)


def test_bad_sort_filter_and_page_requests_say_what_is_wrong(gateway, session, hundred_k):
    with pytest.raises(InvalidRequestError, match="no result column 'nope'.*id, bucket, name, day"):
        gateway.result_page(session, hundred_k, sort=[SortKey("nope")])
    with pytest.raises(InvalidRequestError, match="'abc' is not a value of its type int64; give a number"):
        gateway.result_page(session, hundred_k, filters=[RowFilter("id", ">", "abc")])
    with pytest.raises(InvalidRequestError, match="unknown operator 'LIKE'"):
        gateway.result_page(session, hundred_k, filters=[RowFilter("name", "LIKE", "x%")])
    with pytest.raises(InvalidRequestError, match="limit must be a whole number from 0 to 100,000"):
        gateway.result_page(session, hundred_k, limit=10**9)
    with pytest.raises(InvalidRequestError, match="sort: each item has the fields column, descending"):
        gateway.result_page(session, hundred_k, sort=[{"col": "id"}])


def test_exports_hold_sparks_rows(gateway, session):
    sql = ("SELECT id, CAST(id * 1.5 AS DOUBLE) AS x, CAST(id AS DECIMAL(10,2)) AS d, "
           "IF(id % 2 = 0, NULL, concat('s,\"', id)) AS s, date_add(DATE'2024-02-28', CAST(id AS INT)) AS day, "
           "array(id, id + 1) AS arr, named_struct('a', id) AS st FROM range(5)")
    _, spark_rows, _ = run_all(gateway, session, sql)
    op = spooled(gateway, session, sql)
    try:
        text = b"".join(gateway.export_result(session, op, "csv")).decode()
        read = list(csv.reader(io.StringIO(text)))
        assert read[0] == ["id", "x", "d", "s", "day", "arr", "st"]
        expected = [[json.dumps(v) if isinstance(v, (list, dict)) else ("" if v is None else str(v)) for v in row]
                    for row in spark_rows]
        assert read[1:] == expected
        lines = b"".join(gateway.export_result(session, op, "jsonl")).decode().splitlines()
        assert [list(json.loads(line).values()) for line in lines] == spark_rows
        data = b"".join(gateway.export_result(session, op, "parquet"))
        table = pq.read_table(io.BytesIO(data))
        assert table.column_names == ["id", "x", "d", "s", "day", "arr", "st"]
        assert table.column("id").to_pylist() == [0, 1, 2, 3, 4]
        assert str(table.schema.field("d").type) == "decimal128(10, 2)" and str(table.schema.field("day").type) == "date32[day]"
        with pytest.raises(InvalidRequestError, match="format must be one of csv, parquet, jsonl"):
            gateway.export_result(session, op, "xlsx")
    finally:
        gateway.close_operation(session, op)


def test_export_starts_the_spool_itself(gateway, session):
    op = gateway.execute_statement(session, "SELECT id FROM range(3)")
    try:
        assert b"".join(gateway.export_result(session, op, "csv")).decode().split() == ["id", "0", "1", "2"]
    finally:
        gateway.close_operation(session, op)


def test_another_user_cannot_read_the_spool(gateway, session, hundred_k):
    stranger = gateway.as_user(Principal("spool-stranger"))
    for call in (lambda: stranger.result_page(session, hundred_k),
                 lambda: stranger.get_result_spool(session, hundred_k),
                 lambda: stranger.spool_result(session, hundred_k),
                 lambda: list(stranger.export_result(session, hundred_k, "csv")),
                 lambda: stranger.result_chart(session, hundred_k, ChartSpec("bucket"))):
        with pytest.raises(SessionNotFoundError):
            call()


def test_close_removes_the_spool_and_its_files(gateway, session):
    op = spooled(gateway, session, "SELECT id FROM range(10)")
    spool = gateway._spools[op]
    assert os.listdir(spool.directory)
    gateway.close_operation(session, op)
    assert spool.done.is_set()
    with pytest.raises(OperationNotFoundError):
        gateway.result_page(session, op)
    spool.remove()  # the close removes it in a thread; this waits for the same end
    assert not os.path.exists(spool.directory)


def test_session_close_removes_its_spools(gateway):
    handle = gateway.open_session(name="spool-close")
    op = spooled(gateway, handle, "SELECT id FROM range(10)")
    spool = gateway._spools[op]
    gateway.close_session(handle)
    assert op not in gateway._spools
    spool.remove()
    assert not os.path.exists(spool.directory)


def test_a_result_larger_than_the_bound_is_spooled_to_it_and_says_so(gateway, session, monkeypatch):
    monkeypatch.setitem(gateway.config.values, "result.spool_max_rows", 2500)
    op = gateway.execute_statement(session, "SELECT id FROM range(0, 1000000, 1, 4)")
    try:
        gateway.spool_result(session, op)
        info = gateway.get_result_spool(session, op, wait_s=120)
        assert info.done and info.capped and info.rows == 2500
        assert "larger than result.spool_max_rows (2,500 rows)" in info.note and "Raise result.spool_max_rows" in info.note
        assert gateway.result_page(session, op, 0, 1, sort=[SortKey("id", True)]).total == 2500
    finally:
        gateway.close_operation(session, op)


def test_a_call_before_spool_result_says_to_start_it(gateway, session):
    op = gateway.execute_statement(session, "SELECT 1 AS one")
    try:
        with pytest.raises(OperationStateError, match="no result spool: call spool_result first"):
            gateway.result_page(session, op)
    finally:
        gateway.close_operation(session, op)


def test_chart_aggregates_the_whole_result_and_caps_the_points(gateway, session, hundred_k):
    chart = gateway.result_chart(session, hundred_k, ChartSpec("bucket", "id", "count"))
    assert chart.columns == ["bucket", "count of id"] and sum(r[1] for r in chart.rows) == 100_000
    chart = gateway.result_chart(session, hundred_k, ChartSpec("name", None, "count"), top=20)
    assert len(chart.rows) == 20 and chart.groups == 100_000 and "top 20 of 100,000 name values" in chart.note
    chart = gateway.result_chart(session, hundred_k, ChartSpec("day", "id", "sum", bucket="month"))
    assert len(chart.rows) == 12 and chart.rows[0][0] == "2024-01-01"
    assert sum(r[1] for r in chart.rows) == sum(range(100_000))
    chart = gateway.result_chart(session, hundred_k, ChartSpec("id", "bucket", "avg"), max_points=100)
    assert len(chart.rows) <= 101 and "bins" in chart.note
    with pytest.raises(InvalidRequestError, match="sum needs a number column on y; name holds"):
        gateway.result_chart(session, hundred_k, ChartSpec("bucket", "name", "sum"))


def test_suggested_chart_is_what_a_person_would_pick(gateway, session):
    op = spooled(gateway, session, "SELECT date_add(DATE'2024-01-01', CAST(id % 90 AS INT)) AS day, "
                                   "concat('label-', CAST(id AS STRING)) AS label, CAST(id % 3 AS STRING) AS region, "
                                   "CAST(id AS DOUBLE) AS amount FROM range(5000)")
    try:
        spec = gateway.suggest_chart(session, op)
        assert (spec.x, spec.y, spec.aggregate, spec.mark) == ("day", "amount", "sum", "line")
        assert spec.color == "region"  # 3 values; label (5,000 values) never gets a colour
    finally:
        gateway.close_operation(session, op)
