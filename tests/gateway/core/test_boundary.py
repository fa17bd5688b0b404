"""One boundary, by construction: every call of every protocol passes it (principal, engine, errors).

The calls are enumerated from the protocols (``gateway.api`` and the built-in features'), never from a
list kept in step, and each is run through the service class against a stand-in ``self`` that has
nothing of a gateway: what the call does before it reaches the implementation is the boundary's work.
"""
from __future__ import annotations

import inspect

import pytest

from gateway import GatewayService
from gateway.api import LOCAL_PRINCIPAL, needs_engine, needs_principal, protocol_calls
from gateway.contract import GatewayContract
from gateway.core import boundary
from gateway.core.health import EngineState
from gateway.errors import AuthenticationError, EngineDownError, GatewayError, InternalError, SessionNotFoundError
from gateway.identity import acting_as

CALLS = protocol_calls(GatewayContract)


class Refused(AuthenticationError):
    """What the stand-in answers when the boundary asks it for a default principal."""


class StandIn:
    """Not a gateway: only what the boundary itself asks of one."""

    features: dict = {}
    _feature_calls: dict = {}

    def default_principal(self, doing: str):
        raise Refused(f"no principal for {doing}")


def _run(name: str):
    declared = CALLS[name]
    arguments = [None for p in list(inspect.signature(declared).parameters.values())[1:]
                 if p.default is inspect.Parameter.empty]
    result = getattr(GatewayService, name)(StandIn(), *arguments)
    return list(result) if inspect.isgenerator(result) else result


def test_the_protocols_have_every_section():
    assert len(CALLS) >= 80 and {"open_session", "list_tabs", "whoami", "get_health", "list_jars"} <= set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_call_needs_a_principal_unless_its_protocol_says_not(name):
    assert getattr(GatewayService, name).__boundary__ == name
    with acting_as(None):
        if needs_principal(CALLS[name]):
            with pytest.raises(Refused, match=name):
                _run(name)
        else:
            try:
                _run(name)
            except Refused:  # pragma: no cover - the assertion says what went wrong
                pytest.fail(f"{name} needs no principal, yet asked for one")
            except GatewayError:
                pass  # the stand-in has nothing to answer with; the boundary mapped that


@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_call_maps_every_error_to_the_error_family(name, caplog):
    """The stand-in makes every implementation fail with a Python error; what leaves is a GatewayError."""
    with acting_as(LOCAL_PRINCIPAL), caplog.at_level("ERROR", logger="gateway.core.boundary"):
        try:
            _run(name)
        except GatewayError as error:
            if isinstance(error, InternalError):
                assert "Traceback" not in str(error) and "AttributeError" not in str(error)
                assert any(r.exc_info for r in caplog.records), "a bug is logged with its traceback"
        except Exception as error:  # pragma: no cover - the assertion says what went wrong
            pytest.fail(f"{name} let {type(error).__name__} through the boundary: {error}")


ENGINE_FREE_CALLS = {"get_health", "as_user", "authenticate_password", "authenticate_token", "authenticate_trusted",
                     "authenticate_browser_login"}


def test_every_call_but_health_answers_engine_down(monkeypatch):
    down = EngineState()
    down.failure = "the driver stopped (a test's stand-in engine state)"
    monkeypatch.setattr(boundary, "ENGINE", down)
    with acting_as(LOCAL_PRINCIPAL):
        for name, declared in CALLS.items():
            if needs_engine(declared):
                with pytest.raises(EngineDownError, match="a test's stand-in"):
                    _run(name)
            else:
                # health reports the dead engine; the user-scoped gateway and the store's authentication serve
                # every REST request, /v1/health's too, so a dead driver must not answer them "engine down"
                assert name in ENGINE_FREE_CALLS, f"{name} answers without a live engine"
                try:
                    _run(name)  # the stand-in has no health or store: mapped or answered, never "engine down"
                except GatewayError as error:
                    assert not isinstance(error, EngineDownError), name


def test_a_session_lookup_without_a_principal_is_refused(gateway, session):
    """Fail closed in core too: sessions.py never answers "every session" to a caller it does not know."""
    with acting_as(None):
        with pytest.raises(AuthenticationError, match="finding a session needs a user"):
            gateway.sessions.get(session)
        with pytest.raises(AuthenticationError, match="opening a session needs a user"):
            gateway.sessions.open("nobody's")
    assert gateway.sessions.get(session).handle == session


def test_the_user_scoped_gateway_has_only_the_protocols_calls(gateway, session):
    from gateway import Principal

    stranger = gateway.as_user(Principal("boundary-stranger"))
    public = {name for name in dir(stranger) if not name.startswith("_")} - {"principal"}
    assert public == set(CALLS)
    for internal in ("sessions", "operations", "config", "root", "store", "features"):
        assert not hasattr(stranger, internal), internal
    with pytest.raises(SessionNotFoundError):
        stranger.heartbeat(session)


def test_a_feature_must_implement_exactly_its_protocol(gateway):
    from typing import Protocol

    from gateway.api import Feature
    from gateway.errors import ConfigurationError

    class HalfApi(Protocol):
        def one(self) -> int: ...

        def two(self) -> int: ...

    class HalfFeature(Feature):
        name = "half"
        api = HalfApi

        def calls(self):
            return {"one": lambda: 1, "three": lambda: 3}

    with pytest.raises(ConfigurationError, match=r"missing \['two'\], not declared \['three'\]"):
        gateway._plug(HalfFeature())
    assert "half" not in gateway.features
