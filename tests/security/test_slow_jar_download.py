"""Issue 27 item 11: a slow ADD JAR download does not hold its session's other statements back.
A jar server on 127.0.0.1 that sends half a jar, then waits until the test lets it finish."""
from __future__ import annotations

import io
import itertools
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import run_all, wait_for

_names = itertools.count()


def _jar() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n")
        archive.writestr("data.txt", "slow " * 20_000)
    return buffer.getvalue()


class SlowJarServer:
    """Serves any *.jar path: the first half at once, the rest when ``release`` is set (60 s at most)."""

    def __init__(self) -> None:
        self.data, self.requested, self.release = _jar(), threading.Event(), threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                outer.requested.set()
                self.send_response(200)
                self.send_header("Content-Type", "application/java-archive")
                self.send_header("Content-Length", str(len(outer.data)))
                self.end_headers()
                half = len(outer.data) // 2
                self.wfile.write(outer.data[:half])
                self.wfile.flush()
                outer.release.wait(60)
                self.wfile.write(outer.data[half:])

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{name}"

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def jar_server():
    server = SlowJarServer()
    yield server
    server.stop()


def _status(gateway, session, operation) -> str:
    return gateway.get_operation_info(session, operation).status.value


def test_a_statement_runs_while_the_same_sessions_add_jar_downloads(gateway, session, jar_server):
    uri = jar_server.url(f"slow-{next(_names)}.jar")
    adding = gateway.execute_statement(session, f"ADD JAR '{uri}'")
    try:
        assert jar_server.requested.wait(30), "the download never started"
        other = gateway.execute_statement(session, "SELECT 42 AS answer")
        finished = wait_for(lambda: _status(gateway, session, other) in ("FINISHED", "ERROR"), timeout_s=30)
        assert finished and _status(gateway, session, other) == "FINISHED", \
            "the session's SELECT waited for the ADD JAR download"
        assert _status(gateway, session, adding) not in ("FINISHED", "ERROR")   # still downloading
        rows = []
        for page in gateway.iter_results(session, other, None, 30):
            rows.extend(page.rows)
        assert rows == [[42]]
    finally:
        jar_server.release.set()
    assert wait_for(lambda: _status(gateway, session, adding) in ("FINISHED", "ERROR"), timeout_s=60)
    info = gateway.get_operation_info(session, adding)
    assert info.status.value == "FINISHED", gateway.fetch_results(session, adding, 0).exception
    _, jars, _ = run_all(gateway, session, "SHOW JARS")
    assert any(uri in str(row) for row in jars), jars


def test_the_add_jar_call_downloads_without_holding_the_session(gateway, session, jar_server):
    uri = jar_server.url(f"slow-call-{next(_names)}.jar")
    outcome = {}
    caller = threading.Thread(target=lambda: outcome.update(jar=gateway.add_jar(session, uri)), daemon=True)
    caller.start()
    try:
        assert jar_server.requested.wait(30), "the download never started"
        other = gateway.execute_statement(session, "SELECT 7 AS seven")
        assert wait_for(lambda: _status(gateway, session, other) == "FINISHED", timeout_s=30), \
            "the session's SELECT waited for the add_jar call's download"
        assert caller.is_alive()
    finally:
        jar_server.release.set()
    caller.join(60)
    assert "jar" in outcome and uri in str(outcome["jar"])
