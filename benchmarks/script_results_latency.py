"""Click on *Run all* to every result of a 3-statement script, from a real browser (Chromium, Playwright).

Prints p50 and p95 of:
- click to the first row of ``SELECT 1`` (a single statement: the path without a script reader);
- click to the first row of a 3-statement script's last result (the grid) and to its list of statements
  on screen (one line per statement; the earlier results' rows are in it, read before the operation closed).

    .venv/bin/python benchmarks/script_results_latency.py [--runs 5]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tests.e2e.test_editor import open_editor  # noqa: E402
from tests.e2e.workbench_app import chromium, replace_text, running_workbench  # noqa: E402
from benchmarks.browser_latency import click_to_rows_ms, show  # noqa: E402

SCRIPT = "SELECT id FROM range(5);\nSELECT 'b' AS letter;\nSELECT id * 10 AS tens FROM range(3)"


def click_to_script_ms(page, frame, sql: str) -> tuple[float, float]:
    """(ms to the grid's first row, ms to the list of every statement's result)."""
    page.keyboard.press("Escape")
    replace_text(page, frame, sql)
    started = time.perf_counter()
    frame.click("#run-all")
    grid = listed = None
    deadline = time.monotonic() + 120
    while grid is None or listed is None:
        if grid is None and page.locator('[data-testid="stDataFrame"]').count() > 0 and frame.evaluate(
                "document.getElementById('status').style.display === 'none'"):
            grid = (time.perf_counter() - started) * 1000
        if listed is None and page.locator(".st-key-script-results").count() > 0:
            listed = (time.perf_counter() - started) * 1000
        if time.monotonic() > deadline:
            raise AssertionError(f"no script results for {sql!r}")
        page.wait_for_timeout(5)
    return grid, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="script-latency-") as tmp:
        data = Path(tmp)
        os.environ.setdefault("WORKBENCH_SPARK_MASTER", "local[2]")
        with running_workbench(data) as bench, chromium() as browser:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(120_000)
            frame = open_editor(page, bench.url)
            click_to_rows_ms(page, frame, "SELECT 1")  # warm the session
            select1 = [click_to_rows_ms(page, frame, "SELECT 1") for _ in range(args.runs)]
            script = [click_to_script_ms(page, frame, SCRIPT) for _ in range(args.runs)]
    print(f"machine load (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    show("click to first row, SELECT 1", select1)
    show("click to first row, 3-statement script (last result)", [g for g, _ in script])
    show("click to every statement's result listed, 3 statements", [s for _, s in script])


if __name__ == "__main__":
    main()
