"""Module types by name: the shipped ones plus those other packages declare as entry points.

A package adds a type without touching the gateway by declaring, in its pyproject.toml::

    [project.entry-points."spark_sql_workbench.modules"]
    shout = "my_package:ShoutModuleFactory"

The entry point's name is the type; its object is a ModuleFactory subclass or instance.
"""
from __future__ import annotations

import logging
import threading
from importlib.metadata import entry_points
from typing import Optional

from gateway.errors import InvalidRequestError
from gateway.features.modules.base import ModuleFactory, ModuleTypeInfo

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "spark_sql_workbench.modules"


class FactoryRegistry:
    def __init__(self, factories: Optional[list[ModuleFactory]] = None, discover: bool = True) -> None:
        self._factories: dict[str, ModuleFactory] = {}
        self._lock = threading.Lock()
        self._discovered = not discover
        for factory in factories or []:
            self.register(factory)

    def register(self, factory: ModuleFactory) -> None:
        if isinstance(factory, type):
            factory = factory()
        if not isinstance(factory, ModuleFactory) or not factory.type:
            raise TypeError(f"{factory!r} is not a ModuleFactory with a type")
        with self._lock:
            self._factories[factory.type.lower()] = factory

    def _discover(self) -> None:
        """Load the entry points once; a broken plugin is logged and skipped, never fatal."""
        if self._discovered:
            return
        self._discovered = True
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                factory = point.load()
                factory = factory() if isinstance(factory, type) else factory
                if not isinstance(factory, ModuleFactory):
                    raise TypeError(f"{point.value} is not a ModuleFactory")
                if not factory.type:
                    factory.type = point.name
                if factory.type.lower() != point.name.lower():
                    raise TypeError(f"its type {factory.type!r} differs from the entry point name")
                with self._lock:
                    self._factories.setdefault(point.name.lower(), factory)
            except Exception as exc:  # noqa: BLE001 - one broken plugin must not stop the gateway
                log.warning("module type %r from entry point %s is skipped: %s", point.name, point.value, exc)

    def get(self, type_name: str) -> ModuleFactory:
        self._discover()
        factory = self._factories.get(type_name.lower())
        if factory is None:
            raise InvalidRequestError(
                f"unknown module type {type_name!r}; known types: {', '.join(self.types())}. "
                f"Give one with WITH ('type'='…'), or install a package that declares the type "
                f"as a '{ENTRY_POINT_GROUP}' entry point")
        return factory

    def types(self) -> list[str]:
        self._discover()
        return sorted(self._factories)

    def infos(self) -> list[ModuleTypeInfo]:
        return [self._factories[t].info() for t in self.types()]

    def validate(self, type_name: str, properties: dict[str, str]) -> tuple[ModuleFactory, dict[str, str]]:
        """The factory and the properties with defaults; unknown or missing properties are errors."""
        factory = self.get(type_name)
        known = {p.name.lower(): p for p in factory.properties}
        unknown = sorted(k for k in properties if k not in known)
        if unknown:
            allowed = ", ".join(sorted(known)) or "none"
            raise InvalidRequestError(
                f"module type {factory.type} does not know the propert{'ies' if len(unknown) > 1 else 'y'} "
                f"{', '.join(unknown)}; its properties: {allowed}")
        missing = sorted(p.name for p in factory.properties if p.required and p.name.lower() not in properties)
        if missing:
            helps = "; ".join(f"'{p.name}': {p.help}" for p in factory.properties if p.name in missing)
            raise InvalidRequestError(
                f"module type {factory.type} needs the propert{'ies' if len(missing) > 1 else 'y'} "
                f"{', '.join(missing)} ({helps}); add WITH ('{missing[0]}'='…')")
        values = {p.name.lower(): p.default for p in factory.properties if p.default is not None}
        values.update(properties)
        return factory, values
