"""How long the jar store takes on real, large jars: upload validation, UDF class listing, and the
per-statement guard. Prints figures; no Spark session is started.

    .venv/bin/python benchmarks/jar_scan.py
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspark  # noqa: E402

from gateway.features.jars.store import JarStore, udf_classes, validate_archive  # noqa: E402
from gateway.features.jars.resources import function_calls  # noqa: E402

JARS = Path(pyspark.__file__).resolve().parent / "jars"


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def main() -> None:
    samples = [p for p in sorted(JARS.glob("*.jar")) if p.name.startswith(("hive-exec", "spark-catalyst", "spark-sql_"))]
    with tempfile.TemporaryDirectory() as tmp:
        store = JarStore(Path(tmp), 1 << 31, 1 << 31, 30.0)
        for jar in samples:
            data = jar.read_bytes()
            _, validate_s = timed(validate_archive, data, jar.name)
            stored, upload_s = timed(store.upload, jar.name, data)
            classes, scan_s = timed(udf_classes, stored.path)
            print(f"{jar.name:40s} {len(data) / 1e6:7.1f} MB  validate {validate_s:6.2f} s  "
                  f"upload (validate + hash + write) {upload_s:6.2f} s  "
                  f"UDF classes {len(classes):4d} in {scan_s:6.2f} s")
    statement = "SELECT " + ", ".join(f"upper(col{i}), my_udf(col{i})" for i in range(2000)) + " FROM t"
    calls, guard_s = timed(function_calls, statement)
    print(f"guard tokenizing a {len(statement):,}-character statement with {len(calls):,} calls: {guard_s * 1000:.1f} ms")


if __name__ == "__main__":
    main()
