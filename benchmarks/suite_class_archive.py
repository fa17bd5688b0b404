"""Whether a class archive written for the test suite's child workbench processes pays: the seconds of the
training run that writes it (tests/jvm_support.py: a workbench process that runs writes and queries and stops),
against what it saves each child (tests/atomic_child.py with the atomic SIGKILL test's setup and one write:
start, recovery, setup, write, stop), cold and from the archive, interleaved. The suite ran ten such children
(eight atomic, two journal restart); it pays when ten children save more than the training run costs.

    .venv/bin/python benchmarks/suite_class_archive.py --runs 3
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
OLD = "SELECT id, id % 2 AS k FROM range(6)"
GOOD = "SELECT id, id % 2 AS k FROM range(100, 104)"
CHILDREN_IN_A_RUN = 10


def child(scratch: Path, n: int, archive_dir: Path | None) -> tuple[float, dict]:
    """One atomic child; its seconds and the seconds since its start of each event (recovered, state, done)."""
    plan = {"data_dir": str(scratch / f"child-{n}-{'archived' if archive_dir else 'cold'}"),
            "class_archive_dir": str(archive_dir or ""),
            "setup": ["CREATE TABLE rt USING parquet AS " + OLD,
                      "CREATE TABLE io USING csv PARTITIONED BY (k) AS " + OLD],
            "write": "CREATE OR REPLACE TABLE rt USING orc AS " + GOOD}
    started = time.monotonic()
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "atomic_child.py"), json.dumps(plan)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    seconds = time.monotonic() - started
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not events or events[-1]["event"] != "done":
        raise SystemExit(f"the child failed (exit {done.returncode}): {done.stderr[-2000:]}")
    return seconds, {event["event"]: event["at_s"] for event in events}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="children of each kind (interleaved)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="suite-class-archive-") as scratch_name:
        scratch = Path(scratch_name)
        archive_dir = scratch / "archives"
        archive_dir.mkdir()
        started = time.monotonic()
        writer = subprocess.run([sys.executable, str(ROOT / "tests" / "jvm_support.py"), str(scratch / "writer"),
                                 str(archive_dir)], cwd=ROOT, capture_output=True, text=True, timeout=900)
        writing_s = time.monotonic() - started
        archives = list(archive_dir.glob("embedded-*.jsa"))
        if writer.returncode != 0 or not archives:
            raise SystemExit(f"no class archive was written: {writer.stderr[-2000:]}")
        print(f"training run: {writing_s:.1f} s ({archives[0].stat().st_size >> 20} MB archive)", flush=True)
        cold, archived = [], []
        for n in range(args.runs):  # interleaved: both kinds meet the same load
            cold_s, cold_at = child(scratch, n, None)
            archived_s, archived_at = child(scratch, n, archive_dir)
            cold.append(cold_s)
            archived.append(archived_s)
            print(f"run {n}: cold {cold_s:.1f} s (recovered at {cold_at['recovered']} s), from the archive "
                  f"{archived_s:.1f} s (recovered at {archived_at['recovered']} s)", flush=True)
    saved = statistics.median(cold) - statistics.median(archived)
    print(f"child, median of {args.runs}: cold {statistics.median(cold):.1f} s, from the archive "
          f"{statistics.median(archived):.1f} s: {saved:.1f} s saved each; {CHILDREN_IN_A_RUN} children save "
          f"{CHILDREN_IN_A_RUN * saved:.0f} s against the training run's {writing_s:.0f} s: "
          f"{'pays' if CHILDREN_IN_A_RUN * saved > writing_s else 'does not pay'}")


if __name__ == "__main__":
    main()
