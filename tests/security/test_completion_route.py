"""The SQL editor's completion route on Streamlit's own server (ui/completion_route.py), over real HTTP on
127.0.0.1 against a real ``streamlit run`` with users on (auth.mode builtin): with the editor's credential it
completes its own session only, as its user; anything else gets a refusal, never an answer: another user's
session, an expired, unknown, other-scope or absent credential, another origin, another method, a body
too large. A POST body takes statements longer than a GET's address could."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rest_support import Http
from tests.e2e.workbench_app import chromium, running_workbench

APP = Path(__file__).resolve().parent / "completion_route_app.py"
READY_TIMEOUT_S = 600   # Spark starts with the first page: 4 minutes and more on 2 loaded cores


@pytest.fixture(scope="module")
def route(tmp_path_factory):
    """The app's server, once a page load ran its script (the route is added from a script run), and the
    sessions and credentials it made."""
    data = tmp_path_factory.mktemp("completion-route")
    facts = data / "facts.json"
    env = {"WORKBENCH_AUTH_MODE": "builtin", "COMPLETION_ROUTE_FACTS": str(facts)}
    with running_workbench(data, env, APP) as bench, chromium() as browser:
        page = browser.new_page()
        page.goto(bench.url)
        try:
            page.get_by_text("route ready").wait_for(timeout=READY_TIMEOUT_S * 1000)
        except Exception as exc:  # noqa: BLE001 - say what the page and the server showed
            logs = "".join(p.read_text()[-3000:] for p in data.glob("streamlit-*.log"))
            raise AssertionError(f"the route app did not get ready ({exc}); page: {page.inner_text('body')[-2000:]}; "
                                 f"log: {logs}") from exc
        assert facts.exists()
        yield Http(bench.url), json.loads(facts.read_text()), bench.url


def post(route, session: str, body=None, token=None, origin="own", method="POST", raw=None, headers=None):
    http, _, url = route
    send = dict(headers or {})
    if origin == "own":
        send["Origin"] = url
    elif origin is not None:
        send["Origin"] = origin
    return http(method, f"/_workbench/sessions/{session}/complete-statement", body, raw=raw, headers=send,
                token=token)


def request(statement: str) -> dict:
    return {"statement": statement, "position": len(statement), "details": True}


def test_the_credential_completes_its_own_session_as_its_user(route):
    _, facts, _ = route
    answer = post(route, facts["bob_session"], request("SELECT * FROM "), token=facts["bob_token"])
    assert answer.status == 200, answer.body
    assert "bob_route_view" in answer.body["candidates"]
    assert "alice_route_view" not in answer.body["candidates"]
    detail = next(c for c in answer.body["candidateDetails"] if c["value"] == "bob_route_view")
    assert detail["kind"] == "temporary view"
    assert answer.headers.get("cache-control") == "no-store"
    answer = post(route, facts["bob_session"], request("SELECT v. FROM bob_route_view v")
                  | {"position": len("SELECT v.")}, token=facts["bob_token"])
    assert answer.status == 200 and "bob_route_col" in answer.body["candidates"], answer.body


def test_a_statement_longer_than_a_get_address_is_completed(route):
    _, facts, _ = route
    filler = " + ".join(["1"] * 4000)   # 16,000 characters before the cursor
    statement = f"SELECT {filler}, v. FROM bob_route_view v"
    cursor = statement.index("v. FROM") + 2
    answer = post(route, facts["bob_session"], {"statement": statement, "position": cursor, "details": True},
                  token=facts["bob_token"])
    assert answer.status == 200, answer.body
    assert "bob_route_col" in answer.body["candidates"]


def test_requests_a_later_one_of_the_same_editor_supersedes_are_dropped_uncomputed(route):
    """The editor numbers its requests (``client``, ``seq``): one that gets its turn after a later one of the same
    editor arrived is answered 409 without the engine being asked; the counts say how many were computed."""
    _, facts, _ = route
    session, token = facts["bob_session"], facts["bob_token"]

    def numbered(seq, client="superseded-test"):
        return request("SELECT * FROM ") | {"client": client, "seq": seq, "wait": False}

    first = post(route, session, numbered(10), token=token)
    assert first.status == 200 and "bob_route_view" in first.body["candidates"], first.body
    assert first.headers["x-completion-counts"] == "computed=1, dropped=0"
    assert {"queue", "complete", "encode", "route"} <= {
        part.split(";")[0].strip() for part in first.headers["server-timing"].split(",")}
    for seq in (9, 3, 1):   # arriving after request 10 (an aborted fetch, a backlog): dropped
        late = post(route, session, numbered(seq), token=token)
        assert late.status == 409 and late.body["error_class"] == "SupersededError", late.body
        assert "candidates" not in late.body
    # Another user's session (and credential) with the same client name and a higher number overtakes nothing.
    other = post(route, facts["alice_session"], numbered(1000), token=facts["alice_token"])
    assert other.status == 200, other.body
    latest = post(route, session, numbered(11), token=token)
    assert latest.status == 200 and "bob_route_view" in latest.body["candidates"], latest.body
    assert latest.headers["x-completion-counts"] == "computed=2, dropped=3"
    # A burst at once: every request is answered or dropped, the last-numbered one is answered, the counts add up.
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(8) as pool:
        answers = dict(zip(range(12, 28), pool.map(lambda seq: post(route, session, numbered(seq), token=token),
                                                   range(12, 28))))
    assert {a.status for a in answers.values()} <= {200, 409}
    assert answers[27].status == 200 and "bob_route_view" in answers[27].body["candidates"]
    answered = sum(a.status == 200 for a in answers.values())
    final = post(route, session, numbered(28), token=token).headers["x-completion-counts"]
    assert final == f"computed={2 + answered + 1}, dropped={3 + 16 - answered}"
    # Requests without a number are never dropped (REST-like clients, older editors).
    assert post(route, session, request("SELECT * FROM "), token=token).status == 200


def test_another_users_session_is_refused(route):
    _, facts, _ = route
    answer = post(route, facts["alice_session"], request("SELECT * FROM "), token=facts["bob_token"])
    assert answer.status == 401, answer.body
    assert "alice_route_view" not in answer.raw.decode()
    assert "only complete-statement on its own session" in answer.body["root_cause"]
    assert answer.headers.get("www-authenticate") == "Bearer"


@pytest.mark.parametrize("kind, token, says", [
    ("expired", "expired_token", "expired"),
    ("unknown", "wbs_" + "A" * 43, "unknown"),
    ("other scope", "other_scope_token", "allows only"),
    ("an API token's shape", "wbt_" + "A" * 43, "session credential"),
    ("absent", None, "session credential"),
])
def test_credentials_that_are_not_live_for_this_session_are_refused(route, kind, token, says):
    _, facts, _ = route
    answer = post(route, facts["bob_session"], request("SELECT * FROM "), token=facts.get(token, token))
    assert answer.status == 401, (kind, answer.body)
    assert says in answer.body["root_cause"], (kind, answer.body)
    assert "bob_route_view" not in answer.raw.decode()


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", None])
def test_another_origin_or_none_is_refused(route, origin):
    _, facts, _ = route
    answer = post(route, facts["bob_session"], request("SELECT * FROM "), token=facts["bob_token"], origin=origin)
    assert answer.status == 403, (origin, answer.body)
    assert "own page only" in answer.body["root_cause"]
    assert "bob_route_view" not in answer.raw.decode()


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_other_methods_are_refused(route, method):
    _, facts, _ = route
    body = None if method == "GET" else request("SELECT * FROM ")
    answer = post(route, facts["bob_session"], body, token=facts["bob_token"], method=method)
    assert answer.status == 405, (method, answer.status)
    assert "bob_route_view" not in answer.raw.decode()


def test_a_bad_body_is_said_after_the_credential_and_a_huge_one_is_refused_unread(route):
    _, facts, _ = route
    session = facts["bob_session"]
    # Without a credential, even a bad body gets 401: nothing is read for an unknown caller.
    assert post(route, session, raw=b"not json").status == 401
    for bad in (b"not json", b"[]", json.dumps({"statement": "SELECT "}).encode(),
                json.dumps({"statement": "SELECT ", "position": -1}).encode()):
        answer = post(route, session, raw=bad, token=facts["bob_token"])
        assert answer.status == 400, (bad, answer.body)
        assert "statement (text) and position" in answer.body["root_cause"] or "JSON object" in answer.body["root_cause"]
    answer = post(route, session, raw=b"{}", token=facts["bob_token"], headers={"Content-Length": str(64 * 1024 * 1024)})
    assert answer.status == 413, answer.status
