"""Security of the REST API: bearer token, loopback-only without a token, body limits, and no
request path that reaches outside the data directory."""
from __future__ import annotations

import os
import subprocess
import sys
from http import client as httpclient
from pathlib import Path

import pytest

from gateway.errors import ConfigurationError
from gateway.rest import check_bind
from rest_support import ROOT_DIR, Http, http, rest_session, server, start  # noqa: F401 - fixtures

TOKEN = "t0ken-for-tests-only"


@pytest.fixture(scope="module")
def guarded(gateway):
    handle = start(gateway, token=TOKEN)
    yield Http(handle.url)
    handle.stop()


def test_token_required_when_configured(guarded, gateway):
    missing = guarded("GET", "/v1/info")
    assert missing.status == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert "Authorization: Bearer" in missing.body["root_cause"]
    wrong = guarded("POST", "/v1/sessions", {}, token="nope")
    assert wrong.status == 401 and "wrong" in wrong.body["root_cause"]
    assert guarded("GET", "/v1/info", headers={"Authorization": "Basic abc"}).status == 401
    opened = guarded("POST", "/v1/sessions", {}, token=TOKEN)
    assert opened.status == 200
    handle = opened.body["sessionHandle"]
    assert guarded("GET", f"/v1/sessions/{handle}").status == 401  # every endpoint, not just some
    assert guarded("DELETE", f"/v1/sessions/{handle}", token=TOKEN).status == 200
    assert guarded("GET", "/openapi.json").status == 200  # the API's shape is no secret


def test_no_token_configured_means_no_check(http):
    assert http("GET", "/v1/info", token="anything").status == 200
    assert http("GET", "/v1/info").status == 200


def test_non_loopback_bind_without_token_is_refused():
    with pytest.raises(ConfigurationError, match="non-loopback"):
        check_bind("0.0.0.0", None)
    with pytest.raises(ConfigurationError, match="rest.token"):
        check_bind("192.0.2.10", "")
    check_bind("0.0.0.0", "secret")
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        check_bind(host, None)


def test_serve_command_refuses_before_starting_spark(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_REST")}
    env["WORKBENCH_DATA_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-m", "gateway", "serve", "--host", "0.0.0.0", "--port", "1"],
                            cwd=ROOT_DIR, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "refusing to serve the REST API on 0.0.0.0" in result.stderr
    assert not (tmp_path / "metastore").exists()  # Spark never started


def test_request_body_limit(http, rest_session, gateway):
    limit = gateway.config["rest.max_request_bytes"]
    huge = http("POST", f"/v1/sessions/{rest_session}/statements", {"statement": "SELECT '" + "x" * limit + "'"})
    assert huge.status == 413 and "rest.max_request_bytes" in huge.body["root_cause"]
    # a chunked body has no Content-Length: it is counted as it arrives
    conn = httpclient.HTTPConnection(http.host, http.port, timeout=60)
    try:
        chunks = (b'{"statement": "SELECT 1 --' if i == 0 else b"x" * 65536 for i in range(limit // 65536 + 2))
        conn.request("POST", f"/v1/sessions/{rest_session}/statements", body=chunks,
                     headers={"Content-Type": "application/json"}, encode_chunked=True)
        response = conn.getresponse()
        assert response.status == 413
    finally:
        conn.close()
    assert http("POST", f"/v1/sessions/{rest_session}/heartbeat").status == 200  # the server goes on


def test_statement_length_limit_is_a_clear_400(http, rest_session, gateway):
    too_long = "SELECT 1 -- " + "y" * gateway.config["statement.max_chars"]
    answer = http("POST", f"/v1/sessions/{rest_session}/statements", {"statement": too_long})
    assert answer.status == 400 and "statement.max_chars" in answer.body["root_cause"]


def test_upload_limit_is_checked_before_the_body_arrives(http, rest_session, gateway):
    conn = httpclient.HTTPConnection(http.host, http.port, timeout=60)
    try:
        conn.putrequest("POST", f"/v2/sessions/{rest_session}/jars/upload?filename=big.jar")
        conn.putheader("Content-Type", "application/java-archive")
        conn.putheader("Content-Length", str(gateway.config["rest.max_upload_bytes"] + 1))
        conn.endheaders()
        conn.send(b"PK")  # the rest never comes
        response = conn.getresponse()
        assert response.status == 413 and b"rest.max_upload_bytes" in response.read()
    finally:
        conn.close()


@pytest.mark.parametrize("uri", ["/etc/passwd", "../../../etc/x.jar", "file:///etc/x.jar", "file://otherhost/x.jar",
                                 "ftp://127.0.0.1/x.jar", "jar:file:/etc/x.jar!/", "", "warehouse/../../x.jar"])
def test_jar_paths_outside_the_data_dir_are_refused(http, rest_session, uri):
    answer = http("POST", f"/v2/sessions/{rest_session}/jars", {"uri": uri})
    assert answer.status == 400, answer.body
    assert answer.body["error_class"] == "InvalidRequestError"


def test_symlink_out_of_the_data_dir_is_refused(http, rest_session, data_dir):
    link = Path(data_dir) / "escape.jar"
    if not link.exists():
        link.symlink_to("/etc/hostname")
    answer = http("POST", f"/v2/sessions/{rest_session}/jars", {"uri": "escape.jar"})
    assert answer.status == 400 and "outside the data directory" in answer.body["root_cause"]
    listed = http("GET", f"/v2/sessions/{rest_session}/jars/udf-classes?jar=/etc/hostname")
    assert listed.status == 400


@pytest.mark.parametrize("name", ["../evil.jar", "a/b.jar", "evil.sh", ".hidden.jar", "x.jar/..", "%2e%2e.jar"])
def test_upload_names_cannot_be_paths(http, rest_session, name):
    from urllib.parse import quote
    answer = http("POST", f"/v2/sessions/{rest_session}/jars/upload?filename={quote(name, safe='')}",
                  raw=b"PK\x03\x04", headers={"Content-Type": "application/java-archive"})
    assert answer.status == 400 and "not allowed" in answer.body["root_cause"], answer.body
