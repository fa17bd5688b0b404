"""A bug outside the gateway's boundary (in a route) answers HTTP 500 with an id; the traceback goes to the
log under that id, never to the client (gateway/rest/errors.py)."""
from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request

import uvicorn

from gateway.rest import create_app


def test_an_unexpected_error_in_a_route_answers_an_id_and_no_traceback(gateway, caplog):
    app = create_app(gateway, bind_host="127.0.0.1")

    @app.get("/v2/broken-on-purpose")
    def broken():
        raise RuntimeError("private detail 4711")

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)  # polls the server's own flag: a wait on a condition, bounded
    assert server.started, "the test server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        with caplog.at_level(logging.ERROR, logger="gateway.rest.errors"):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/v2/broken-on-purpose", timeout=60)
                raise AssertionError("a broken route answered 2xx")
            except urllib.error.HTTPError as answer:
                status, body = answer.code, json.loads(answer.read())
    finally:
        server.should_exit = True
        thread.join(10)
    assert status == 500 and body["error_class"] == "InternalError"
    text = json.dumps(body)
    assert "4711" not in text and "Traceback" not in text and "RuntimeError" not in text
    assert not body["exception_stack"]
    error_id = body["root_cause"].split("internal error ")[1][:12]
    assert any(error_id in r.getMessage() and r.exc_info for r in caplog.records), "the log has the id and the stack"
