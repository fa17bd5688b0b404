"""Golden plan files: compile each tests/golden/plans/*.sql and compare with its .json.

Shared by tests/gateway/features/plans/test_plans.py and ``python -m tests.regen_golden_plans`` (which reruns the
golden test with UPDATE_GOLDEN_PLANS=1, so regenerated files come from the same setup).
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

from gateway.features.plans import dumps, stable_plan

GOLDEN_DIR = Path(__file__).resolve().parent / "golden" / "plans"
UPDATE_ENV = "UPDATE_GOLDEN_PLANS"
REGENERATE = ".venv/bin/python -m tests.regen_golden_plans"


def golden_names() -> list[str]:
    return sorted(p.stem for p in GOLDEN_DIR.glob("*.sql") if not p.name.startswith("_"))


def setup_statements() -> list[str]:
    text = "\n".join(line for line in (GOLDEN_DIR / "_setup.sql").read_text().splitlines()
                     if not line.lstrip().startswith("--"))
    return [s.strip() for s in text.split(";") if s.strip()]


def golden_text(plan: dict) -> str:
    return dumps(stable_plan(plan))


def compare_or_update(name: str, plan: dict) -> str:
    """'' when the plan matches its golden file (or was rewritten), else a readable diff."""
    path = GOLDEN_DIR / f"{name}.json"
    actual = golden_text(plan)
    if os.environ.get(UPDATE_ENV) == "1":
        path.write_text(actual)
        return ""
    expected = path.read_text() if path.exists() else ""
    if actual == expected:
        return ""
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     f"golden/{name}.json", "compiled now", n=2, lineterm=""))
    shown = "\n".join(diff[:120]) + ("\n… (diff cut)" if len(diff) > 120 else "")
    return (f"the plan of {name}.sql changed ({len(diff)} diff lines). If the change is intended, "
            f"regenerate the golden files with `{REGENERATE}` and review the diff.\n{shown}")
