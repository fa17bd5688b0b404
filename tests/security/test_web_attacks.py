"""Issue 27, attacks through the REST API on a real server on 127.0.0.1: lone surrogates (item 9)."""
from __future__ import annotations

import pytest

from rest_support import Http, http, rest_session, server  # noqa: F401  (fixtures)

# JSON escapes, sent as raw bytes: "\ud800" decodes to a lone surrogate in every JSON parser.
LONE = "\\ud800"

SURROGATE_BODIES = [
    ("POST", "/v2/sessions/{s}/format", '{"statement": "SELECT \'%s\'"}'),
    ("POST", "/v2/sessions/{s}/jars", '{"uri": "/tmp/%s.jar"}'),
    ("POST", "/v2/sessions/{s}/plans/compile", '{"statement": "SELECT 1", "path": "%s.json"}'),
    ("POST", "/v1/sessions/{s}/statements", '{"statement": "SELECT \'%s\'"}'),
    ("POST", "/v2/sessions/{s}/configure-session", '{"statement": "SET a.b = %s"}'),
    ("POST", "/v2/sessions/{s}/split", '{"statement": "SELECT 1; SELECT \'%s\'"}'),
    ("PUT", "/v2/sessions/{s}/config/spark.sql.ansi.enabled", '{"value": "%s"}'),
    ("POST", "/v1/sessions", '{"properties": {"spark.a%s": "1"}}'),
    ("POST", "/v1/sessions", '{"sessionName": "%s"}'),
    ("POST", "/v2/sessions/{s}/modules", '{"name": "core", "properties": {"type": "%s"}}'),
    ("POST", "/v2/sessions/{s}/plans/execute", '{"plan": "%s.json"}'),
    ("POST", "/v2/plans/render", '{"plan": "%s.json"}'),
    ("POST", "/v2/users/local/tabs", '{"title": "t", "text": "SELECT \'%s\'"}'),
    ("POST", "/v2/users/local/queries", '{"name": "q%s", "text": "SELECT 1"}'),
    ("POST", "/v2/sessions/{s}/functions", '{"name": "f", "className": "%s", "jar": "x.jar"}'),
]


@pytest.mark.parametrize("method, path, body", SURROGATE_BODIES, ids=[f"{m} {p}" for m, p, _ in SURROGATE_BODIES])
def test_a_lone_surrogate_in_any_string_field_is_a_clear_400(http, rest_session, method, path, body):
    answer = http(method, path.format(s=rest_session), raw=(body % LONE).encode())
    assert answer.status == 400, (answer.status, answer.body)
    assert "lone UTF-16 surrogate" in answer.body["root_cause"], answer.body
    assert answer.body["error_class"] == "InvalidRequestError"
    # Nothing else broke: the session still runs statements.
    assert http("POST", f"/v2/sessions/{rest_session}/format", {"statement": "select 1"}).status == 200


def test_a_complete_surrogate_pair_is_ordinary_text(http, rest_session):
    answer = http("POST", f"/v2/sessions/{rest_session}/format",
                  raw=b'{"statement": "SELECT \'\\ud83d\\ude00\' AS smile"}')
    assert answer.status == 200, answer.body
    assert "\U0001F600" in answer.body["statement"]


# -- item 8: cross-site requests ---------------------------------------------------------------------

# What Chromium sends for fetch(url + '/v1/sessions', {method: 'POST', mode: 'no-cors'}) from another site.
NO_CORS_POST = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors",
                "Content-Length": "0"}


def test_another_sites_no_cors_posts_cannot_fill_the_session_slots(http, gateway):
    before = len(gateway.sessions.list())
    for _ in range(70):
        answer = http("POST", "/v1/sessions", headers=NO_CORS_POST)
        assert answer.status == 403, answer.body
    assert answer.body["error_class"] == "CrossSiteRequestError"
    assert "another origin" in answer.body["root_cause"] and "rest.allowed_origins" in answer.body["root_cause"]
    assert len(gateway.sessions.list()) == before
    http("DELETE", f"/v1/sessions/{http.open_session()}")  # a program still opens and closes sessions


@pytest.mark.parametrize("headers", [
    {"Origin": "null", "Content-Type": "application/json"},                  # a sandboxed frame
    {"Origin": "http://127.0.0.1.evil.example", "Content-Type": "application/json"},
    {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"},         # no Origin, a browser all the same
    {"Content-Type": "text/plain"},                                          # a JSON body dressed as text
    {"Content-Type": "application/x-www-form-urlencoded"},
    {"Content-Type": "multipart/form-data; boundary=x"},
], ids=["origin-null", "foreign-origin", "sec-fetch-cross-site", "text-plain", "form", "multipart"])
def test_simple_or_foreign_posts_with_a_body_are_refused(http, gateway, headers):
    before = len(gateway.sessions.list())
    answer = http("POST", "/v1/sessions", raw=b'{"sessionName": "csrf"}', headers=headers)
    assert answer.status == 403, answer.body
    assert answer.body["error_class"] == "CrossSiteRequestError"
    assert len(gateway.sessions.list()) == before


def test_a_body_without_a_content_type_is_refused(http, rest_session):
    # http.client sends no Content-Type for a raw body when none is given; FastAPI would parse it as JSON.
    import http.client as httpclient
    conn = httpclient.HTTPConnection(http.host, http.port, timeout=30)
    try:
        conn.request("POST", f"/v1/sessions/{rest_session}/statements", body=b'{"statement": "SELECT 1"}')
        response = conn.getresponse()
        assert response.status == 403 and b"X-Workbench-Client" in response.read()
    finally:
        conn.close()


def test_deletes_and_puts_from_another_origin_are_refused(http, rest_session):
    evil = {"Origin": "https://evil.example"}
    assert http("DELETE", f"/v1/sessions/{rest_session}", headers=evil).status == 403
    assert http("PUT", f"/v2/sessions/{rest_session}/config/spark.sql.ansi.enabled", {"value": "false"},
                headers=evil).status == 403
    assert http("GET", f"/v1/sessions/{rest_session}").status == 200  # still open


def test_own_origin_programs_and_the_client_header_are_served(http, rest_session):
    own = {"Origin": f"http://127.0.0.1:{http.port}"}
    assert http("POST", f"/v2/sessions/{rest_session}/format", {"statement": "select 1"}, headers=own).status == 200
    # a bodyless POST from a program (Flink's heartbeat): no Origin, no Sec-Fetch-Site
    assert http("POST", f"/v1/sessions/{rest_session}/heartbeat").status == 200
    # a non-JSON body with the client header passes this check (and meets the body parser's 400)
    answer = http("POST", f"/v2/sessions/{rest_session}/format", raw=b"select 1",
                  headers={"Content-Type": "text/plain", "X-Workbench-Client": "test"})
    assert answer.status == 400 and answer.body["error_class"] == "InvalidRequestError", answer.body


def test_the_workbench_client_still_works(server):
    from workbench_client import GatewayClient
    with GatewayClient(server.url) as client:
        with client.open_session(name="csrf-check") as session:
            session.heartbeat()
            session.configure("SET spark.sql.ansi.enabled = true")
            assert session.properties()["spark.sql.ansi.enabled"] == "true"
