"""Beyond Flink: a session's modules (FLIP-68): list, load, unload, use. Changes answer the new list."""
from __future__ import annotations

from fastapi import APIRouter, Query, Request

from gateway.rest.deps import service_of
from gateway.rest.encoding import to_json
from gateway.features.modules.schemas import LoadModuleRequest, ModulesResponse, UseModulesRequest

router = APIRouter(tags=["modules"])
MODULES = "/sessions/{session_handle}/modules"


def _modules(service, session_handle: str, full: bool = False) -> dict:
    return {"modules": to_json(service.list_modules(session_handle, full=full))}


@router.get(MODULES, response_model=ModulesResponse)
def list_modules(request: Request, session_handle: str,
                 full: bool = Query(False, description="Also modules loaded but not used.")):
    return _modules(service_of(request), session_handle, full)


@router.post(MODULES, response_model=ModulesResponse)
def load_module(request: Request, session_handle: str, body: LoadModuleRequest):
    service = service_of(request)
    service.load_module(session_handle, body.name, body.properties)
    return _modules(service, session_handle, True)


@router.post(MODULES + "/use", response_model=ModulesResponse)
def use_modules(request: Request, session_handle: str, body: UseModulesRequest):
    service = service_of(request)
    service.use_modules(session_handle, body.names)
    return _modules(service, session_handle, True)


@router.delete(MODULES + "/{name}", response_model=ModulesResponse)
def unload_module(request: Request, session_handle: str, name: str):
    service = service_of(request)
    service.unload_module(session_handle, name)
    return _modules(service, session_handle, True)


@router.get("/module-types", response_model=dict)
def list_module_types(request: Request):
    """The module types LOAD MODULE knows (shipped and from entry points), with their properties."""
    return {"moduleTypes": to_json(service_of(request).list_module_types())}


@router.get("/sessions/{session_handle}/functions/{function}/origin", response_model=dict)
def function_origin(request: Request, session_handle: str, function: str):
    """The module (and version) that resolves ``function`` in this session; null when none does."""
    origin = service_of(request).function_origin(session_handle, function)
    return {"origin": to_json(origin) if origin is not None else None}
