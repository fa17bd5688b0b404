"""The gateway as a service: FLIP-91's REST API over GatewayService (FastAPI + uvicorn)."""
from gateway.rest.app import create_app
from gateway.rest.server import (BackgroundServer, check_bind, check_workbench_bind, process_gateway, serve, serve_in_background,
                                 start_from_config)

__all__ = ["create_app", "serve", "serve_in_background", "start_from_config", "check_bind", "check_workbench_bind", "BackgroundServer",
           "process_gateway"]
