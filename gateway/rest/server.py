"""Running the app: standalone (``python -m gateway serve``) or in a thread beside Streamlit.

A non-loopback address without a token is refused: the API runs any SQL with the process's rights.
"""
from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import Callable, Optional

import uvicorn

from gateway import ConfigurationError, GatewayContract
from gateway.config import is_loopback
from gateway.rest.app import create_app

log = logging.getLogger(__name__)
START_TIMEOUT_S = 30.0


def check_bind(host: str, token: Optional[str], auth: str = "none") -> None:
    if not is_loopback(host) and not token and auth == "none":
        raise ConfigurationError(
            f"refusing to serve the REST API on {host}, a non-loopback address, without a token: anyone who "
            f"reaches it could run SQL as this process. Set auth.mode (WORKBENCH_AUTH_MODE) to builtin, proxy "
            f"or oidc for per-user tokens, or rest.token (WORKBENCH_REST_TOKEN) to a long random secret, or "
            f"bind 127.0.0.1")


def check_workbench_bind(host: str, auth: str) -> None:
    """The UI (Streamlit) on a non-loopback address needs a login: auth.mode other than none."""
    if not is_loopback(host) and auth == "none":
        raise ConfigurationError(
            f"refusing to serve the workbench on {host}, a non-loopback address, without authentication: anyone "
            f"who reaches it could run SQL and read files as this process. Set auth.mode (WORKBENCH_AUTH_MODE) "
            f"to builtin, proxy or oidc (docs/users.md), or bind 127.0.0.1")


def _uvicorn_config(service: GatewayContract, host: str, port: int, token: Optional[str]) -> uvicorn.Config:
    check_bind(host, token, str(service.get_setting("auth.mode")).strip().lower())
    return uvicorn.Config(create_app(service, token, bind_host=host), host=host, port=port, log_level="warning",
                          access_log=False, lifespan="off", timeout_keep_alive=30)


def serve(service: GatewayContract, host: str = "127.0.0.1", port: int = 8083, token: Optional[str] = None) -> None:
    """Serve in this thread until interrupted (Ctrl-C)."""
    uvicorn.Server(_uvicorn_config(service, host, port, token)).run()


class BackgroundServer:
    """A uvicorn server in a daemon thread; ``stop()`` ends it and waits for the thread."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread) -> None:
        self._server = server
        self._thread = thread

    @property
    def port(self) -> int:
        for sock in (getattr(s, "sockets", None) or [] for s in self._server.servers):
            for entry in sock:
                return entry.getsockname()[1]
        return self._server.config.port

    @property
    def url(self) -> str:
        host = self._server.config.host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self._server.should_exit

    def stop(self, timeout_s: float = 10.0) -> None:
        self._server.should_exit = True
        self._thread.join(timeout_s)


def check_port_free(host: str, port: int) -> None:
    """Refuse a REST port another process listens on before Spark starts (the launcher): a start of half a
    minute, then exit 2, told the same thing. The bind after Spark still decides (the port may go meanwhile)."""
    import socket

    if not port:  # 0: a free one is picked
        return
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: TIME_WAIT is no refusal
            probe.bind((host, port))
    except OSError as exc:
        raise ConfigurationError(f"the REST API did not start on {host}:{port} (is the port in use? {exc.strerror}); "
                                 f"stop what listens there or set rest.port (WORKBENCH_REST_PORT)") from None


def serve_in_background(service: GatewayContract, host: str = "127.0.0.1", port: int = 8083,
                        token: Optional[str] = None) -> BackgroundServer:
    """Start serving in a thread and return once the port accepts connections (port 0: a free one)."""
    server = uvicorn.Server(_uvicorn_config(service, host, port, token))
    thread = threading.Thread(target=server.run, name=f"gateway-rest-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    if not server.started:
        server.should_exit = True
        thread.join(5)
        raise ConfigurationError(f"the REST API did not start on {host}:{port} (is the port in use?)")
    handle = BackgroundServer(server, thread)
    _served[service] = handle
    return handle


def start_from_config(service: GatewayContract) -> Optional[BackgroundServer]:
    """What app.py calls: serve beside the UI when rest.enabled, else nothing."""
    setting = service.get_setting
    if not setting("rest.enabled"):
        return None
    handle = serve_in_background(service, setting("rest.host"), setting("rest.port"), setting("rest.token") or None)
    log.info("REST API on %s", handle.url)
    return handle


_process_lock = threading.Lock()
_process_gateway: Optional[GatewayContract] = None
# Each gateway's REST API served in this process: the SQL editor completes through it (completion_credential).
_served: "weakref.WeakKeyDictionary[object, BackgroundServer]" = weakref.WeakKeyDictionary()


def rest_url_of(service) -> Optional[str]:
    """Where this process serves ``service``'s REST API (``serve_in_background``), or None (rest.enabled off)."""
    server = _served.get(service)
    return server.url if server is not None and server.running else None


def process_gateway(factory: Callable[[], GatewayContract]) -> GatewayContract:
    """The process's one gateway, built by ``factory`` on the first call, its REST API started with it
    when rest.enabled. The launcher calls it at start, so the API answers before any browser opens the
    UI; app.py calls it for the UI, and both get the same gateway and sessions."""
    global _process_gateway
    with _process_lock:
        if _process_gateway is None:
            service = factory()
            start_from_config(service)  # a port in use fails here, not later and silently
            _process_gateway = service
        return _process_gateway
