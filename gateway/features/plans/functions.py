"""Which functions a plan uses, and the version of each (FLIP-190's pinned function versions).

Versions come from the session's modules (issue 5: the modules feature's ``function_origin``) when
they are there; otherwise from Spark itself: built-ins are module ``core`` at Spark's version,
temporary SQL functions are versioned by a hash of their definition, and other functions by
their class name.
"""
from __future__ import annotations

import logging
import hashlib
import json
import re
from typing import Iterable, Optional

from gateway.core.functions import builtin_functions
from gateway.features.plans.tree import short_class, walk_flat

log = logging.getLogger(__name__)

# Expression classes that carry a user function's name in their JSON (not in the registry).
_UDF_NAME_FIELDS = {"PythonUDF": "name", "PythonUDAF": "name", "PythonUDTF": "name", "ScalaUDF": "udfName",
                    "ScalaUDAF": "udafName", "ScalaAggregator": "aggregatorName", "HiveSimpleUDF": "name",
                    "HiveGenericUDF": "name", "HiveUDAFFunction": "name", "HiveGenericUDTF": "name"}
_CALL = re.compile(r"(?<![\w.`#])`?([A-Za-z_][\w]*)`?\(")
_LAMBDA = re.compile(r"\$\$Lambda[$/][\w/$.]*")


def origin(module: str, version: str, implementation: str) -> dict:
    return {"module": module, "version": version, "implementation": implementation}


# -- which functions ---------------------------------------------------------------------------------

def used_functions(spark, analyzed_json: Optional[list], analyzed_text: str) -> list[str]:
    """Names of the functions the analyzed plan calls, built-in and user, sorted.

    With Spark's JSON tree every built-in expression class maps back to its registry name; user
    functions come from UDF nodes and from calls in the plan text that name a user function.
    """
    names: set[str] = set()
    by_class = builtin_functions().classes(spark) if analyzed_json is not None else {}
    if analyzed_json is not None and by_class:
        for node in walk_flat(analyzed_json):
            cls = node["class"]
            if cls in by_class:
                names.add(preferred_name(cls, by_class[cls]))
            field = _UDF_NAME_FIELDS.get(short_class(cls))
            if field and node.get(field):
                names.add(str(node[field]))
    called = {name.lower() for name in _CALL.findall(analyzed_text)}
    user = user_function_names(spark)
    names.update(name for name in called if name in user)
    if not by_class:  # no JVM: built-ins from the calls in the text
        names.update(name for name in called if name in system_function_names(spark))
    return sorted(names)


def preferred_name(cls: str, aliases: list[str]) -> str:
    """One stable name for a class known by several (Length: length, len, char_length …)."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", short_class(cls)).lower()
    return snake if snake in aliases else sorted(aliases)[0]


def user_function_names(spark) -> set[str]:
    """This session's temporary and the current database's persistent functions (short names)."""
    rows = spark.sql("SHOW USER FUNCTIONS").collect()
    return {row[0].rsplit(".", 1)[-1].lower() for row in rows}


def system_function_names(spark) -> frozenset[str]:
    """Spark's built-in names (SHOW SYSTEM FUNCTIONS, from the process's one cache)."""
    return builtin_functions().names(spark)


# -- their versions ----------------------------------------------------------------------------------

def function_versions(session, names: Iterable[str]) -> dict[str, Optional[dict]]:
    """``name → {"module", "version", "implementation"}``, or None for a function that is not there.

    Asks the modules feature's ``function_origin`` first (modules pin versions); names no module
    provides fall back to what Spark knows about them.
    """
    spark = session.spark
    modules = session.extensions.get("modules")  # the modules feature's ModuleManager, when installed
    versions: dict[str, Optional[dict]] = {}
    builtins: Optional[set[str]] = None
    user: Optional[set[str]] = None
    for name in sorted(set(names)):
        found = _from_modules(modules, name)
        if found is None:
            if user is None:
                user = user_function_names(spark)
            if builtins is None:
                builtins = system_function_names(spark)
            if name.lower() in user:
                found = _user_function_origin(spark, name)
            elif name.lower() in builtins:
                found = origin("core", spark.version, "builtin")
        versions[name] = found
    return versions


def _from_modules(modules, name: str) -> Optional[dict]:
    if modules is None:
        return None
    found = modules.function_origin(name)
    if found is None:
        return None
    return origin(str(found.module), str(found.version), str(found.implementation))


def _user_function_origin(spark, name: str) -> Optional[dict]:
    try:
        function = spark.catalog.getFunction(name)
    except Exception:  # noqa: BLE001 - dropped between listing and describing
        log.debug("the function was dropped between listing and describing", exc_info=True)
        return None
    module = "session" if function.isTemporary else "catalog"
    definition = _sql_definition(function.description)
    if definition is not None:
        digest = hashlib.sha256(json.dumps(definition, sort_keys=True).encode()).hexdigest()
        return origin(module, "sha256:" + digest[:16], "sql:sha256:" + digest)
    class_name = _LAMBDA.sub("$$Lambda", function.className or "unknown")
    return origin(module, "unversioned", "class:" + class_name)


def _sql_definition(description: Optional[str]) -> Optional[dict]:
    """What makes a SQL function what it is: parameters, return type, body (not its create time)."""
    try:
        data = json.loads(description or "")
    except (TypeError, ValueError):
        return None
    if not isinstance(data, dict) or not ({"sqlFunction.expression", "sqlFunction.query"} & set(data)):
        return None
    keep = ("sqlFunction.inputParam", "sqlFunction.returnType", "sqlFunction.expression", "sqlFunction.query",
            "sqlFunction.isTableFunc", "sqlFunction.deterministic")
    return {key: data.get(key) for key in keep}
