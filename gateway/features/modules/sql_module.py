"""``sql`` modules: SQL UDF bodies in a file, created as session-temporary SQL functions.

The file holds ``CREATE FUNCTION name(params) RETURNS type RETURN expr;`` statements (``OR REPLACE``
and ``TEMPORARY`` are allowed and ignored) and may declare its version in a comment line
``-- version: 1.2``. Each function's implementation is the SHA-256 of its normalized definition.
"""
from __future__ import annotations

import re
from pathlib import Path

from gateway.errors import InvalidRequestError, InvalidStatementError
from gateway.core.statements import split_script
from gateway.features.modules.base import FunctionDefinition, Module, ModuleFactory, PropertySpec, sha256_text

_CREATE = re.compile(r"^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+)?FUNCTION\s+"
                     r"(`?)([A-Za-z_][A-Za-z0-9_]*)\1\s*(\(.*)$", re.IGNORECASE | re.DOTALL)
_VERSION = re.compile(r"^\s*--\s*version\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
_COMMENT_LINE = re.compile(r"^\s*--.*$", re.MULTILINE)


class SqlModule(Module):
    type = "sql"

    def __init__(self, name: str, path: Path, properties: dict) -> None:
        text = _read(path)
        version = _VERSION.search(text)
        super().__init__(name, version.group(1) if version else "unversioned", properties)
        self.path = path
        self._bodies: dict[str, str] = {}
        try:
            statements = split_script(_COMMENT_LINE.sub("", text))
        except InvalidStatementError as exc:
            raise InvalidRequestError(f"the SQL module file {path} holds no functions: {exc.message}") from None
        for statement in statements:
            match = _CREATE.match(statement.text)
            if not match:
                raise InvalidRequestError(
                    f"{path}, line {statement.line}: a SQL module file holds only "
                    f"'CREATE FUNCTION name(params) RETURNS type RETURN expr;' statements, found: "
                    f"{statement.text[:80]!r}")
            function = match.group(2).lower()
            if function in self._bodies:
                raise InvalidRequestError(f"{path}, line {statement.line}: function {function} is defined twice")
            self._bodies[function] = " ".join(match.group(3).split())

    def list_functions(self) -> list[str]:
        return sorted(self._bodies)

    def _definition(self, name: str) -> FunctionDefinition:
        body = self._bodies[name]
        create = f"CREATE TEMPORARY FUNCTION `{name}`{body}"
        return FunctionDefinition(
            name=name, module=self.name, module_type=self.type, version=self.version, kind="sql",
            implementation=f"sql:sha256:{sha256_text(body)}", description=f"SQL function from {self.path.name}",
            signature=f"{name}{body}", register=lambda spark: spark.sql(create).collect())


def _read(path: Path) -> str:
    if not path.is_file():
        raise InvalidRequestError(f"the SQL module file {path} does not exist; give the path of a .sql file")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidRequestError(f"the SQL module file {path} cannot be read: {exc}") from None


class SqlModuleFactory(ModuleFactory):
    type = "sql"
    description = "SQL functions from a file of CREATE FUNCTION … RETURN … statements."
    properties = (PropertySpec("path", "path of the .sql file with CREATE FUNCTION statements", True),)

    def create_module(self, name, properties, spark) -> SqlModule:
        return SqlModule(name, Path(properties["path"]).expanduser(), properties)
