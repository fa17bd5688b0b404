"""Whole-result operations on the gateway's result spool: a 1,000,000-row result spooled to Parquet, then
sorted to its first page (goal <= 1 s), searched, filtered, and charted (goal <= 2 s), as the gateway calls the
grid and the chart make. Prints each figure (median of --runs) and the load average it was measured under.

With ``--browser``, the same result in the workbench in headless Chromium (Playwright): click on Run all to
the grid, click on the Chart tab to the drawn chart, and a sort of the whole result to its first sorted page,
with the browser's long tasks (PerformanceObserver 'longtask') over the whole time: the goal is none over
200 ms.

    .venv/bin/python benchmarks/result_operations.py [--rows N] [--runs N] [--data-dir DIR] [--browser]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway import ChartSpec, GatewayService, RowFilter, SortKey, load_config  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402


def timed(call, runs: int) -> tuple[float, object]:
    timings, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), result


# Long tasks, and what ran in them: Chromium's long animation frames name each script over 50 ms (its file
# and the call that started it), e.g. the first chart's Vega bundle being evaluated.
LONG_TASKS = """() => { window.__longTasks = []; window.__longFrames = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({type: 'longtask', buffered: false});
  new PerformanceObserver(list => { for (const e of list.getEntries()) {
      if (e.duration < 200) continue;
      window.__longFrames.push({duration: Math.round(e.duration), blocking: Math.round(e.blockingDuration),
        scripts: e.scripts.filter(s => s.duration >= 50).map(s => `${Math.round(s.duration)} ms ${s.invokerType} `
          + `${s.invoker} @ ${(s.sourceURL || '').split('/').pop()}${s.sourceFunctionName ? ' ' + s.sourceFunctionName : ''}`
          + (s.forcedStyleAndLayoutDuration ? ` (layout ${Math.round(s.forcedStyleAndLayoutDuration)} ms)` : ''))});
  } }).observe({type: 'long-animation-frame', buffered: false}); }"""

LONG_FRAMES = "window.__longFrames.splice(0)"


def browser(rows: int) -> None:
    """Click to grid, Chart tab to chart, sort to sorted page, and the long tasks, in Chromium."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from tests.e2e.workbench_app import chromium, editor_frame, replace_text, running_workbench

    with tempfile.TemporaryDirectory(prefix="result-operations-") as tmp, \
            running_workbench(Path(tmp)) as bench, chromium() as chrome:
        page = chrome.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(600_000)
        page.goto(bench.url)
        frame = editor_frame(page, timeout_s=900)  # Spark's start on a loaded machine
        page.evaluate(LONG_TASKS)
        replace_text(page, frame, query(rows), delay_ms=0)
        started = time.perf_counter()
        frame.click("#run-all")
        page.get_by_text("Sort whole result by").first.wait_for()
        page.locator('[data-testid="stDataFrame"]').first.wait_for()
        to_grid = time.perf_counter() - started
        phases = {"page load, run and grid": page.evaluate("window.__longTasks.splice(0)")}
        frames = {"page load, run and grid": page.evaluate(LONG_FRAMES)}
        started = time.perf_counter()
        page.get_by_role("tab", name="Chart").click()
        page.get_by_text("Aggregated in the gateway over").first.wait_for()
        # The chart is a picture drawn in the workbench (ui/charts.py); "Interactive" would draw it with Vega.
        page.locator('[data-testid="stImage"] img, .vega-embed canvas, .vega-embed svg').first.wait_for()
        to_chart = time.perf_counter() - started
        print(f"browser ({rows:,} rows): click to grid {to_grid:.1f} s (query and spool), Chart tab to chart "
              f"{to_chart:.2f} s", flush=True)
        phases["chart"] = page.evaluate("window.__longTasks.splice(0)")
        frames["chart"] = page.evaluate(LONG_FRAMES)
        page.get_by_role("tab", name="Result").click()
        page.wait_for_timeout(500)
        page.evaluate("window.__longTasks.splice(0)")
        page.evaluate(LONG_FRAMES)
        started = time.perf_counter()
        to_sorted = None
        try:
            page.locator('[data-testid="stMultiSelect"]').first.click()
            page.get_by_role("option", name="id ↓").first.click(timeout=60_000)
            page.get_by_text("sorted by id ↓ over all").first.wait_for(timeout=120_000)
            to_sorted = time.perf_counter() - started
        except Exception as exc:  # noqa: BLE001 - the figures before still count
            print(f"the sort could not be driven: {type(exc).__name__}", flush=True)
        phases["sort"] = page.evaluate("window.__longTasks.splice(0)")
        frames["sort"] = page.evaluate(LONG_FRAMES)
    sorted_text = "not measured" if to_sorted is None else f"{to_sorted:.2f} s"
    print(f"browser ({rows:,} rows), load {os.getloadavg()[0]:.1f}: click to grid {to_grid:.1f} s (query and spool), "
          f"Chart tab to chart {to_chart:.2f} s, sort to the first sorted page {sorted_text}")
    for phase, tasks in phases.items():
        print(f"  long tasks during {phase}: {len(tasks)}, the longest {max(tasks, default=0):.0f} ms, "
              f"over 200 ms: {sum(1 for t in tasks if t > 200)}")
        for long_frame in frames.get(phase, []):
            print(f"    frame of {long_frame['duration']} ms (blocking {long_frame['blocking']} ms): "
                  + ("; ".join(long_frame["scripts"]) or "no script over 50 ms (style, layout, paint)"))


