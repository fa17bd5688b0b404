"""Every statement's result of a script over REST (…/statements/{i}/result/{token}), and ``parameters``
on the statement body bound by Spark (issue 31, items 1-2), on a real server on 127.0.0.1."""
import time

from rest_support import Http, http, server  # noqa: F401 - fixtures


def statement_rows(http, session, operation, index, timeout_s=60.0):
    """Follow nextResultUri of statement ``index`` from token 0 to its end; (status, rows, last body)."""
    uri = f"/v2/sessions/{session}/operations/{operation}/statements/{index}/result/0"
    rows, deadline = [], time.monotonic() + timeout_s
    while uri is not None and time.monotonic() < deadline:
        answer = http("GET", uri)
        if answer.status != 200:
            return answer.status, rows, answer.body
        rows.extend(r["fields"] for r in answer.body["results"]["data"])
        uri = answer.body["nextResultUri"]
        if uri is not None:
            assert f"/statements/{index}/result/" in uri
    return 200, rows, None


def test_three_statements_give_three_results_over_rest(http):
    session = http.open_session()
    operation = http.execute(session, "SELECT 1 AS a;\nSELECT 'x' AS b;\nSELECT id FROM range(3)")
    assert statement_rows(http, session, operation, 0)[:2] == (200, [[1]])
    assert statement_rows(http, session, operation, 1)[:2] == (200, [["x"]])
    assert statement_rows(http, session, operation, 2)[:2] == (200, [[0], [1], [2]])
    _, rows, _ = http.fetch_all(session, operation)  # Flink's route: the last statement's, unchanged
    assert rows == [[0], [1], [2]]
    info = http("GET", f"/v2/sessions/{session}/operations/{operation}").body
    assert [(s["index"], s["status"], s["rows"], s["line"]) for s in info["statements"]] == [
        (0, "FINISHED", 1, 1), (1, "FINISHED", 1, 2), (2, "FINISHED", 3, 3)]
    schema = http("GET", f"/v2/sessions/{session}/operations/{operation}/result-schema?statement=1").body
    assert [c["name"] for c in schema["columns"]] == ["b"]
    status, _, body = statement_rows(http, session, operation, 3)
    assert status == 400 and body["error_class"] == "NO_SUCH_STATEMENT" and "0 to 2" in body["root_cause"]


def test_a_failing_middle_statement_over_rest(http):
    session = http.open_session()
    operation = http.execute(session, "SELECT 1 AS a;\nSELECT nope FROM range(1);\nSELECT 3")
    assert http.wait_status(session, operation) == "ERROR"
    assert statement_rows(http, session, operation, 0)[:2] == (200, [[1]])
    status, _, body = statement_rows(http, session, operation, 1)
    assert status == 400 and body["line"] == 2 and "nope" in body["root_cause"]
    status, _, body = statement_rows(http, session, operation, 2)
    assert status == 400 and body["error_class"] == "STATEMENT_NOT_RUN"


def test_parameters_are_bound_and_validated_over_rest(http):
    session = http.open_session()
    operation = http.execute(session, "SELECT id, :d AS d, ':id' AS kept FROM range(10) WHERE id = :id",
                             parameters={"id": 4, "d": {"type": "DATE", "value": "2024-01-31"}})
    _, rows, _ = http.fetch_all(session, operation)
    assert rows == [[4, "2024-01-31", ":id"]]
    evil = "'; DROP TABLE t; --"
    _, rows, _ = http.fetch_all(session, http.execute(session, "SELECT :v AS v", parameters={"v": evil}))
    assert rows == [[evil]]
    missing = http("POST", f"/v1/sessions/{session}/statements", {"statement": "SELECT :id"})
    assert missing.status == 400 and missing.body["error_class"] == "UNBOUND_SQL_PARAMETER"
    assert ":id" in missing.body["root_cause"] and missing.body["parameters"] == ["id"]
    bad = http("POST", f"/v1/sessions/{session}/statements",
               {"statement": "SELECT :d", "parameters": {"d": {"type": "DATE", "value": "tomorrow"}}})
    assert bad.status == 400 and "not a DATE value" in bad.body["root_cause"]
    wrong = http("POST", f"/v1/sessions/{session}/statements", {"statement": "SELECT 1", "parameters": [1]})
    assert wrong.status == 400
