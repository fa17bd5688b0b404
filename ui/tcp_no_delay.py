"""TCP_NODELAY on Streamlit's connections to the browser.

Streamlit 1.67 binds its listening socket itself as ``socket.socket(family)``, without naming TCP (protocol 0),
and asyncio sets TCP_NODELAY only on sockets whose protocol says TCP: every connection of the server (the page's
WebSocket, the completion route) kept Nagle's algorithm on. A small message written while the one before it is
not acknowledged yet then waits for the browser's delayed ACK, up to ~40 ms on 127.0.0.1: a script run's deltas
are such messages, one after another. Here the option is set on the running session's connection and on the
listening socket (on Linux a connection accepted later inherits it from the listener). Everything reached here
is private to Streamlit, uvicorn or asyncio: when it moved, nothing is set and the log says so once."""
from __future__ import annotations

import logging
import socket
from typing import Optional

log = logging.getLogger(__name__)


def set_no_delay(sock) -> bool:
    """TCP_NODELAY on one TCP socket (a listener's is inherited by the connections it accepts); whether it is on."""
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return False   # a Unix socket has no Nagle to turn off
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))


def transport_of(receive) -> Optional[object]:
    """The asyncio transport behind an ASGI ``receive`` of uvicorn's (a bound method of its protocol object)."""
    return getattr(getattr(receive, "__self__", None), "transport", None)


def no_delay_on(transport) -> bool:
    """TCP_NODELAY on a connection's socket and on the listening sockets of the server that accepted it."""
    if transport is None:
        return False
    on = set_no_delay(transport.get_extra_info("socket"))
    server = getattr(transport, "_server", None)   # asyncio's selector transport keeps its Server
    for listener in getattr(server, "sockets", None) or ():
        set_no_delay(listener)
    return on


_unavailable_logged = False


def no_delay_for_this_session() -> bool:
    """Turn Nagle off for the browser session whose script is running (and for later connections); whether it is
    off. Called from the app's script once per browser session."""
    global _unavailable_logged
    try:
        import streamlit as st
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        info = st.runtime.get_instance()._session_mgr.get_active_session_info(ctx.session_id)
        return no_delay_on(transport_of(info.client._websocket._receive))
    except Exception:  # noqa: BLE001 - AppTest (no server) or moved internals: messages as before, only later
        if not _unavailable_logged:
            _unavailable_logged = True
            log.info("TCP_NODELAY not set on Streamlit's connections (no server or its internals moved): "
                     "small messages may wait for the browser's delayed ACK", exc_info=True)
        return False