def query(rows: int) -> str:
    return (f"SELECT id, CAST(rand(7) * 1000 AS DOUBLE) AS amount, concat('customer-', CAST(id % 50000 AS STRING)) "
            f"AS customer, element_at(array('DE','FR','IT','ES','PL'), CAST(id % 5 AS INT) + 1) AS country, "
            f"date_add(DATE'2023-01-01', CAST(id % 730 AS INT)) AS day FROM range({rows})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per call (median printed)")
    parser.add_argument("--data-dir", default="/tmp/bench-result-operations")
    parser.add_argument("--browser", action="store_true", help="the figures in Chromium instead of the gateway's")
    args = parser.parse_args(argv)
    if args.browser:
        browser(args.rows)
        return 0
    root = Path(__file__).resolve().parent.parent
    config = load_config(root / "workbench.toml", environ={}).with_overrides(
        data_dir=args.data_dir, spark__master="local[2]", session__idle_timeout_s=0, session__restore=False)
    gateway = GatewayService(config)
    sql = query(args.rows)
    try:
        with acting_as(LOCAL_PRINCIPAL):
            session = gateway.open_session(name="bench")
            op = gateway.execute_statement(session, sql)
            start = time.perf_counter()
            gateway.spool_result(session, op)
            info = gateway.get_result_spool(session, op, wait_s=600)
            spooled = time.perf_counter() - start
            print(f"load average before the calls: {os.getloadavg()[0]:.1f} (2 cores)")
            print(f"{'call':<58} {'median s':>9}")
            print(f"{'execute + spool ' + format(info.rows, ',') + ' rows to Parquet':<58} {spooled:>9.2f}"
                  f"   ({info.bytes / 1e6:.0f} MB)")
            figures = [
                ("first page, no sort", lambda: gateway.result_page(session, op, 0, 1000)),
                ("sort by id descending, first 1,000 rows (goal <= 1 s)",
                 lambda: gateway.result_page(session, op, 0, 1000, sort=[SortKey("id", True)])),
                ("sort by country, amount desc (two keys)",
                 lambda: gateway.result_page(session, op, 0, 1000, sort=[SortKey("country"),
                                                                         SortKey("amount", True)])),
                ("search 'customer-4242' in every column",
                 lambda: gateway.result_page(session, op, 0, 1000, search="customer-4242")),
                ("filter amount > 990 and country = DE",
                 lambda: gateway.result_page(session, op, 0, 1000, filters=[RowFilter("amount", ">", 990),
                                                                            RowFilter("country", "=", "DE")])),
                ("suggest_chart (distinct counts of text columns)", lambda: gateway.suggest_chart(session, op)),
                ("chart: sum(amount) by day (auto bucket) and country (goal <= 2 s)",
                 lambda: gateway.result_chart(session, op, ChartSpec("day", "amount", "sum", "country"))),
                ("chart: count by customer, top 20 of 50,000",
                 lambda: gateway.result_chart(session, op, ChartSpec("customer", None, "count"))),
                ("export CSV (whole file)", lambda: sum(len(c) for c in gateway.export_result(session, op, "csv"))),
                ("export Parquet (whole file)",
                 lambda: sum(len(c) for c in gateway.export_result(session, op, "parquet"))),
            ]
            for label, call in figures:
                median, result = timed(call, args.runs)
                extra = ""
                if hasattr(result, "total"):
                    extra = f"   ({result.total:,} rows match)"
                elif hasattr(result, "groups"):
                    extra = f"   ({len(result.rows):,} points of {result.groups:,} groups)"
                elif isinstance(result, int):
                    extra = f"   ({result / 1e6:.0f} MB)"
                print(f"{label:<58} {median:>9.2f}{extra}")
            print(f"load average after: {os.getloadavg()[0]:.1f}")
            gateway.close_operation(session, op)
    finally:
        gateway.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
