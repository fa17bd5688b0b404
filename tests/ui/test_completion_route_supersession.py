"""The editor's completion route (ui/completion_route.py) over real HTTP on 127.0.0.1 (uvicorn, the route's own
endpoint over the run's real gateway and Spark): a newer request of the same editor ends the older one's bounded
wait for a table's columns at once. The older is answered 409 (superseded) while that load is still under way,
and the newer is answered without queueing behind the older's wait (the burst ``SELECT w`` then ``.``).

The load of the table's columns is held by the test (a gate before the real catalog call), so that "still under
way" is a state, not a timing; the wait's bound is raised far past the test's own timeouts.
"""
from __future__ import annotations

import json
import socket
import threading
import time
from http import client as httpclient

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Route

from rest_support import Http
from gateway.features.completion import completer
from ui import completion_route


@pytest.fixture(scope="module")
def supersession_db(gateway):
    setup = gateway.open_session(name="supersession-setup")
    for statement in ("CREATE DATABASE IF NOT EXISTS supersession_db",
                      "CREATE TABLE IF NOT EXISTS supersession_db.ss_orders (ss_id BIGINT, ss_amount DOUBLE) "
                      "USING parquet"):
        gateway.configure_session(setup, statement)
    assert gateway.feature("completion").wait_fresh(60)
    yield
    gateway.close_session(setup)


@pytest.fixture(scope="module")
def route_server(gateway):
    """The completion route alone on a Starlette app served by uvicorn on 127.0.0.1, answering with ``gateway``."""
    app = Starlette(routes=[Route(completion_route.ROUTE, completion_route._complete_endpoint,  # noqa: SLF001
                                  methods=completion_route._EVERY_METHOD)])  # noqa: SLF001
    setattr(app.state, completion_route._STATE, gateway)  # noqa: SLF001
    # Bound as Streamlit binds its own (streamlit/web/server/starlette/starlette_server.py): a socket that does not
    # name TCP, whose connections asyncio leaves with Nagle's algorithm on.
    listening = socket.socket(family=socket.AF_INET)
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    listening.setblocking(False)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, name="completion-route-test",
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)   # uvicorn says nothing else when it is listening
    assert server.started, "the route's server did not start"
    server.test_url = f"http://127.0.0.1:{listening.getsockname()[1]}"
    yield server
    server.should_exit = True
    thread.join(30)
    listening.close()


@pytest.fixture()
def held_load(gateway, supersession_db, monkeypatch):
    """A new session in supersession_db whose cache's column loads wait for ``gate`` (then ask the real catalog);
    ``entered`` is set once a load is under way. The editor's wait for a load has a bound of minutes here."""
    monkeypatch.setattr(completer, "ANSWER_WAIT_S", 300.0)
    handle = gateway.open_session(name="supersession")
    gateway.configure_session(handle, "USE supersession_db")
    cache = gateway.feature("completion").completer.cache(gateway.session(handle))
    gate, entered = threading.Event(), threading.Event()
    real = cache._load_columns  # noqa: SLF001

    def held(name):
        entered.set()
        gate.wait(300)
        return real(name)

    monkeypatch.setattr(cache, "_load_columns", held)
    token = gateway.completion_credential(handle)["token"]
    try:
        yield handle, token, gate, entered
    finally:
        gate.set()
        assert cache.wait_prefetched(60)
        gateway.close_session(handle)


def ask(url: str, session, token: str, statement: str, position: int, seq: int):
    body = {"statement": statement, "position": position, "details": True, "wait": False,
            "client": "supersession-editor", "seq": seq}
    return Http(url)("POST", completion_route.ROUTE.format(session=session), body, token=token,
                     headers={"Origin": url})


def test_a_newer_request_ends_the_older_ones_wait_for_a_load_and_does_not_queue_behind_it(route_server, held_load):
    route_server = route_server.test_url
    handle, token, gate, entered = held_load
    older: dict = {}
    waiting = threading.Thread(target=lambda: older.update(
        answer=ask(route_server, handle, token, "SELECT w. FROM ss_orders w", 9, seq=1)))
    waiting.start()
    assert entered.wait(60), "the older request did not start loading the table's columns"
    newer = ask(route_server, handle, token, "SELECT * FROM ", 14, seq=2)   # 60 s timeout: fails if it queued
    assert newer.status == 200, newer.body
    assert "ss_orders" in newer.body["candidates"]
    waiting.join(60)
    assert not waiting.is_alive(), "the older request still waits for the load"
    assert not gate.is_set()   # the load was still held: the older request's wait was ended, not fulfilled
    assert older["answer"].status == 409 and older["answer"].body["error_class"] == "SupersededError", older
    assert "candidates" not in older["answer"].body
    assert older["answer"].headers["x-completion-counts"] == "computed=0, dropped=1"
    assert newer.headers["x-completion-counts"] == "computed=1, dropped=1"
    gate.set()
    after = ask(route_server, handle, token, "SELECT w. FROM ss_orders w", 9, seq=3)
    assert after.status == 200 and set(after.body["candidates"]) == {"ss_id", "ss_amount"}, after.body


def test_the_routes_connection_sends_without_nagles_delay(gateway, route_server):
    """An answer's body goes out right behind its headers: the route sets TCP_NODELAY on its connection, which
    a server binding its socket as Streamlit does leaves off (the body then waited ~40 ms for the browser's
    delayed ACK). Read from the server's side of the connection while it is open."""
    handle = gateway.open_session(name="no-delay")
    try:
        token = gateway.completion_credential(handle)["token"]
        address = route_server.test_url.rsplit(":", 1)
        connection = httpclient.HTTPConnection(address[0].split("//")[1], int(address[1]), timeout=60)
        try:
            connection.request("POST", completion_route.ROUTE.format(session=handle),
                               json.dumps({"statement": "SELECT ", "position": 7, "details": True}),
                               {"Authorization": f"Bearer {token}", "Origin": route_server.test_url,
                                "Content-Type": "application/json"})
            answer = connection.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["candidates"]
            flags = [protocol.transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                     for protocol in route_server.server_state.connections]
            assert flags and all(flags), flags
        finally:
            connection.close()
    finally:
        gateway.close_session(handle)
