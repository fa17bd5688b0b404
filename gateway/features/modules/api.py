"""The modules feature's API: its protocol and value types, what a front end may use of it.

Front ends reach it through the gateway (``gateway.api(ModulesApi)``, or the same calls on the gateway,
which lists the built-in features' protocols in ``GatewayContract``); its REST routes are in ``rest.py``.
"""
from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from gateway.api.calls import loads_code, replayed_as, sql_string
from gateway.models import FunctionOrigin, ModuleInfo, ModuleTypeInfo, PropertySpec
from gateway.handles import SessionHandle

__all__ = ['FunctionOrigin', 'ModuleInfo', 'ModuleTypeInfo', 'PropertySpec', 'SessionHandle', 'ModulesApi']


@runtime_checkable
class ModulesApi(Protocol):
    """Pluggable modules and the function resolution order (FLIP-68)."""

    def list_modules(self, session: SessionHandle, full: bool = False) -> list[ModuleInfo]:
        """Used modules in resolution order (``full``: then the unused ones)."""

    @loads_code
    @replayed_as(lambda a, _: f"LOAD MODULE {a['name']}" + (" WITH (" + ", ".join(
        f"{sql_string(k)}={sql_string(v)}" for k, v in a["properties"].items()) + ")" if a["properties"] else ""))
    def load_module(self, session: SessionHandle, name: str, properties: Optional[dict] = None) -> ModuleInfo:
        """LOAD MODULE: create a module (type = ``properties['type']``, else the name) and append it."""

    @replayed_as(lambda a, _: f"UNLOAD MODULE {a['name']}")
    def unload_module(self, session: SessionHandle, name: str) -> None:
        """UNLOAD MODULE: the others keep their relative order."""

    @replayed_as(lambda a, _: "USE MODULES " + ", ".join(str(n) for n in a["names"]))
    def use_modules(self, session: SessionHandle, names: list[str]) -> None:
        """USE MODULES: exactly these loaded modules, in this order; the rest stay loaded, unused."""

    def list_module_types(self) -> list[ModuleTypeInfo]:
        """Module types LOAD MODULE knows (shipped and from entry points), with their properties."""

    def function_origin(self, session: SessionHandle, name: str) -> Optional[FunctionOrigin]:
        """The module (and version) that resolves a function name in this session, if any."""
