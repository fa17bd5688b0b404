"""What the boundary needs to know of a protocol's calls: which they are, and the two exceptions.

Every call needs a principal and a live engine, except those a protocol marks:

- ``@without_principal``: the call answers a caller nobody authenticated yet (``authenticate_*``,
  ``as_user``, the engine info REST serves on open paths);
- ``@without_engine``: the call answers while the engine is down (``get_health`` reports it).

and what a non-admin may not do with it when authentication is on (``gateway/core/restrictions.py`` reads
these marks; it names no call):

- ``@loads_code``: the call puts code into the driver (a jar, a module, a function from a class): for admins
  when ``auth.admin_only_code`` is on; ``@loads_code(uri="p")`` also refuses a local path in parameter ``p``;
- ``@admin_only``: the call is for admins, whatever the settings;

and what a restored session replays (``gateway/core/session_journal.py`` reads this mark; it names no call):

- ``@replayed_as(render)``: the call changes only the session's own state, as the statement
  ``render(arguments, result)`` does; the session journal records that statement and replays it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol


def without_principal(call: Callable) -> Callable:
    call.__needs_principal__ = False
    return call


def without_engine(call: Callable) -> Callable:
    call.__needs_engine__ = False
    return call


@dataclass(frozen=True)
class CodeLoading:
    """How a ``@loads_code`` call loads code: ``uri`` names its parameter that holds the code's URI, if any."""

    uri: Optional[str] = None


def loads_code(call: Optional[Callable] = None, *, uri: Optional[str] = None):
    """Mark a protocol call that puts code into the driver (``@loads_code`` or ``@loads_code(uri="uri")``)."""

    def mark(function: Callable) -> Callable:
        function.__loads_code__ = CodeLoading(uri)
        return function

    return mark(call) if call is not None else mark


def admin_only(call: Callable) -> Callable:
    """Mark a protocol call that only admins may make when authentication is on."""
    call.__admin_only__ = True
    return call


def replayed_as(render: Callable[[dict, Any], str]):
    """Mark a protocol call whose effect a restored session replays as a statement: ``render`` gets the
    call's arguments by name (defaults applied) and its result, and returns the statement's text."""

    def mark(function: Callable) -> Callable:
        function.__replayed_as__ = render
        return function

    return mark


def replay_statement(call: Optional[Callable]) -> Optional[Callable[[dict, Any], str]]:
    return getattr(call, "__replayed_as__", None)


def sql_string(value: Any) -> str:
    """``value`` as a Spark SQL string literal (backslash and quote escaped), for ``@replayed_as`` renderers."""
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def code_loading(call: Callable) -> Optional[CodeLoading]:
    return getattr(call, "__loads_code__", None)


def is_admin_only(call: Callable) -> bool:
    return getattr(call, "__admin_only__", False)


def needs_principal(call: Callable) -> bool:
    return getattr(call, "__needs_principal__", True)


def needs_engine(call: Callable) -> bool:
    return getattr(call, "__needs_engine__", True)


def protocol_calls(*protocols: type) -> dict[str, Callable]:
    """Every call the protocols declare (public functions, bases first), by name."""
    calls: dict[str, Callable] = {}
    for protocol in protocols:
        for cls in reversed(protocol.__mro__):
            if cls in (object, Protocol) or cls.__module__ == "typing":
                continue
            for name, value in vars(cls).items():
                if not name.startswith("_") and callable(value):
                    calls[name] = value
    return calls
