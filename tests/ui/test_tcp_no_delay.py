"""TCP_NODELAY on Streamlit's connections (ui/tcp_no_delay.py), over real sockets: a uvicorn server on a socket
bound by Streamlit's own ``_bind_socket`` (as ``streamlit run`` does), a real HTTP client and a real WebSocket
client on 127.0.0.1."""
from __future__ import annotations

import asyncio
import json
import socket
import threading
import urllib.request

import pytest
import uvicorn
from streamlit.web.server.starlette.starlette_server import _bind_socket
from websockets.sync.client import connect

from ui.tcp_no_delay import no_delay_on, transport_of


def _delay_state(transport) -> int:
    return transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


async def _app(scope, receive, send):
    """Says whether the connection had TCP_NODELAY when it came, and after ``no_delay_on`` (when asked)."""
    if scope["type"] == "lifespan":
        message = await receive()
        await send({"type": message["type"] + ".complete"})
        return
    transport = transport_of(receive)
    state = {"before": _delay_state(transport)}
    if scope["path"] == "/set":
        state["set"] = no_delay_on(transport)
    state["after"] = _delay_state(transport)
    body = json.dumps(state).encode()
    if scope["type"] == "websocket":
        await receive()   # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": body.decode()})
        await send({"type": "websocket.close"})
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture
def streamlit_bound_server():
    """A uvicorn server (as Streamlit configures it: its sans-I/O websockets) on a socket Streamlit bound."""
    sock = _bind_socket("127.0.0.1", 0, 16)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(_app, ws="websockets-sansio", log_level="warning", lifespan="on"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(sockets=[sock]),), daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        thread.join(0.01)
    assert server.started, "the test server did not start"
    yield port
    server.should_exit = True
    thread.join(10)
    sock.close()


def _get(port: int, path: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        return json.loads(answer.read())


def test_streamlits_socket_leaves_nagle_on_and_no_delay_on_turns_it_off_for_this_and_later_connections(
        streamlit_bound_server):
    port = streamlit_bound_server
    # The premise: a connection to a socket Streamlit bound comes with Nagle on (asyncio did not turn it off).
    assert _get(port, "/look") == {"before": 0, "after": 0}
    # The call turns it off on its connection...
    assert _get(port, "/set") == {"before": 0, "set": True, "after": 1}
    # ...and on the listener: a connection accepted afterwards comes with it off (Linux inherits it).
    assert _get(port, "/look")["before"] == 1


def test_a_websocket_connection_of_uvicorns_is_reached_too(streamlit_bound_server):
    port = streamlit_bound_server
    with connect(f"ws://127.0.0.1:{port}/set") as ws:
        state = json.loads(ws.recv(timeout=10))
    assert state == {"before": 0, "set": True, "after": 1}


def test_no_transport_sets_nothing():
    assert no_delay_on(None) is False
    assert transport_of(lambda: None) is None
