"""GET /info and /api_versions."""
from __future__ import annotations

from fastapi import APIRouter, Request

from gateway import __version__
from gateway.rest.deps import service_of
from gateway.rest.schemas import ApiVersionsResponse, InfoResponse

router = APIRouter(tags=["utilities"])
API_VERSIONS = ["V1", "V2"]


@router.get("/info", response_model=InfoResponse)
def get_info(request: Request):
    info = service_of(request).get_gateway_info()
    return {"productName": info.get("product", "Spark SQL Workbench"), "version": __version__,
            "sparkVersion": info.get("spark_version", "")}


@router.get("/api_versions", response_model=ApiVersionsResponse)
def get_api_versions():
    return {"versions": API_VERSIONS}
