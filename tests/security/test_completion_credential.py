"""The SQL editor's completion credential (``wbs_…``, ``completion_credential``) over real HTTP on 127.0.0.1,
users on (auth.mode builtin): it completes its own session's statements and does nothing else. It cannot
reach another session (another user's temp views), run or list anything, outlive its expiry or its session,
and a page of another origin gets no CORS answer for it."""
from __future__ import annotations

from urllib.parse import quote

import pytest

from gateway import SessionNotFoundError
from gateway.identity import COMPLETION_SCOPE, SESSION_CREDENTIALS
from security_support import users_server

ORIGIN = "http://127.0.0.1:8501"


@pytest.fixture(scope="module")
def server(config, gateway, tmp_path_factory):
    with users_server(config, tmp_path_factory.mktemp("completion-credential-store")) as running:
        yield running


def complete_path(session: str, statement: str, prefix: str = "/v2") -> str:
    return (f"{prefix}/sessions/{session}/complete-statement?details=true&position={len(statement)}"
            f"&statement={quote(statement)}")


def user_session(server, name: str) -> tuple[str, object]:
    """A session opened over REST by ``name`` and that user's gateway (as_user)."""
    answer = server.http("POST", "/v1/sessions", {}, token=server.tokens[name])
    assert answer.status == 200, answer.body
    return answer.body["sessionHandle"], server.service.as_user(server.service.authenticate_token(server.tokens[name]))


@pytest.fixture(scope="module")
def two_users(server):
    alice_session, alice = user_session(server, "alice")
    bob_session, bob = user_session(server, "bob")
    alice.configure_session(alice_session, "CREATE TEMPORARY VIEW alice_secret_view AS SELECT 1 AS secret_col")
    bob.configure_session(bob_session, "CREATE TEMPORARY VIEW bob_own_view AS SELECT 2 AS own_col")
    return {"alice": (alice_session, alice), "bob": (bob_session, bob)}


def values(answer) -> list[str]:
    return [c["value"] for c in answer.body["candidateDetails"]]


def test_the_credential_completes_its_own_session(server, two_users):
    bob_session, bob = two_users["bob"]
    credential = bob.completion_credential(bob_session, ORIGIN)
    assert credential["session"] == bob_session and credential["token"].startswith("wbs_")
    answer = server.http("GET", complete_path(bob_session, "SELECT * FROM "), token=credential["token"])
    assert answer.status == 200, answer.body
    assert "bob_own_view" in values(answer)
    assert "alice_secret_view" not in values(answer)


def test_the_credential_cannot_reach_another_users_session(server, two_users):
    alice_session, _ = two_users["alice"]
    bob_session, bob = two_users["bob"]
    token = bob.completion_credential(bob_session)["token"]
    answer = server.http("GET", complete_path(alice_session, "SELECT * FROM "), token=token)
    assert answer.status == 401, answer.body
    assert "alice_secret_view" not in answer.raw.decode()
    assert "only complete-statement on its own session" in answer.body["root_cause"]
    # Nor is one minted for it: another user's session does not exist for bob.
    with pytest.raises(SessionNotFoundError):
        bob.completion_credential(alice_session)


def test_the_credential_cannot_run_or_read_anything_else(server, two_users):
    bob_session, bob = two_users["bob"]
    token = bob.completion_credential(bob_session)["token"]
    attempts = [("POST", f"/v1/sessions/{bob_session}/statements", {"statement": "SELECT 1"}),
                ("POST", f"/v1/sessions/{bob_session}/configure-session", {"statement": "SET a=b"}),
                ("GET", f"/v2/sessions/{bob_session}/completion/dictionary", None),
                ("GET", f"/v2/sessions/{bob_session}/tables", None),
                ("GET", "/v2/sessions", None),
                ("DELETE", f"/v1/sessions/{bob_session}", None),
                ("POST", "/v1/sessions", {})]
    for method, path, body in attempts:
        answer = server.http(method, path, body, token=token)
        assert answer.status == 401, (method, path, answer.status, answer.body)
        assert "allows only GET" in answer.body["root_cause"], answer.body
    # A GET of complete-statement with a body-less method other than GET is refused too.
    assert server.http("POST", complete_path(bob_session, "SELECT "), {}, token=token).status == 401
    # The session is still there, and still bob's.
    assert server.http("GET", f"/v1/sessions/{bob_session}", token=server.tokens["bob"]).status == 200


def test_expired_unknown_and_absent_credentials_are_refused(server, two_users):
    bob_session, _ = two_users["bob"]
    principal = server.service.authenticate_token(server.tokens["bob"])
    expired, _ = SESSION_CREDENTIALS.mint(principal, bob_session, COMPLETION_SCOPE, ttl_s=0, origin=ORIGIN)
    answer = server.http("GET", complete_path(bob_session, "SELECT "), token=expired)
    assert answer.status == 401 and "expired" in answer.body["root_cause"], answer.body
    forged = "wbs_" + "A" * 43
    answer = server.http("GET", complete_path(bob_session, "SELECT "), token=forged)
    assert answer.status == 401 and "unknown" in answer.body["root_cause"], answer.body
    answer = server.http("GET", complete_path(bob_session, "SELECT "), token="")
    assert answer.status == 401, answer.body
    # A credential of another scope (minted by some other part of the process) does not complete.
    other, _ = SESSION_CREDENTIALS.mint(principal, bob_session, "something-else", ttl_s=600)
    assert server.http("GET", complete_path(bob_session, "SELECT "), token=other).status == 401


