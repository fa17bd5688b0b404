"""A cold workbench process (engine.kind = embedded, its own data directory, as the suite's child
workbench processes start): seconds from the process's start to a session's first row of ``SELECT 1``,
without a class archive and from one (spark.class_archive, one engine.class_archive_dir for all runs).
The first run with the setting writes the archive when it stops (not counted).

    .venv/bin/python benchmarks/embedded_cold_start.py --runs 3
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# One child: a GatewayService on a fresh data directory, a session, SELECT 1; prints its seconds as JSON.
CHILD = """
import json, sys, time
started = float(sys.argv[1])
sys.path.insert(0, {root!r})
from gateway import GatewayService, load_config
from tests.conftest import run_all
config = load_config({toml!r}, environ={{}}).with_overrides(
    data_dir=sys.argv[2], spark__master="local[2]", spark__ui__enabled=False, session__restore=False,
    spark__class_archive=sys.argv[3] == "1", engine__class_archive_dir=sys.argv[4])
gateway = GatewayService(config)
session = gateway.open_session(name="cold")
rows = run_all(gateway, session, "SELECT 1")[1]
assert rows == [[1]], rows
print(json.dumps({{"first_row_s": time.time() - started}}), flush=True)
gateway.shutdown()  # a start without the archive writes it here
"""


def cold_start(scratch: Path, n: int, archived: bool, archive_dir: Path) -> float:
    code = CHILD.format(root=str(ROOT), toml=str(ROOT / "workbench.toml"))
    done = subprocess.run([sys.executable, "-c", code, repr(time.time()), str(scratch / f"wb-{archived:d}-{n}"),
                           "1" if archived else "0", str(archive_dir)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"the child failed (exit {done.returncode}): {done.stderr[-2000:]}")
    return json.loads(lines[-1])["first_row_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold starts of each kind (interleaved)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="embedded-cold-") as scratch_name:
        scratch = Path(scratch_name)
        archive_dir = scratch / "archives"
        started = time.monotonic()
        writing = cold_start(scratch, -1, True, archive_dir)  # writes the archive as it stops
        archives = list(archive_dir.glob("embedded-*.jsa"))
        if not archives:
            raise SystemExit("no class archive was written")
        print(f"archive: {archives[0].name}, {archives[0].stat().st_size >> 20} MB, written "
              f"{time.monotonic() - started:.1f} s after the first start began (that start: {writing:.1f} s)")
        without, archived = [], []
        for n in range(args.runs):  # interleaved: both kinds meet the same load
            without.append(cold_start(scratch, n, False, archive_dir))
            archived.append(cold_start(scratch, n, True, archive_dir))
            print(f"run {n}: without {without[-1]:.1f} s, from the archive {archived[-1]:.1f} s", flush=True)
    print(f"cold process start to SELECT 1's first row, median of {args.runs}: without an archive "
          f"{statistics.median(without):.1f} s, from the class archive {statistics.median(archived):.1f} s "
          f"({statistics.median(archived) / statistics.median(without):.2f}x)")


if __name__ == "__main__":
    main()
