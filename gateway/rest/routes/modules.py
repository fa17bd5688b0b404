"""Beyond Flink: a session's modules (FLIP-68): list, load, unload, use. Changes answer the new list."""
from __future__ import annotations

from fastapi import APIRouter, Query, Request

from gateway.rest.deps import feature_call, service_of
from gateway.rest.encoding import to_json
from gateway.rest.schemas import LoadModuleRequest, ModulesResponse, UseModulesRequest

router = APIRouter(tags=["modules"])
MODULES = "/sessions/{session_handle}/modules"


def _modules(service, session_handle: str, full: bool = False) -> dict:
    return {"modules": to_json(feature_call(service, "list_modules", session_handle, full=full))}


@router.get(MODULES, response_model=ModulesResponse)
def list_modules(request: Request, session_handle: str,
                 full: bool = Query(False, description="Also modules loaded but not used.")):
    return _modules(service_of(request), session_handle, full)


@router.post(MODULES, response_model=ModulesResponse)
def load_module(request: Request, session_handle: str, body: LoadModuleRequest):
    service = service_of(request)
    feature_call(service, "load_module", session_handle, body.name, body.properties)
    return _modules(service, session_handle, True)


@router.post(MODULES + "/use", response_model=ModulesResponse)
def use_modules(request: Request, session_handle: str, body: UseModulesRequest):
    service = service_of(request)
    feature_call(service, "use_modules", session_handle, body.names)
    return _modules(service, session_handle, True)


@router.delete(MODULES + "/{name}", response_model=ModulesResponse)
def unload_module(request: Request, session_handle: str, name: str):
    service = service_of(request)
    feature_call(service, "unload_module", session_handle, name)
    return _modules(service, session_handle, True)
