"""The module contract (FLIP-68): a Module provides functions; a ModuleFactory makes modules of one type.

A module never touches Spark until the ModuleManager asks it to register one of its functions as
the winner of that name in a session (see manager.py for how resolution order maps onto Spark).
"""
from __future__ import annotations

import abc
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from gateway.errors import InvalidRequestError, ObjectNotFoundError
from gateway.models import FunctionOrigin, PropertySpec, ModuleInfo, ModuleTypeInfo  # noqa: F401  (value types of the contract)


@dataclass
class FunctionDefinition:
    """One function of a module, as the module defines it (not yet registered anywhere)."""

    name: str
    module: str
    module_type: str
    version: str
    kind: str                    # builtin | python | jar | sql (or a plugin's own kind)
    implementation: str
    description: str = ""
    signature: str = ""
    # Registers this function under ``name`` in a SparkSession; None for built-ins.
    register: Optional[Callable[[Any], None]] = field(default=None, repr=False, compare=False)
    # True when Spark can let this function shadow a built-in of the same name.
    can_shadow_builtin: bool = True

    @property
    def origin(self) -> FunctionOrigin:
        return FunctionOrigin(self.module, self.version, self.implementation)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Module(abc.ABC):
    """A set of functions under one name. Names are case-insensitive."""

    type: str = ""

    def __init__(self, name: str, version: str, properties: Optional[dict[str, str]] = None) -> None:
        self.name = name.lower()
        self.version = str(version)
        self.properties = dict(properties or {})

    @abc.abstractmethod
    def list_functions(self) -> list[str]:
        """Lower-case names of the functions this module provides."""

    @abc.abstractmethod
    def _definition(self, name: str) -> FunctionDefinition:
        """The definition of one function this module provides (name already lower-case)."""

    def has_function(self, name: str) -> bool:
        return name.lower() in self._function_names()

    def _function_names(self) -> frozenset:
        cached = getattr(self, "_names_cache", None)
        if cached is None:
            cached = frozenset(n.lower() for n in self.list_functions())
            self._names_cache = cached
        return cached

    def get_function_definition(self, name: str, version: Optional[str] = None) -> FunctionDefinition:
        """The definition of ``name``; ``version`` (if given) must be this module's version."""
        if version is not None and str(version) != self.version:
            raise InvalidRequestError(
                f"module {self.name} is at version {self.version}, not {version}: load the module at "
                f"version {version} (for example under another name) to use that definition")
        key = name.lower()
        if key not in self._function_names():
            raise ObjectNotFoundError(f"module {self.name} has no function {name}; it has "
                                      f"{len(self._function_names())} functions (SHOW FULL MODULES, "
                                      f"or the Modules page, lists them)")
        return self._definition(key)

    def close(self) -> None:
        """Release what the module holds (called when it is unloaded)."""


class ModuleFactory(abc.ABC):
    """Makes modules of one ``type``; found through the ``spark_sql_workbench.modules`` entry points."""

    type: str = ""
    description: str = ""
    properties: tuple[PropertySpec, ...] = ()

    @abc.abstractmethod
    def create_module(self, name: str, properties: dict[str, str], spark) -> Module:
        """A new module named ``name`` from validated properties (``type`` removed).

        ``spark`` is the session the module is loaded into, for types that must talk to Spark
        (a jar is added with ``ADD JAR``). Raise InvalidRequestError for bad property values.
        """

    def info(self) -> ModuleTypeInfo:
        return ModuleTypeInfo(self.type, self.description, list(self.properties))