def test_a_closed_sessions_credential_is_void(server):
    session, bob = user_session(server, "bob")
    token = bob.completion_credential(session)["token"]
    assert server.http("GET", complete_path(session, "SELECT "), token=token).status == 200
    bob.close_session(session)
    answer = server.http("GET", complete_path(session, "SELECT "), token=token)
    assert answer.status == 401, answer.body


def test_a_bad_origin_is_refused_when_minting(two_users):
    bob_session, bob = two_users["bob"]
    from gateway import InvalidRequestError
    with pytest.raises(InvalidRequestError, match="not a web origin"):
        bob.completion_credential(bob_session, "javascript:alert(1)")


def test_cors_answers_only_the_credentials_origin_and_only_for_completion(server, two_users):
    bob_session, bob = two_users["bob"]
    token = bob.completion_credential(bob_session, ORIGIN)["token"]
    path = complete_path(bob_session, "SELECT ")
    preflight = {"Origin": ORIGIN, "Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "authorization"}
    answer = server.http("OPTIONS", path, headers=preflight)
    assert answer.status == 204 and answer.headers["access-control-allow-origin"] == ORIGIN
    assert answer.headers["access-control-allow-headers"] == "authorization"
    answer = server.http("GET", path, headers={"Origin": ORIGIN}, token=token)
    assert answer.status == 200 and answer.headers["access-control-allow-origin"] == ORIGIN
    # Another page: no preflight answer, no CORS header on the answer (the browser keeps it out).
    evil = dict(preflight, Origin="http://evil.example")
    answer = server.http("OPTIONS", path, headers=evil)
    assert answer.status != 204 and "access-control-allow-origin" not in answer.headers
    answer = server.http("GET", path, headers={"Origin": "http://evil.example"}, token=token)
    assert "access-control-allow-origin" not in answer.headers
    # Another path, even from the credential's origin: no CORS.
    answer = server.http("OPTIONS", f"/v1/sessions/{bob_session}/statements", headers=preflight)
    assert "access-control-allow-origin" not in answer.headers


def test_without_a_rest_api_the_credential_serves_complete_with_credential_only(config, tmp_path_factory):
    """A gateway that serves no REST API (rest.enabled off) still mints the credential, with no REST address:
    the UI's own route (ui/completion_route.py) answers through ``complete_with_credential``, which holds it
    to the same rules as REST: its session, its scope, its expiry, as its user."""
    from gateway import AuthenticationError, GatewayService, InvalidRequestError
    from gateway.store import default_url
    service = GatewayService(config.with_overrides(store__url=default_url(tmp_path_factory.mktemp("no-rest-store"))))
    try:
        session = service.open_session(name="no-rest")
        other = service.open_session(name="no-rest-other")
        service.configure_session(session, "CREATE TEMPORARY VIEW own_route_view AS SELECT 1 AS own_route_col")
        found = service.completion_credential(session, ORIGIN)
        assert found["url"] is None and found["token"].startswith("wbs_") and found["session"] == str(session)
        request = {"statement": "SELECT * FROM ", "position": 14, "details": True}
        answer = service.complete_with_credential(found["token"], session, request)
        assert "own_route_view" in answer["candidates"]
        assert {"value": "own_route_view", "kind": "temporary view"}.items() <= next(
            c for c in answer["candidateDetails"] if c["value"] == "own_route_view").items()
        assert "candidateDetails" not in service.complete_with_credential(found["token"], session,
                                                                          dict(request, details=False))
        principal = service.whoami()
        expired, _ = SESSION_CREDENTIALS.mint(principal, str(session), COMPLETION_SCOPE, ttl_s=0)
        other_scope, _ = SESSION_CREDENTIALS.mint(principal, str(session), "something-else", ttl_s=600)
        refused = {"another session": (found["token"], other), "expired": (expired, session),
                   "unknown": ("wbs_" + "A" * 43, session), "another scope": (other_scope, session),
                   "no credential": ("", session), "not a credential": (None, session),
                   "an API token's shape": ("wbt_" + "A" * 43, session)}
        for case, (token, target) in refused.items():
            with pytest.raises(AuthenticationError):
                service.complete_with_credential(token, target, request)
        # A good credential with a bad request: what is wrong is said, nothing is answered.
        for bad in ([], {"statement": "SELECT "}, {"statement": 1, "position": 0},
                    {"statement": "SELECT ", "position": -1}, dict(request, details="yes")):
            with pytest.raises(InvalidRequestError):
                service.complete_with_credential(found["token"], session, bad)
    finally:
        service.shutdown(stop_spark=False)
