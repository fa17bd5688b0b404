"""``jar`` modules: Hive UDF classes from a jar, named by a properties file inside the jar.

The jar holds ``META-INF/workbench-functions.properties`` with one ``name=fully.qualified.Class``
a line (``#`` comments); the reserved key ``module.version`` gives the module's version (else the
manifest's ``Implementation-Version``). The jar goes to Spark with ``ADD JAR`` when a function of
it is first registered, and each function is ``CREATE TEMPORARY FUNCTION name AS 'Class'``.
Spark 4.3 refuses such a function under a built-in's name, so a jar function cannot shadow a
built-in: putting such a module before ``core`` is refused.
"""
from __future__ import annotations

import hashlib
import threading
import zipfile
from pathlib import Path

from gateway.errors import InvalidRequestError
from gateway.features.modules.base import FunctionDefinition, Module, ModuleFactory, PropertySpec

FUNCTIONS_FILE = "META-INF/workbench-functions.properties"
VERSION_KEY = "module.version"


def parse_properties(text: str) -> dict[str, str]:
    """Java .properties lines (``key=value`` or ``key: value``, ``#``/``!`` comments)."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#!":
            continue
        cut = min((i for i in (line.find("="), line.find(":")) if i >= 0), default=-1)
        if cut < 0:
            raise ValueError(f"the line {line!r} is not key=value")
        values[line[:cut].strip()] = line[cut + 1:].strip()
    return values


class JarModule(Module):
    type = "jar"

    def __init__(self, name: str, path: Path, properties: dict, functions_file: str) -> None:
        if not path.is_file():
            raise InvalidRequestError(f"the jar {path} does not exist; give the path of a .jar file")
        data = path.read_bytes()
        try:
            with zipfile.ZipFile(path) as jar:
                entries = set(jar.namelist())
                if functions_file not in entries:
                    raise InvalidRequestError(
                        f"the jar {path} has no {functions_file}: add one with a name=class line per function")
                declared = parse_properties(jar.read(functions_file).decode("utf-8"))
                manifest = jar.read("META-INF/MANIFEST.MF").decode("utf-8") if "META-INF/MANIFEST.MF" in entries else ""
        except zipfile.BadZipFile:
            raise InvalidRequestError(f"{path} is not a jar (zip) file") from None
        except ValueError as exc:
            raise InvalidRequestError(f"{path}!{functions_file}: {exc}") from None
        version = declared.pop(VERSION_KEY, None) or _manifest_version(manifest) or "unversioned"
        super().__init__(name, version, properties)
        self.path = path
        self.sha256 = hashlib.sha256(data).hexdigest()
        self._classes: dict[str, str] = {}
        for function, class_name in declared.items():
            if class_name.replace(".", "/") + ".class" not in entries:
                raise InvalidRequestError(f"{path}!{functions_file} names the class {class_name} for "
                                          f"{function}, but the jar does not contain it")
            self._classes[function.lower()] = class_name
        if not self._classes:
            raise InvalidRequestError(f"{path}!{functions_file} declares no functions")
        self._added = False
        self._lock = threading.Lock()

    def list_functions(self) -> list[str]:
        return sorted(self._classes)

    def _definition(self, name: str) -> FunctionDefinition:
        class_name = self._classes[name]
        return FunctionDefinition(
            name=name, module=self.name, module_type=self.type, version=self.version, kind="jar",
            implementation=f"jar:{class_name}@sha256:{self.sha256}", description=f"{class_name} from {self.path.name}",
            signature=f"{name} AS '{class_name}'", can_shadow_builtin=False,
            register=lambda spark: self._register(spark, name, class_name))

    def _register(self, spark, name: str, class_name: str) -> None:
        with self._lock:
            if not self._added:
                spark.sql(f"ADD JAR '{_sql_string(str(self.path))}'").collect()
                self._added = True
        spark.sql(f"CREATE TEMPORARY FUNCTION `{name}` AS '{_sql_string(class_name)}'").collect()


def _manifest_version(manifest: str) -> str:
    for line in manifest.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Implementation-Version":
            return value.strip()
    return ""


def _sql_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


class JarModuleFactory(ModuleFactory):
    type = "jar"
    description = "Hive UDF classes from a jar that lists them in META-INF/workbench-functions.properties."
    properties = (
        PropertySpec("path", "path of the .jar file", True),
        PropertySpec("functions-file", "properties file inside the jar: name=class per line", False,
                     FUNCTIONS_FILE),
    )

    def create_module(self, name, properties, spark) -> JarModule:
        return JarModule(name, Path(properties["path"]).expanduser().resolve(), properties,
                         properties.get("functions-file") or FUNCTIONS_FILE)
