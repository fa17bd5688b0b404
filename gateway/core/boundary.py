"""The one boundary: every call of every protocol passes it, by construction.

``boundary`` decorates the service class: for each call the protocols declare it wraps the class's
implementation (a core section) or a dispatcher to the installed feature that implements it (a feature's
protocol), so no call can be left out. Each call then

1. takes its principal: the one ``as_user`` set, else the gateway's default (auth.mode none: the single
   local user, ``LOCAL_PRINCIPAL``); with authentication on, a call without one is refused
   (AuthenticationError, 401). Calls a protocol marks ``@without_principal`` (``authenticate_*``, engine
   info) answer without one;
2. checks the engine (a dead driver answers EngineDownError, 503), except ``@without_engine`` calls;
3. runs with the principal set, and maps errors once: a GatewayError passes, a Spark failure becomes a
   SqlExecutionError with Spark's details, anything else is a bug of ours, logged with its traceback under
   an id while the caller gets InternalError (500) with that id, never the traceback.

``facade`` builds the user-scoped gateway ``as_user`` answers: an object with exactly the protocols' calls,
each run as its principal, and nothing else of the service (REST routes get only this).
"""
from __future__ import annotations

import functools
import inspect
import logging
import uuid
from typing import Any, Callable, Iterator, Optional

from gateway.api.calls import needs_engine, needs_principal, protocol_calls
from gateway.api.identity import Principal
from gateway.api.plugins import FeatureNotInstalledError
from gateway.core.health import ENGINE
from gateway.core.serialization import error_json
from gateway.errors import EngineDownError, GatewayError, InternalError, SqlExecutionError
from gateway.identity import acting_as, current_principal
from gateway.spark.errors import is_engine_failure

log = logging.getLogger(__name__)


def mapped(exc: Exception, doing: str) -> GatewayError:
    """The one decision between a dead engine, a Spark failure and a bug of ours (Spark's errors themselves
    are mapped in gateway/spark/errors.py)."""
    if ENGINE.lost_by(exc):  # the driver JVM is gone: 503, not a SQL error nor a bug
        return EngineDownError(ENGINE.failure or str(exc))
    if is_engine_failure(exc):
        error = error_json(exc)
        if error["error_class"] == "ENGINE_DOWN":  # Spark Connect's server is gone: 503, this call only
            return EngineDownError(f"{doing}: {error['root_cause']}", error_class="ENGINE_DOWN")
        return SqlExecutionError(f"{doing}: {error['root_cause']}", error)
    error_id = uuid.uuid4().hex[:12]
    log.error("%s: internal error %s", doing, error_id, exc_info=exc)
    return InternalError(f"{doing}: internal error {error_id}. This is a bug in the workbench; the server log has "
                         f"its stack trace under this id", error_class="InternalError")


def guarded(name: str, call: Callable, declared: Optional[Callable] = None) -> Callable:
    """``call(self, …)`` behind the boundary; ``declared`` is the protocol's declaration (its markers)."""
    declared = declared if declared is not None else call
    user_needed, engine_needed = needs_principal(declared), needs_engine(declared)

    @functools.wraps(call)
    def boundary_call(self, *args, **kwargs):
        principal = current_principal()
        if principal is None and user_needed:
            principal = self.default_principal(name)
        if engine_needed:
            ENGINE.check()  # the driver JVM died: every call says so (503)
        with acting_as(principal):
            try:
                result = call(self, *args, **kwargs)
            except GatewayError:
                raise
            except Exception as exc:
                raise mapped(exc, f"{name} failed") from exc
        if inspect.isgenerator(result):
            return _each_step(result, name, principal)
        return result

    boundary_call.__boundary__ = name
    return boundary_call


def _each_step(generator: Iterator, name: str, principal: Optional[Principal]) -> Iterator:
    """A generator (``iter_results``) whose every step runs as ``principal``, its errors mapped."""
    while True:
        with acting_as(principal):
            try:
                item = next(generator)
            except StopIteration:
                return
            except GatewayError:
                raise
            except Exception as exc:
                raise mapped(exc, f"{name} failed") from exc
        yield item


