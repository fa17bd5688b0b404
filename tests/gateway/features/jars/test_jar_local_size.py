"""A local jar file is size-checked before it is read (issue 18, item 5's middle part)."""
from __future__ import annotations

import resource
import time

from conftest import run_all
from gateway.models import ResultType


def test_a_2_gib_local_file_is_refused_without_being_read(gateway, session, tmp_path):
    huge = tmp_path / "huge.jar"
    with huge.open("wb") as f:  # sparse: 2 GiB long, nothing on disk
        f.truncate(2 * 1024 ** 3)
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    _, _, page = run_all(gateway, session, f"ADD JAR '{huge}'")
    took = time.monotonic() - started
    assert page.result_type is ResultType.ERROR
    assert "2,147,483,648 bytes; the limit is" in page.exception["root_cause"]
    assert "jars.download_max_bytes" in page.exception["root_cause"]
    grew_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    print(f"\n2 GiB local jar refused in {took * 1000:.0f} ms; peak RSS grew {grew_mib:.0f} MiB")
    assert grew_mib < 100 and took < 10


def test_a_small_local_file_that_is_not_a_jar_is_still_refused_as_such(gateway, session, tmp_path):
    fake = tmp_path / "fake.jar"
    fake.write_bytes(b"not a zip at all")
    _, _, page = run_all(gateway, session, f"ADD JAR '{fake}'")
    assert page.result_type is ResultType.ERROR
    assert "zip" in page.exception["root_cause"].lower() or "jar" in page.exception["root_cause"].lower()
