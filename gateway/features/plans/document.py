"""The JSON plan format: what a compiled plan holds, its format version, reading and writing.

A plan file is one JSON object (keys sorted, two-space indent) so that plan files diff well
and golden files stay byte-stable. ``FORMAT_VERSION`` changes when the layout changes; a
reader refuses a newer format instead of misreading it.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from gateway.errors import InvalidStatementError

FORMAT = "spark-sql-workbench/compiled-plan"
FORMAT_VERSION = 1
# Keys every plan of this format has (a file without them is not a compiled plan).
REQUIRED_KEYS = ("format", "format_version", "spark_version", "accepts_spark", "statement", "config",
                 "tables", "functions", "plans")
# Keys that differ between two compilations of the same thing (left out of golden files).
VOLATILE_KEYS = ("compiled_at",)


class PlanFormatError(InvalidStatementError):
    """A plan file cannot be read: not JSON, not a plan, or a format this workbench does not know."""


def dumps(plan: dict) -> str:
    return json.dumps(plan, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_plan(path: Path, plan: dict) -> None:
    """Write atomically (temporary file, then rename) so a reader never sees half a plan."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".plan-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(dumps(plan))
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_plan(path: Path) -> dict:
    if not path.exists():
        raise PlanFormatError(f"the plan file {path} does not exist: compile it first with "
                              f"COMPILE PLAN '{path.name}' FOR <statement>")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlanFormatError(f"the plan file {path} is not valid JSON ({exc}); recompile it") from None
    return validate(data, str(path))


def validate(data: Any, where: str = "the plan") -> dict:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PlanFormatError(f"{where} is not a compiled plan (no \"format\": \"{FORMAT}\"); "
                              f"compile one with COMPILE PLAN")
    version = data.get("format_version")
    if not isinstance(version, int) or version < 1:
        raise PlanFormatError(f"{where} has no valid format_version; recompile it")
    if version > FORMAT_VERSION:
        raise PlanFormatError(f"{where} uses plan format {version}, newer than this workbench reads "
                              f"({FORMAT_VERSION}); upgrade the workbench or recompile the plan here")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise PlanFormatError(f"{where} lacks {', '.join(missing)}; it is damaged: recompile it")
    return data


def stable_plan(plan: dict) -> dict:
    """The plan without what changes between compilations of the same thing (for golden files)."""
    return {key: value for key, value in plan.items() if key not in VOLATILE_KEYS}


# -- Spark versions a plan accepts -----------------------------------------------------------------

_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?")
_CONSTRAINT = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*(\d+(?:\.\d+){0,2})\s*$")
COMPATIBILITY = ("same-minor", "same-major", "same-version")


def version_tuple(version: str) -> tuple[int, int, int]:
    match = _VERSION.match(version.strip())
    if not match:
        raise PlanFormatError(f"{version!r} is not a Spark version like 4.3.0")
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


def accepts_range(spark_version: str, compatibility: str) -> str:
    """The ``accepts_spark`` constraint written into a new plan (e.g. ``>=4.3.0,<4.4.0``)."""
    major, minor, patch = version_tuple(spark_version)
    if compatibility == "same-version":
        return f"=={major}.{minor}.{patch}"
    if compatibility == "same-major":
        return f">={major}.{minor}.{patch},<{major + 1}.0.0"
    return f">={major}.{minor}.0,<{major}.{minor + 1}.0"


def accepts(constraint: str, version: str) -> bool:
    current = version_tuple(version)
    for part in constraint.split(","):
        match = _CONSTRAINT.match(part)
        if not match:
            raise PlanFormatError(f"accepts_spark {constraint!r} is not a list like >=4.3.0,<4.4.0")
        op, bound = match.group(1), version_tuple(match.group(2))
        ok = {">=": current >= bound, "<=": current <= bound, "==": current == bound,
              "!=": current != bound, ">": current > bound, "<": current < bound}[op]
        if not ok:
            return False
    return True