def _feature_dispatch(name: str, declared: Callable) -> Callable:
    """A feature's call: the installed feature's implementation, or FeatureNotInstalledError."""

    @functools.wraps(declared)
    def dispatch(self, *args, **kwargs):
        call = self._feature_calls.get(name)
        if call is None:
            raise FeatureNotInstalledError(
                f"{name} is provided by a feature that this gateway does not have (installed features: "
                f"{', '.join(self.features) or 'none'}); install or enable it")
        return call(*args, **kwargs)

    return dispatch


def boundary(core: tuple[type, ...], features: tuple[type, ...] = ()) -> Callable[[type], type]:
    """A class decorator: every call of ``core`` (implemented by the class) and of ``features`` (dispatched
    to the installed features) behind the boundary. A core call the class lacks fails at import."""

    def decorate(cls: type) -> type:
        calls = {}
        for name, declared in protocol_calls(*core).items():
            implementation = getattr(cls, name, None)
            if not callable(implementation):
                raise TypeError(f"{cls.__name__} does not implement {name}, a call of the gateway's protocols")
            calls[name] = guarded(name, implementation, declared)
        for name, declared in protocol_calls(*features).items():
            if name in calls:
                raise TypeError(f"{name} is declared by a core section and by a feature's protocol")
            calls[name] = guarded(name, _feature_dispatch(name, declared), declared)
        for name, call in calls.items():
            setattr(cls, name, call)
        cls.boundary_calls = frozenset(calls)
        return cls

    return decorate


class PluginGateway:
    """The calls of one outside feature's protocol, behind the boundary (``gateway.api(Protocol)``)."""

    def __init__(self, service: Any) -> None:
        self._feature_calls = service._feature_calls
        self.features = service.features
        self.default_principal = service.default_principal


@functools.lru_cache(maxsize=None)
def plugin_gateway_class(protocol: type) -> type:
    calls = {name: guarded(name, _feature_dispatch(name, declared), declared)
             for name, declared in protocol_calls(protocol).items()}
    return type(f"{protocol.__name__}Gateway", (PluginGateway,), calls)


class UserGateway:
    """The gateway as one user sees it: the protocols' calls, each run as ``principal``; nothing else."""

    __slots__ = ("_gateway", "principal")

    def __init__(self, gateway: Any, principal: Optional[Principal]) -> None:
        self._gateway = gateway
        self.principal = principal

    def __repr__(self) -> str:
        who = "nobody" if self.principal is None else repr(self.principal.name)
        return f"{type(self).__name__}({who}{', admin' if self.principal and self.principal.admin else ''})"


def _as_principal(name: str) -> Callable:
    def call(self, *args, **kwargs):
        with acting_as(self.principal):
            result = getattr(self._gateway, name)(*args, **kwargs)
        if inspect.isgenerator(result):
            return _each_step(result, name, self.principal)
        return result

    call.__name__ = call.__qualname__ = name
    return call


def _api_as_principal(self, protocol: type) -> Any:
    """``api(protocol)`` seen by a user: that protocol's calls, run as the same principal."""
    with acting_as(self.principal):
        answering = self._gateway.api(protocol)
    return facade(answering, self.principal, (protocol,))


@functools.lru_cache(maxsize=None)
def facade_class(protocols: tuple[type, ...]) -> type:
    """A ``UserGateway`` class with one method per call of ``protocols`` (signatures and docs of the protocol)."""
    namespace = {}
    for name, declared in protocol_calls(*protocols).items():
        namespace[name] = functools.wraps(declared)(_api_as_principal if name == "api" else _as_principal(name))
    return type("UserGateway", (UserGateway,), namespace)


def facade(gateway: Any, principal: Optional[Principal], protocols: tuple[type, ...]) -> Any:
    return facade_class(protocols)(gateway, principal)
