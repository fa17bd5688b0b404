"""The jars feature's REST bodies: jar lists, ADD JAR, an upload and a jar's UDF classes (served by ``rest.py`` beside it)."""
from __future__ import annotations

from typing import Any

from gateway.rest.schemas import Body


class JarsResponse(Body):
    jars: list[Any]


class AddJarRequest(Body):
    uri: str


class UploadJarResponse(Body):
    jar: Any
    jars: list[Any]


class UdfClassesResponse(Body):
    classes: list[Any]
