"""The query profile over real HTTP on 127.0.0.1: GET …/operations/{o}/profile, kept after close."""
from __future__ import annotations

from rest_support import http, rest_session, server  # noqa: F401 - fixtures

QUERY = ("SELECT k, count(*) AS n FROM (SELECT id % 3 AS k FROM range(0, 3000, 1, 3)) GROUP BY k")


def test_the_profile_over_rest_survives_close(session, http, rest_session):
    # ``session`` first: the first session of a run (the metastore's start) is opened in process, not
    # under the HTTP client's 60 s timeout (it took longer at load 30)
    op = http.execute(rest_session, QUERY)
    _, rows, _ = http.fetch_all(rest_session, op)
    assert sorted(r[1] for r in rows) == [1000, 1000, 1000]
    assert http("DELETE", f"/v2/sessions/{rest_session}/operations/{op}/close").status == 200
    answer = http("GET", f"/v2/sessions/{rest_session}/operations/{op}/profile?timeout=60")
    assert answer.status == 200, answer.body
    profile = answer.body
    assert profile["ready"] and profile["available"] and profile["operation"] == op
    ranges = [o for e in profile["executions"] for o in e["operators"] if o["name"] == "Range"]
    assert [o["rows"] for o in ranges] == [3000]
    assert profile["spark_ui_url"].endswith(f"/SQL/execution/?id={profile['executions'][-1]['id']}")
    assert profile["stages"] and profile["slowest"]


def test_an_unknown_operation_has_no_profile(http, rest_session):
    missing = "00000000-0000-4000-8000-000000000000"
    answer = http("GET", f"/v2/sessions/{rest_session}/operations/{missing}/profile?timeout=0")
    assert answer.status == 404 and "no profile" in answer.body["root_cause"]
    too_long = http("GET", f"/v2/sessions/{rest_session}/operations/{missing}/profile?timeout=61")
    assert too_long.status == 400 and "less than or equal to 60" in too_long.body["root_cause"]
