"""Issue 27 item 13: by default a plan file stays in the plans directory (no absolute paths)."""
from __future__ import annotations

from conftest import run_all


def test_an_absolute_plan_path_is_refused_by_default(gateway, session, tmp_path):
    target = tmp_path / "outside" / "evil.json"
    _, _, page = run_all(gateway, session, f"COMPILE PLAN '{target}' FOR SELECT 1 AS one")
    assert page.exception is not None, "an absolute plan path was accepted"
    assert "absolute plan paths are turned off" in page.exception["root_cause"]
    assert "plans.allow_absolute_paths" in page.exception["root_cause"]
    assert not target.exists() and not target.parent.exists()
    _, rows, page = run_all(gateway, session, "EXPLAIN PLAN '/etc/hostname.json'")
    assert page.exception is not None and "absolute" in page.exception["root_cause"]


def test_a_relative_plan_name_still_works(gateway, session, config):
    _, rows, page = run_all(gateway, session, "COMPILE PLAN 'security/inside.json' IF NOT EXISTS FOR SELECT 1 AS one")
    assert page.exception is None, page.exception
    assert (config.data_dir / "plans" / "security" / "inside.json").is_file()
