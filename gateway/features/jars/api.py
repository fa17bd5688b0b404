"""The jars feature's API: its protocol and value types, what a front end may use of it.

Front ends reach it through the gateway (``gateway.api(JarsApi)``, or the same calls on the gateway,
which lists the built-in features' protocols in ``GatewayContract``); its REST routes are in ``rest.py``.
"""
from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from gateway.api.calls import loads_code, replayed_as, sql_string
from gateway.models import JarInfo, UdfClass
from gateway.handles import SessionHandle

__all__ = ['JarInfo', 'SessionHandle', 'UdfClass', 'JarsApi']


@runtime_checkable
class JarsApi(Protocol):
    """Jars and function resources (FLIP-214)."""

    def list_jars(self, session: SessionHandle) -> list[JarInfo]:
        """This session's jars (not the JVM's), each with the functions that use it."""

    @loads_code(uri="uri")
    @replayed_as(lambda a, _: f"ADD JAR {sql_string(a['uri'])}")
    def add_jar(self, session: SessionHandle, uri: str) -> JarInfo:
        """ADD JAR: a path, file://, http(s)://, hdfs:// or s3a:// URI, copied into the jar store."""

    @replayed_as(lambda a, _: f"REMOVE JAR {sql_string(a['uri'])}")
    def remove_jar(self, session: SessionHandle, uri: str) -> list[str]:
        """REMOVE JAR for this session; returns the functions that stop resolving here."""

    @loads_code
    @replayed_as(lambda _, jar: f"ADD JAR {sql_string(jar.path)}")  # the stored copy, not the upload
    def upload_jar(self, session: SessionHandle, filename: str, data: bytes) -> JarInfo:
        """Validate, store by content hash and add an uploaded jar (or .py/.zip/.whl)."""

    def list_udf_classes(self, session: SessionHandle, jar: str) -> list[UdfClass]:
        """Classes in one of the session's jars that CREATE FUNCTION can use."""

    @loads_code
    def create_function(self, session: SessionHandle, name: str, class_name: str, jar: str,
                        temporary: bool = True, language: str = "JAVA") -> None:
        """CREATE [TEMPORARY] FUNCTION name AS class USING JAR jar, quoted right."""
