"""The workbench process, as ./workbench starts it: with rest.enabled the gateway and its REST API
first (they answer before any browser opens the UI), then Streamlit's server in this same process,
whose app.py takes that same gateway (gateway.rest.process_gateway).

    .venv/bin/python launch.py [streamlit options, e.g. --server.port 8501]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    from gateway import ConfigurationError, GatewayService, load_config
    from gateway.rest import process_gateway

    try:
        if load_config()["rest.enabled"]:
            print("Starting Spark and the REST API (rest.enabled) …", flush=True)
            process_gateway(GatewayService)
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
