"""The workbench process, as ./workbench starts it: with rest.enabled the gateway and its REST API
start at once in the background (they answer before any browser opens the UI), beside Streamlit's
server in this same process, whose app.py takes that same gateway (gateway.rest.process_gateway)
and shows the editor while Spark starts. A gateway that cannot start (a REST port in use, a data
directory held by another process) ends the process with exit code 2, saying why.

    .venv/bin/python launch.py [streamlit options, e.g. --server.port 8501]
"""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def server_address(argv: list[str]) -> str | None:
    """The --server.address given to Streamlit (either form), or None."""
    for index, arg in enumerate(argv):
        if arg == "--server.address" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--server.address="):
            return arg.split("=", 1)[1]
    return None


def loopback_hosts_only(address: str, argv: list[str]) -> list[str]:
    """On a loopback address, Streamlit's ``server.allowedHosts`` flags for the loopback names only: its
    WebSocket, which carries the whole app, then refuses a foreign Host header (how DNS rebinding reaches a
    loopback server), as the REST API does. Nothing when the user set the option, or on another address
    (served with a login, under whatever names the deployment gives it)."""
    from gateway.config import is_loopback
    from gateway.rest.authn import LOOPBACK_NAMES

    given = any(arg.split("=", 1)[0] == "--server.allowedHosts" for arg in argv)
    if given or os.environ.get("STREAMLIT_SERVER_ALLOWED_HOSTS") or not is_loopback(address):
        return []
    return [flag for name in sorted(LOOPBACK_NAMES) for flag in ("--server.allowedHosts", name)]


def start_gateway(process_gateway, factory) -> None:
    """Build the process's gateway and its REST API; if it cannot start, end the process saying why
    (Streamlit alone, without the API it was asked for, would hide the failure)."""
    from gateway import ConfigurationError

    try:
        process_gateway(factory)
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        os._exit(2)


def main(argv: list[str]) -> int:
    from gateway import ConfigurationError, GatewayService, load_config
    from gateway.config import auth_mode
    from gateway.rest import check_workbench_bind, process_gateway
    from gateway.rest.server import check_port_free

    try:
        config = load_config()
        address = server_address(argv)
        if address is None:  # Streamlit alone would bind every interface: loopback unless told otherwise
            address = "127.0.0.1"
            argv = [*argv, "--server.address", address]
        check_workbench_bind(address, auth_mode(config))  # before Spark starts
        argv = [*argv, *loopback_hosts_only(address, argv)]
        if config["rest.enabled"]:
            check_port_free(config["rest.host"], int(config["rest.port"]))  # before Spark starts, as the bind above
            print("Starting Spark and the REST API (rest.enabled) …", flush=True)
            threading.Thread(target=start_gateway, args=(process_gateway, GatewayService),
                             name="gateway-start", daemon=True).start()
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web import cli

    # app.py names its pages (st.navigation): pages/ is no automatic navigation, from the first visit on
    # (app.py says so too, but only once it ran; see the note there).
    PagesManager.uses_pages_directory = False
    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
