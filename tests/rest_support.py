"""Shared pieces of the REST tests: a real uvicorn server on 127.0.0.1 over the run's gateway,
and a raw HTTP helper that shows status, headers and the JSON body as sent."""
from __future__ import annotations

from http import client as httpclient
import json
import time
from dataclasses import dataclass
from typing import Any, Optional
from urllib.parse import urlparse

import pytest

from gateway.rest import serve_in_background


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict
    raw: bytes


class Http:
    def __init__(self, url: str, token: Optional[str] = None) -> None:
        self.url = url
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.token = token

    def __call__(self, method: str, path: str, body: Any = None, raw: Optional[bytes] = None,
                 headers: Optional[dict] = None, token: Optional[str] = None) -> Answer:
        conn = httpclient.HTTPConnection(self.host, self.port, timeout=60)
        try:
            send = dict(headers or {})
            token = token if token is not None else self.token
            if token:
                send["Authorization"] = f"Bearer {token}"
            data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
            if data is not None and "Content-Type" not in send:
                send["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=send)
            response = conn.getresponse()
            payload = response.read()
            try:
                decoded = json.loads(payload) if payload else None
            except ValueError:
                decoded = None
            return Answer(response.status, decoded, {k.lower(): v for k, v in response.getheaders()}, payload)
        finally:
            conn.close()

    def open_session(self, **body) -> str:
        answer = self("POST", "/v1/sessions", body or {})
        assert answer.status == 200, answer.body
        return answer.body["sessionHandle"]

    def execute(self, session: str, statement: str, **extra) -> str:
        answer = self("POST", f"/v1/sessions/{session}/statements", {"statement": statement, **extra})
        assert answer.status == 200, answer.body
        return answer.body["operationHandle"]

    def wait_status(self, session: str, operation: str, wanted=("FINISHED", "ERROR", "CANCELED", "TIMEOUT"),
                    timeout_s: float = 60.0) -> str:
        deadline = time.monotonic() + timeout_s
        status = None
        while time.monotonic() < deadline:
            status = self("GET", f"/v1/sessions/{session}/operations/{operation}/status").body["status"]
            if status in wanted:
                return status
            time.sleep(0.02)
        return status

    def fetch_all(self, session: str, operation: str, query: str = "", timeout_s: float = 60.0):
        """Follow nextResultUri from token 0 to EOS; returns (columns, rows, pages)."""
        uri = f"/v1/sessions/{session}/operations/{operation}/result/0{query}"
        rows, pages, columns = [], 0, None
        deadline = time.monotonic() + timeout_s
        while uri is not None and time.monotonic() < deadline:
            answer = self("GET", uri)
            assert answer.status == 200, answer.body
            if answer.body["resultType"] == "NOT_READY":
                time.sleep(0.01)
                uri = answer.body["nextResultUri"]
                continue
            pages += 1
            columns = answer.body["results"]["columns"]
            rows.extend(r["fields"] for r in answer.body["results"]["data"])
            uri = answer.body["nextResultUri"]
        assert uri is None, "no end of result in time"
        return columns, rows, pages


def start(service, token=None):
    return serve_in_background(service, "127.0.0.1", 0, token)


@pytest.fixture(scope="module")
def server(gateway):
    handle = start(gateway)
    yield handle
    handle.stop()


@pytest.fixture(scope="module")
def http(server) -> Http:
    return Http(server.url)


@pytest.fixture
def rest_session(http, gateway):
    handle = http.open_session(sessionName="rest-test")
    yield handle
    try:
        gateway.close_session(handle)
    except Exception:
        pass


ROOT_DIR = str(__import__("pathlib").Path(__file__).resolve().parent.parent)
