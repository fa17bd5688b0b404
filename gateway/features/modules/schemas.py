"""The modules feature's REST bodies: the module list, LOAD MODULE and USE MODULES (served by ``rest.py`` beside it)."""
from __future__ import annotations

from typing import Any, Optional

from gateway.rest.schemas import Body


class ModulesResponse(Body):
    modules: list[Any]


class LoadModuleRequest(Body):
    name: str
    properties: Optional[dict[str, str]] = None


class UseModulesRequest(Body):
    names: list[str]
