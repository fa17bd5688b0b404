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
