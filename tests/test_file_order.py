"""The suite's files go to the test processes longest first (tests/conftest.py), keeping each file's own order."""
from __future__ import annotations

import json
from types import SimpleNamespace

import conftest


def _order(monkeypatch, tmp_path, seconds, nodeids):
    recorded = tmp_path / "file_seconds.json"
    recorded.write_text(json.dumps(seconds))
    monkeypatch.setattr(conftest, "FILE_SECONDS", recorded)
    items = [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]
    conftest.pytest_collection_modifyitems(None, None, items)
    return [item.nodeid for item in items]


def test_files_go_longest_first_and_each_keeps_its_tests_order(monkeypatch, tmp_path):
    nodeids = ["tests/a.py::one", "tests/a.py::two", "tests/b.py::one", "tests/c.py::one", "tests/c.py::two[x]",
               "tests/c.py::two[y]", "tests/d.py::one"]
    seconds = {"tests/a.py": 5.0, "tests/b.py": 400.0, "tests/c.py": 60.0, "tests/gone.py": 900.0}
    assert _order(monkeypatch, tmp_path, seconds, nodeids) == [
        "tests/b.py::one",
        "tests/c.py::one", "tests/c.py::two[x]", "tests/c.py::two[y]",
        "tests/d.py::one",  # not recorded: counts as NEW_FILE_SECONDS (30 s)
        "tests/a.py::one", "tests/a.py::two",
    ]


def test_without_recorded_seconds_the_collection_order_stays(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "FILE_SECONDS", tmp_path / "absent.json")
    items = [SimpleNamespace(nodeid=n) for n in ["tests/z.py::t", "tests/a.py::t"]]
    conftest.pytest_collection_modifyitems(None, None, items)
    assert [item.nodeid for item in items] == ["tests/z.py::t", "tests/a.py::t"]


def test_a_package_sharing_package_scoped_fixtures_is_one_unit_ordered_by_its_files_sum(monkeypatch, tmp_path):
    nodeids = ["tests/a.py::one", "tests/cluster/test_x.py::one", "tests/b.py::one", "tests/cluster/test_y.py::one",
               "tests/cluster/test_y.py::two"]
    seconds = {"tests/a.py": 100.0, "tests/b.py": 150.0, "tests/cluster/test_x.py": 60.0,
               "tests/cluster/test_y.py": 70.0}
    # tests/cluster's two files are one unit of 130 s: after b (150), before a (100), the files side by side.
    assert _order(monkeypatch, tmp_path, seconds, nodeids) == [
        "tests/b.py::one",
        "tests/cluster/test_x.py::one", "tests/cluster/test_y.py::one", "tests/cluster/test_y.py::two",
        "tests/a.py::one",
    ]


def test_the_scheduler_gives_a_process_a_whole_unit():
    config = SimpleNamespace(getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    scheduler = conftest.pytest_xdist_make_scheduler(config, None)
    assert scheduler._split_scope("tests/cluster/test_cluster.py::test_one") == "tests/cluster/"
    assert scheduler._split_scope("tests/cluster/test_cluster_managed_engines.py::test_two[x]") == "tests/cluster/"
    assert scheduler._split_scope("tests/e2e/test_editor.py::test_three") == "tests/e2e/test_editor.py"
