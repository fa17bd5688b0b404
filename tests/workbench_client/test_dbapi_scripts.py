"""The DB-API cursor over real HTTP: nextset() moves to the next statement's result of a script, and
:name parameters are sent as values that Spark binds (issue 31, items 1-2)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

import workbench_client as dbapi
from workbench_client import ProgrammingError
from workbench_client.params import wire_parameters
from rest_support import server, start  # noqa: F401 - fixtures


def test_nextset_walks_every_statements_result(server):
    with dbapi.connect(server.url, page_rows=2) as conn:
        cur = conn.cursor()
        cur.execute("SELECT id FROM range(3);\nCREATE TEMPORARY VIEW dbapi_sets AS SELECT 1 AS x;\n"
                    "SELECT 'last' AS word")
        assert [d[0] for d in cur.description] == ["id"] and cur.fetchall() == [(0,), (1,), (2,)]
        assert cur.nextset() is True and cur.description is None and cur.fetchall() == []
        assert cur.nextset() is True and [d[0] for d in cur.description] == ["word"]
        assert cur.fetchall() == [("last",)]
        assert cur.nextset() is None and cur.fetchall() == []
        cur.execute("SELECT 1 AS one")  # one statement: the operation's own result, no nextset
        assert cur.fetchall() == [(1,)] and cur.nextset() is None


def test_nextset_reaches_a_failing_statements_error(server):
    with dbapi.connect(server.url) as conn:
        cur = conn.cursor()
        cur.execute("SELECT 1 AS ok;\nSELECT missing_col FROM range(1)")
        assert cur.fetchall() == [(1,)]
        with pytest.raises(ProgrammingError) as caught:
            cur.nextset()
        assert caught.value.body.get("line") == 2


def test_named_parameters_are_bound_by_spark(server):
    with dbapi.connect(server.url, properties={"spark.sql.session.timeZone": "UTC"}) as conn:
        cur = conn.cursor()
        cur.execute("SELECT id FROM range(10) WHERE id = :id", {"id": 6})
        assert cur.fetchall() == [(6,)]
        moment = dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
        cur.execute("SELECT :p AS p, :day AS day, :at AS at, :raw AS raw, :xs AS xs",
                    {"p": Decimal("12.50"), "day": dt.date(2024, 2, 29), "at": moment, "raw": b"\x00\xff",
                     "xs": [1, 2]})
        assert cur.fetchall() == [(Decimal("12.50"), dt.date(2024, 2, 29), moment, b"\x00\xff", [1, 2])]
        evil = "'; DROP TABLE t; --"
        assert cur.execute("SELECT :v AS v", {"v": evil}).fetchall() == [(evil,)]
        with pytest.raises(ProgrammingError, match=":gone"):
            cur.execute("SELECT :gone", {})


def test_wire_values_are_typed_where_json_has_no_type():
    assert wire_parameters({"n": float("nan"), "d": dt.date(2024, 1, 1), "s": "x"}) == {
        "n": {"type": "DOUBLE", "value": "nan"}, "d": {"type": "DATE", "value": "2024-01-01"}, "s": "x"}
    with pytest.raises(ProgrammingError, match="mapping"):
        wire_parameters((1,))
