"""One real Spark Connect server for the connect tests (tests/connect_server.py), and a gateway on it
(``engine.kind = connect``) with its own data directory. The failure test starts a server of its own."""
from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def connect_server():
    from connect_server import ConnectServer

    running = os.environ.get("WORKBENCH_TEST_CONNECT_PORT")  # a server already up (while developing), else one of ours
    if running:
        yield ConnectServer(port=int(running))
        return
    server = ConnectServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def connect_gateway(connect_server, tmp_path_factory):
    from connect_support import connect_config
    from gateway import GatewayService

    service = GatewayService(connect_config(tmp_path_factory, connect_server.url))
    yield service
    service.shutdown()


@pytest.fixture
def connect_session(connect_gateway):
    handle = connect_gateway.open_session(name="connect-test")
    yield handle
    try:
        connect_gateway.close_session(handle)
    except Exception:  # noqa: BLE001 - a test may have closed it
        pass
