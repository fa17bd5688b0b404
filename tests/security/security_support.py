"""Shared pieces of the attack tests: a gateway of this run's Spark with users on (auth.mode builtin,
its own store), served over real HTTP on 127.0.0.1, and raw-socket requests that show whether an
answer came before the body was sent."""
from __future__ import annotations

import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass

from gateway import GatewayService
from gateway.rest import serve_in_background
from gateway.store import default_url
from rest_support import Http

PASSWORD = "pass-word-1"
USERS = (("alice", False), ("bob", False), ("root", True))


@dataclass
class UsersServer:
    service: GatewayService
    http: Http
    tokens: dict


@contextmanager
def users_server(config, store_dir, **overrides):
    """auth.mode builtin; users alice and bob, and the admin root, each with an API token."""
    service = GatewayService(config.with_overrides(auth__mode="builtin", store__url=default_url(store_dir),
                                                   **overrides))
    tokens = {}
    for name, admin in USERS:
        service.store.add_user(name, PASSWORD, admin)
        tokens[name] = service.store.create_token(name, "tests")[0]
    server = serve_in_background(service, "127.0.0.1", 0)
    try:
        yield UsersServer(service, Http(server.url), tokens)
    finally:
        server.stop()
        service.shutdown(stop_spark=False)


def raw_status(http: Http, head: bytes, timeout_s: float = 10.0) -> tuple[int, bytes, float]:
    """Send only ``head`` (request line, headers, perhaps a first chunk) and read the answer's start:
    its status, first bytes and how long it took. A server that waits for the body times out here."""
    started = time.monotonic()
    with socket.create_connection((http.host, http.port), timeout=timeout_s) as sock:
        sock.sendall(head)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < _length(answer):
            more = sock.recv(65536)
            if not more:
                break
            answer += more
    status = int(answer.split(b" ", 2)[1])
    return status, answer, time.monotonic() - started


def _length(answer: bytes) -> int:
    for line in answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0
