"""What the boundary needs to know of a protocol's calls: which they are, and the two exceptions.

Every call needs a principal and a live engine, except those a protocol marks:

- ``@without_principal``: the call answers a caller nobody authenticated yet (``authenticate_*``,
  ``as_user``, the engine info REST serves on open paths);
- ``@without_engine``: the call answers while the engine is down (``get_health`` reports it).
"""
from __future__ import annotations

from typing import Callable, Protocol


def without_principal(call: Callable) -> Callable:
    call.__needs_principal__ = False
    return call


def without_engine(call: Callable) -> Callable:
    call.__needs_engine__ = False
    return call


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
