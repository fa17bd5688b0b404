"""GET /info and /api_versions."""
from __future__ import annotations

from fastapi import APIRouter, Request

from gateway import InvalidRequestError

from gateway.version import __version__
from gateway.rest.deps import service_of
from gateway.rest.encoding import JSONBytes, to_json
from gateway.rest.schemas import ApiVersionsResponse, HealthResponse, InfoResponse, SettingResponse

router = APIRouter(tags=["utilities"])
v2_router = APIRouter(tags=["utilities"])
API_VERSIONS = ["V1", "V2", "V3", "V4"]  # Flink's SQL Gateway REST API versions served


@router.get("/info", response_model=InfoResponse)
def get_info(request: Request):
    info = service_of(request).get_gateway_info()
    return {"productName": info.get("product", "Spark SQL Workbench"), "version": __version__,
            "sparkVersion": info.get("spark_version", "")}


@router.get("/health", response_model=HealthResponse,
            responses={503: {"model": HealthResponse, "description": "The Spark driver JVM has stopped."}})
def get_health(request: Request):
    """Beyond Flink: UP, or DOWN with HTTP 503 once the Spark driver JVM has stopped (for a supervisor or a
    load balancer); the driver heap's figures."""
    health = service_of(request).get_health()
    return JSONBytes(to_json(health), status_code=200 if health["status"] == "UP" else 503)


@router.get("/api_versions", response_model=ApiVersionsResponse)
def get_api_versions():
    return {"versions": API_VERSIONS}


@v2_router.get("/info/details", response_model=dict)
def get_gateway_info(request: Request):
    """Beyond Flink: every fact /info summarises (Spark master, metastore, data directory, features)."""
    return JSONBytes(to_json(service_of(request).get_gateway_info()))


@v2_router.get("/settings/{key}", response_model=SettingResponse)
def get_setting(request: Request, key: str):
    """Beyond Flink: one workbench setting; secrets (the REST token) are never answered."""
    if key in SECRET_SETTINGS:
        raise InvalidRequestError(f"the setting {key} is a secret and is not answered over HTTP")
    return {"key": key, "value": service_of(request).get_setting(key)}


SECRET_SETTINGS = frozenset({"rest.token", "metastore.jdbc_password"})
