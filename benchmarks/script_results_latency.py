"""Click on *Run all* to every result of a 3-statement script, from a real browser (Chromium, Playwright).

Prints p50 and p95 of:
- click to the first row of ``SELECT 1`` (a single statement: the path without a script reader);
- click to the first row of a 3-statement script's last result (the grid) and to its list of statements
  on screen (one line per statement; the earlier results' rows are in it, read before the operation closed).

    .venv/bin/python benchmarks/script_results_latency.py [--runs 5] [--only select1]

``--only select1`` times the ``SELECT 1`` clicks alone (a quick A/B of two checkouts run back to back).
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

from tests.e2e.workbench_app import chromium, editor_frame, replace_text, running_workbench  # noqa: E402
from benchmarks.browser_latency import click_to_rows_ms, show  # noqa: E402

SCRIPT = "SELECT id FROM range({n});\nSELECT 'b' AS letter;\nSELECT id * 10 AS tens FROM range(3)"


def click_to_script_ms(page, frame, n: int) -> tuple[float, float]:
    """(ms to the grid's first row, ms to the list of every statement's result); ``n`` makes this run's
    list tell itself from the one before (its first statement has ``n`` rows)."""
    page.keyboard.press("Escape")
    replace_text(page, frame, SCRIPT.format(n=n))
    started = time.perf_counter()
    frame.click("#run-all")
    frame.wait_for_function("document.getElementById('status').style.display !== 'none'", timeout=10_000)
    grid = listed = None
    this_list = page.locator(".st-key-script-results", has_text=f"· {n} rows")
    deadline = time.monotonic() + 120
    while grid is None or listed is None:
        if grid is None and page.locator('[data-testid="stDataFrame"]').count() > 0 and frame.evaluate(
                "document.getElementById('status').style.display === 'none'"):
            grid = (time.perf_counter() - started) * 1000
        if listed is None and this_list.count() > 0:
            listed = (time.perf_counter() - started) * 1000
        if time.monotonic() > deadline:
            raise AssertionError(f"no script results for n={n}")
        page.wait_for_timeout(5)
    return grid, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", choices=("select1",), help="time only the SELECT 1 clicks")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="script-latency-") as tmp:
        data = Path(tmp)
        os.environ.setdefault("WORKBENCH_SPARK_MASTER", "local[2]")
        with running_workbench(data) as bench, chromium() as browser:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(120_000)
            page.goto(bench.url)
            page.get_by_role("heading", name="SQL editor").wait_for(timeout=400_000)
            frame = editor_frame(page, timeout_s=400)  # a loaded machine: the component takes a while
            click_to_rows_ms(page, frame, "SELECT 1")  # warm the session
            select1 = [click_to_rows_ms(page, frame, "SELECT 1") for _ in range(args.runs)]
            script = [] if args.only else [click_to_script_ms(page, frame, 5 + i) for i in range(args.runs)]
    print(f"machine load (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    show("click to first row, SELECT 1", select1)
    if not script:
        return
    show("click to first row, 3-statement script (last result)", [g for g, _ in script])
    show("click to every statement's result listed, 3 statements", [s for _, s in script])


if __name__ == "__main__":
    main()
