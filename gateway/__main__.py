"""``python -m gateway serve [--host 127.0.0.1] [--port 8083] [--config workbench.toml]``, and the
management of users and API tokens (``users …``, ``tokens …``: gateway/accounts_cli.py)."""
from __future__ import annotations

import argparse
import gc
import logging
import signal
import sys

from gateway import accounts_cli
from gateway.config import auth_mode, load_config
from gateway.errors import ConfigurationError, GatewayError


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway", description="Spark SQL Workbench gateway")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the REST API (FLIP-91) until interrupted")
    serve.add_argument("--host", help="address to bind (default rest.host, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default rest.port, 8083)")
    serve.add_argument("--config", help="configuration file (default $WORKBENCH_CONFIG, else the project's workbench.toml)")
    serve.add_argument("--once", action="store_true",
                       help="run one server process: when its Spark driver dies it exits with code 75 instead of "
                            "starting a new one (for a supervisor of your own)")
    accounts_cli.add_parsers(commands)
    args = parser.parse_args(argv)
    if args.command in ("users", "tokens"):
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        try:
            return accounts_cli.run(args, load_config(args.config))
        except GatewayError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
        host = args.host or config["rest.host"]
        port = config["rest.port"] if args.port is None else args.port
        token = config["rest.token"] or None
        from gateway.rest.server import check_bind, serve as serve_forever
        check_bind(host, token, auth_mode(config))  # before Spark starts: a refused bind should fail in a second
        if not args.once:  # like ./workbench: a new process when the driver died (gateway/supervisor.py)
            from gateway.supervisor import supervise
            return supervise([sys.executable, "-m", "gateway", *(argv if argv is not None else sys.argv[1:]), "--once"],
                             int(config["health.max_restarts"]), float(config["health.restart_reset_after_s"]))
        from gateway.core.service import GatewayService
        service = GatewayService(config)
        # A server process: what exists now lives for good, so keep it out of collections, and let
        # result pages (tens of thousands of new lists each) build without a collection every 700.
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        print(f"Spark SQL Workbench gateway: REST API on http://{host}:{port} "
              f"({_auth_note(config, token)}); Ctrl-C stops it", flush=True)
        # uvicorn stops serving on SIGTERM, then raises SIGTERM again: with the default handler the process died
        # there, before the shutdown below (sessions, store, spark.class_archive's dump at the stop). Exit instead.
        signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
        try:
            serve_forever(service, host, port, token)
        finally:
            service.shutdown()
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _auth_note(config, token) -> str:
    mode = auth_mode(config)
    if mode != "none":
        return f"auth.mode {mode}: per-user bearer tokens required"
    return "bearer token required" if token else "no token"


if __name__ == "__main__":
    sys.exit(main())
