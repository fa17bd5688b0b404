"""Issue 27 item 7: a logged-in non-admin's jar upload is refused on its headers, before its body is read;
an admin's upload streams (real HTTP on 127.0.0.1, auth.mode builtin)."""
from __future__ import annotations

import io
import zipfile

import pytest

from security_support import raw_status, users_server


@pytest.fixture(scope="module")
def bench(config, gateway, tmp_path_factory):
    with users_server(config, tmp_path_factory.mktemp("upload-store"), rest__max_upload_bytes=1_000_000) as server:
        yield server


def _session(bench, user: str) -> str:
    answer = bench.http("POST", "/v1/sessions", {}, token=bench.tokens[user])
    assert answer.status == 200, answer.body
    return answer.body["sessionHandle"]


def _upload_head(bench, user: str, session: str, framing: str) -> bytes:
    return (f"POST /v2/sessions/{session}/jars/upload?filename=big.jar HTTP/1.1\r\nHost: 127.0.0.1:{bench.http.port}"
            f"\r\nAuthorization: Bearer {bench.tokens[user]}\r\nContent-Type: application/java-archive\r\n"
            f"{framing}\r\n").encode()


@pytest.mark.parametrize("framing, first", [
    ("Content-Length: 900000\r\n", b"PK\x03\x04"),                       # 0.9 MB announced (under the limit), 4 bytes sent
    ("Transfer-Encoding: chunked\r\n", b"10000\r\n" + b"x" * 65536 + b"\r\n"),  # a chunked body that never ends
], ids=["content-length", "chunked"])
def test_a_non_admins_upload_is_refused_before_its_body(bench, framing, first):
    session = _session(bench, "alice")
    status, answer, _ = raw_status(bench.http, _upload_head(bench, "alice", session, framing) + first)
    assert status == 403, answer[:500]
    assert b"auth.admin_only_code" in answer and b"admins" in answer


def test_an_upload_into_another_users_session_is_a_404_before_its_body(bench):
    session = _session(bench, "bob")
    status, answer, _ = raw_status(bench.http, _upload_head(bench, "root", session, "Content-Length: 900000\r\n"))
    assert status in (403, 404), answer[:500]   # root is an admin, but the session is bob's
    status, _, _ = raw_status(bench.http, _upload_head(bench, "alice", session, "Transfer-Encoding: chunked\r\n"))
    assert status in (403, 404)


def _jar_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n")
        archive.writestr("readme.txt", "x" * 200_000)
    return buffer.getvalue()


def test_an_admins_chunked_upload_streams_in_and_a_too_large_one_is_413(bench):
    import http.client as httpclient
    session = _session(bench, "root")
    data = _jar_bytes()
    conn = httpclient.HTTPConnection(bench.http.host, bench.http.port, timeout=60)
    try:
        conn.request("POST", f"/v2/sessions/{session}/jars/upload?filename=streamed.jar",
                     body=iter([data[i:i + 8192] for i in range(0, len(data), 8192)]),
                     headers={"Authorization": f"Bearer {bench.tokens['root']}",
                              "Content-Type": "application/java-archive"}, encode_chunked=True)
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200, body[:500]
        assert b"streamed-" in body
    finally:
        conn.close()
    limit = bench.service.get_setting("rest.max_upload_bytes")
    chunks = b"".join(b"%x\r\n" % 65536 + b"x" * 65536 + b"\r\n" for _ in range(limit // 65536 + 2)) + b"0\r\n\r\n"
    status, answer, _ = raw_status(bench.http, _upload_head(bench, "root", session, "Transfer-Encoding: chunked\r\n")
                                   + chunks)
    assert status == 413 and b"rest.max_upload_bytes" in answer, answer[:300]
