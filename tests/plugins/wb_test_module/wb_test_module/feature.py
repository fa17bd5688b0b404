"""A feature from outside the gateway: the statement ``ECHO 'text'``, a setting, per-session state,
its own protocol (``EchoApi``) and a REST route — through the same entry point group as the built-ins.
It imports only the plugin API (``gateway.api``) and the REST helper every route uses (``service_of``)."""
from __future__ import annotations

from typing import Protocol

from fastapi import APIRouter, Request

from gateway.rest.deps import service_of

try:
    from gateway.api import Access, Feature, Setting, StatementSpec
    OPEN_TO_USERS = {"access": Access.USERS}  # every signed-in user may run ECHO (undeclared: admins only)
except ImportError:  # a checkout from before gateway.api.Access: the shared venv installs one copy of this plugin
    try:
        from gateway.api import Feature, Setting, StatementSpec
    except ImportError:
        from gateway.config import Setting
        from gateway.features import Feature, StatementSpec
    OPEN_TO_USERS = {}


class EchoApi(Protocol):
    """The feature's calls: what a front end reaches with ``gateway.api(EchoApi)``."""

    def echo_count(self, session) -> int:
        """How many ECHO statements the session ran."""

ECHO = "WB_ECHO"


class EchoFeature(Feature):
    name = "wb_echo"
    description = "ECHO 'text' answers the text (with a prefix), and counts the echoes of each session."
    settings = (Setting("wb_echo.prefix", "", "Put before every echoed text."),)
    statements = (StatementSpec(ECHO, (("ECHO",),), returns_rows=True, read_only=True, **OPEN_TO_USERS),)
    api = EchoApi

    def handlers(self):
        return {ECHO: self.echo}

    def open_session(self, session) -> None:
        session.extensions[self.name] = {"echoes": 0}

    def echo(self, session, statement):
        text = statement.text.strip().rstrip(";")[len("ECHO"):].strip().strip("'")
        self.state(session)["echoes"] += 1
        return session.spark.createDataFrame([(self.host.config["wb_echo.prefix"] + text,)], "echo STRING")

    def calls(self):
        return {"echo_count": self.echo_count}

    def echo_count(self, session) -> int:
        return self.state(self.host.session(session))["echoes"]

    def rest_routers(self):
        router = APIRouter(tags=["wb-test-plugin"])

        @router.get("/sessions/{session_handle}/echo-count")
        def echo_count(request: Request, session_handle: str):
            # The user-scoped gateway (never request.app.state.service): another user's session is not found.
            return {"echoes": _echoes(service_of(request)).echo_count(session_handle)}

        return [router]


def _echoes(gateway) -> EchoApi:
    """The feature's protocol on the gateway; a gateway from before ``gateway.api`` answered it by name."""
    api = getattr(gateway, "api", None)
    return api(EchoApi) if api is not None else gateway
