"""Regenerate tests/golden/plans/*.json: ``.venv/bin/python -m tests.regen_golden_plans``.

Runs the golden test with UPDATE_GOLDEN_PLANS=1, so the files are written from exactly the
setup the test compares against. Review ``git diff tests/golden/plans`` before committing.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    env = dict(os.environ, UPDATE_GOLDEN_PLANS="1")
    command = [str(ROOT / "run-tests"), "tests/gateway/features/plans/test_plans.py", "-q", "-k", "golden", *sys.argv[1:]]
    sys.exit(subprocess.call(command, cwd=ROOT, env=env))
