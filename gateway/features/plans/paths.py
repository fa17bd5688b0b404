"""Where plan files live: relative names under the plans directory, never outside it."""
from __future__ import annotations

from pathlib import Path

from gateway.errors import InvalidStatementError


class PlanPathError(InvalidStatementError):
    """A plan file name that is empty, not .json, or leaves the plans directory."""


def resolve_plan_path(name: str, plans_dir: Path, allow_absolute: bool) -> Path:
    """The file a plan name means.

    ``daily.json`` and ``team/daily.json`` live under ``plans_dir``; ``..`` may not leave it.
    An absolute path is taken as given when ``allow_absolute`` (setting plans.allow_absolute_paths).
    """
    if not isinstance(name, str) or not name.strip():
        raise PlanPathError("the plan file name is empty: give one like 'daily_report.json'")
    name = name.strip()
    if "\x00" in name:
        raise PlanPathError("the plan file name holds a NUL character; use a plain name like 'daily_report.json'")
    if not name.lower().endswith(".json"):
        raise PlanPathError(f"plan files end in .json, {name!r} does not; name it like 'daily_report.json'")
    path = Path(name).expanduser()
    base = plans_dir.resolve()
    if path.is_absolute():
        if not allow_absolute:
            raise PlanPathError(
                f"{name!r} is an absolute path, and absolute plan paths are turned off "
                f"(setting plans.allow_absolute_paths); use a name relative to the plans directory {base}")
        return path.resolve()
    resolved = (base / path).resolve()
    if resolved != base and base not in resolved.parents:
        raise PlanPathError(
            f"{name!r} leaves the plans directory {base}; plan names are relative to it, so use a name "
            f"without '..' (like 'team/daily.json')")
    return resolved
