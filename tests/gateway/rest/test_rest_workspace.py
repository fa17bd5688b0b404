"""The workspace over real HTTP (uvicorn on 127.0.0.1): tabs, saved queries and history under
/v2/users/{user}, with the error shapes of the rest of the API (404 unknown id, 400 bad value)."""
from __future__ import annotations

import datetime as dt
import uuid

from conftest import wait_for
from rest_support import Http, http, server  # noqa: F401 - fixtures


def _user() -> str:
    return f"rest-{uuid.uuid4().hex[:8]}"  # a user of its own: the run's store is shared


def _error(answer, status: int, error_class: str, text: str) -> None:
    assert answer.status == status, answer.body
    assert answer.body["error_class"] == error_class and text in answer.body["errors"][0], answer.body


def test_tabs_over_rest(http: Http):
    user = _user()
    base = f"/v2/users/{user}/tabs"
    first = http("POST", base, {})
    assert first.status == 200, first.body
    assert set(first.body) == {"tabId", "title", "text", "position", "updatedAt", "parameterValues"}
    assert first.body["parameterValues"] is None
    assert (first.body["title"], first.body["position"]) == ("Query 1", 0)
    assert dt.datetime.fromisoformat(first.body["updatedAt"]).utcoffset() == dt.timedelta(0)
    second = http("POST", base, {"title": "Revenue", "text": "SELECT 1"}).body
    tab = f"{base}/{first.body['tabId']}"
    assert http("PUT", f"{tab}/text", {"text": "SELECT 2 -- draft"}).body["text"] == "SELECT 2 -- draft"
    assert http("PUT", f"{tab}/title", {"title": "Draft"}).body["title"] == "Draft"
    kept = http("PUT", f"{tab}/parameters", {"values": {"country": "DE", "n": 3, "days": ["2024-01-01", "2024-01-31"]}})
    assert kept.status == 200 and kept.body["parameterValues"] == {"country": "DE", "n": 3,
                                                                 "days": ["2024-01-01", "2024-01-31"]}
    assert http("GET", base).body["tabs"][0]["parameterValues"]["country"] == "DE"
    _error(http("PUT", f"{tab}/parameters", {"values": {"": 1}}), 400, "InvalidRequestError", "marker names")
    moved = http("PUT", f"{tab}/position", {"position": 1})
    assert [(t["title"], t["position"]) for t in moved.body["tabs"]] == [("Revenue", 0), ("Draft", 1)]
    listed = http("GET", base).body["tabs"]
    assert [(t["tabId"], t["text"]) for t in listed] == [(second["tabId"], "SELECT 1"),
                                                         (first.body["tabId"], "SELECT 2 -- draft")]
    assert http("DELETE", tab).status == 200
    assert [t["title"] for t in http("GET", base).body["tabs"]] == ["Revenue"]

    _error(http("PUT", f"{tab}/text", {"text": "x"}), 404, "ObjectNotFoundError", "does not exist for user")
    _error(http("DELETE", tab), 404, "ObjectNotFoundError", "list_tabs shows the open ones")
    _error(http("PUT", f"{base}/{second['tabId']}/title", {"title": " "}), 400, "InvalidRequestError",
           "tab title is empty")
    _error(http("PUT", f"{base}/{second['tabId']}/position", {"position": 5}), 400, "InvalidRequestError",
           "give 0 to 0")
    bad_body = http("PUT", f"{base}/{second['tabId']}/position", {"position": "first"})
    assert bad_body.status == 400 and "position" in bad_body.body["errors"][0]
    assert [t["title"] for t in http("GET", base).body["tabs"]] == ["Revenue"]  # nothing changed


def test_saved_queries_over_rest(http: Http):
    user = _user()
    base = f"/v2/users/{user}/queries"
    created = http("POST", base, {"name": "Revenue", "text": "SELECT sum(amount) FROM orders",
                                  "description": "Monthly"})
    assert created.status == 200, created.body
    query = f"{base}/{created.body['queryId']}"
    http("POST", base, {"name": "Users", "text": "SELECT count(*) FROM users"})
    assert [q["name"] for q in http("GET", base).body["queries"]] == ["Revenue", "Users"]
    assert [q["name"] for q in http("GET", f"{base}?search=MONTH").body["queries"]] == ["Revenue"]
    updated = http("PUT", query, {"name": "Revenue 2", "text": "SELECT 2", "description": ""}).body
    assert (updated["queryId"], updated["name"], updated["createdAt"]) == \
        (created.body["queryId"], "Revenue 2", created.body["createdAt"])
    assert http("GET", query).body == updated
    assert http("DELETE", query).status == 200
    _error(http("GET", query), 404, "ObjectNotFoundError", "saved query")
    _error(http("PUT", query, {"name": "x", "text": "y"}), 404, "ObjectNotFoundError", "saved query")
    _error(http("POST", base, {"name": "", "text": "SELECT 1"}), 400, "InvalidRequestError", "query name is empty")
    _error(http("POST", base, {"name": "n" * 201, "text": "SELECT 1"}), 400, "InvalidRequestError",
           "more than the 200 allowed")


def test_history_over_rest_pages_with_next_before_id(http: Http, gateway):
    session = http.open_session(sessionName="rest-history")
    try:
        for n in range(3):
            operation = http.execute(session, f"SELECT {n} AS rest_history_marker")
            http.fetch_all(session, operation)
        base = "/v2/users/local/history?search=rest_history_MARKER"

        def recorded():  # the row count lands once each statement's worker is through
            gateway.store.recorder.flush(30)
            page = http("GET", f"{base}&limit=2").body
            return page if all(e["rows"] is not None for e in page["entries"]) else None
        first = wait_for(recorded, 30)
        assert [e["statement"] for e in first["entries"]] == ["SELECT 2 AS rest_history_marker",
                                                              "SELECT 1 AS rest_history_marker"]
        entry = first["entries"][0]
        assert (entry["status"], entry["rows"], entry["sessionHandle"], entry["user"], entry["kinds"]) == \
            ("FINISHED", 1, session, "local", ["QUERY"])
        rest = http("GET", f"{base}&limit=2&beforeId={first['nextBeforeId']}").body
        assert [e["statement"] for e in rest["entries"]] == ["SELECT 0 AS rest_history_marker"]
        assert rest["nextBeforeId"] is None
        _error(http("GET", f"{base}&limit=0"), 400, "InvalidRequestError", "limit must be a whole number")
    finally:
        gateway.close_session(session)
