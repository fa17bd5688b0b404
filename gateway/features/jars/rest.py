"""Beyond Flink: a session's jars (FLIP-214): list, add, remove, upload, UDF classes in a jar.

A jar named in a request must lie inside the data directory; uploads land there under a
plain file name. Changes answer the session's new list.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from fastapi import APIRouter, Query, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from gateway import InvalidRequestError, PermissionDeniedError
from gateway.rest.deps import service_of
from gateway.rest.encoding import to_json
from gateway.rest.limits import jar_file_name, local_path_inside
from gateway.features.jars.schemas import AddJarRequest, JarsResponse, UdfClassesResponse, UploadJarResponse
from gateway.rest.schemas import Body

router = APIRouter(tags=["jars"])
JARS = "/sessions/{session_handle}/jars"
_UPLOAD_BODY = {"requestBody": {"required": True, "content": {
    "application/java-archive": {"schema": {"type": "string", "format": "binary"}},
    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}}


def _data_dir(service) -> Path:
    return Path(service.get_gateway_info()["data_dir"])


def _may_upload(service, session_handle: str) -> None:
    """The checks upload_jar makes, made before the body is read: the session is the caller's (else 404), and
    with auth.admin_only_code only an admin puts code into the driver (else 403)."""
    service.heartbeat(session_handle)
    if str(service.get_setting("auth.mode")).strip().lower() == "none" or not service.get_setting(
            "auth.admin_only_code"):
        return
    caller = service.whoami()
    if not caller.admin:
        raise PermissionDeniedError(
            f"jar uploads are not allowed for {caller.name!r}: code in the driver is for admins "
            f"(auth.admin_only_code). An admin can upload it, or make you one "
            f"(`python -m gateway users set-admin {caller.name}`)")


def _jars(service, session_handle: str) -> list:
    return to_json(service.list_jars(session_handle))


@router.get(JARS, response_model=JarsResponse)
def list_jars(request: Request, session_handle: str):
    return {"jars": _jars(service_of(request), session_handle)}


@router.post(JARS, response_model=JarsResponse)
def add_jar(request: Request, session_handle: str, body: AddJarRequest):
    service = service_of(request)
    path = local_path_inside(_data_dir(service), body.uri)
    service.add_jar(session_handle, path)
    return {"jars": _jars(service, session_handle)}


@router.delete(JARS, response_model=JarsResponse)
def remove_jar(request: Request, session_handle: str,
               uri: str = Query(..., description="The jar as the session's list shows it.")):
    service = service_of(request)
    service.remove_jar(session_handle, uri)
    return {"jars": _jars(service, session_handle)}


@router.post(JARS + "/upload", response_model=UploadJarResponse, openapi_extra=_UPLOAD_BODY)
async def upload_jar(request: Request, session_handle: str,
                     filename: str = Query(..., description="A plain name ending in .jar.")):
    """The body is the jar's bytes (at most rest.max_upload_bytes)."""
    # Refused on its headers when the caller may not upload or the session is not theirs, before one byte
    # is read; otherwise streamed to a temporary file, never buffered whole while it arrives (issue 27).
    name = jar_file_name(filename)
    service = service_of(request)
    await run_in_threadpool(_may_upload, service, session_handle)
    with tempfile.TemporaryFile(prefix="workbench-upload-") as spool:
        async for chunk in request.stream():   # BodyLimitMiddleware stops it at rest.max_upload_bytes
            await run_in_threadpool(spool.write, chunk)
        spool.seek(0)
        data = await run_in_threadpool(spool.read)
    jar = await run_in_threadpool(service.upload_jar, session_handle, name, data)
    jars = await run_in_threadpool(_jars, service, session_handle)
    return {"jar": to_json(jar), "jars": jars}


@router.get(JARS + "/udf-classes", response_model=UdfClassesResponse)
def list_udf_classes(request: Request, session_handle: str,
                     jar: str = Query(..., description="A jar of the session's list, or a path in the data directory.")):
    service = service_of(request)
    try:
        jar = local_path_inside(_data_dir(service), jar)
    except InvalidRequestError:  # a jar of the session's own list (added by SQL) may live elsewhere
        if not hasattr(service, "list_jars") or jar not in _strings(_jars(service, session_handle)):
            raise
    return {"classes": to_json(service.list_udf_classes(session_handle, jar))}


def _strings(value) -> set:
    """Every text inside a listed jar entry (its URI, path, name), to recognise a jar of the list."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


class CreateFunctionRequest(Body):
    name: str = Field(..., description="The function name, optionally db.name for a persistent one.")
    className: str = Field(..., description="A class of the jar (see …/jars/classes).")
    jar: str = Field(..., description="The jar as the session's list shows it.")
    temporary: bool = True
    language: str = Field("JAVA", description="JAVA (a Hive UDF class) or PYTHON (a .py/.zip/.whl resource).")


@router.post("/sessions/{session_handle}/functions", response_model=JarsResponse)
def create_function(request: Request, session_handle: str, body: CreateFunctionRequest):
    """CREATE [TEMPORARY] FUNCTION name AS class USING JAR jar; answers the session's jars with their functions."""
    service = service_of(request)
    service.create_function(session_handle, body.name, body.className, body.jar, body.temporary, body.language)
    return {"jars": _jars(service, session_handle)}
