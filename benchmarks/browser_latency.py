"""Latency as a user feels it, from a real browser (Debian's Chromium through Playwright).

Prints p50 and p95 of:
- keystroke to visible popup, warm context: the space after ``SELECT * FROM`` (tables from the
  dictionary the editor holds);
- keystroke to visible popup, cold context: ``SELECT t.`` over a table whose columns the editor has
  not seen yet (one request to the gateway's completion engine: with the default configuration, REST off,
  a ``fetch`` POST to the completion route on Streamlit's own server, ui/completion_route.py);
- keystroke to visible popup, a CTE's columns through its alias (``WITH s AS (…) SELECT s.``): the
  engine's parse of the statement, one request;
- keystroke to visible popup, typed as a user types: ``SELECT * FROM bench_tN t WHERE t.`` key by key with
  ``--typing-gap-ms`` (100 ms) between keys, over a table not seen yet; the engine prefetches the columns of
  the tables a statement names while the rest is typed, so the dot should find them known;
- Ctrl+Enter right after the last keystroke to the editor showing its running state (tests/e2e/test_editor.py
  checks that it shows; this prints how soon);
- click on *Run all* to the first row on screen, for ``SELECT 1`` (and ``--join`` for the sample join);
- the server's share: the completion route's own time per request (its ``Server-Timing`` header, read in the
  page), p50 and p95 per case and over every completion request of the cold, CTE and typed cases.

The workbench runs as ``streamlit run app.py`` on 127.0.0.1 with its own data directory; ``--tables N``
first creates N real tables of ``--columns`` columns in the metastore (in a separate process, before
the workbench starts: the embedded metastore admits one process). The popup is timed inside the page:
from the keydown event to the first animation frame in which the popup shows the expected candidate.

    .venv/bin/python benchmarks/browser_latency.py [--tables 2000] [--columns 20] [--runs 20] [--data-dir D]
                                                   [--typing-gap-ms 100] [--only click|completion] [--trace T.json]

The workbench runs with the default configuration (rest.enabled off, whatever the environment says), so the
figures are those of ``./workbench`` as installed. The script stops with an error if the editor's completion
went any other way than the route (a rerun, REST).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))   # tests/e2e import tests/ports.py as "ports"

from tests.e2e.workbench_app import chromium, editor_frame, replace_text, running_workbench  # noqa: E402

CREATE_TABLES = r"""
import sys
from gateway import GatewayService
tables, columns = int(sys.argv[1]), int(sys.argv[2])
gateway = GatewayService()
session = gateway.open_session(name="bench-setup")
cols = ", ".join(f"c{j} {'BIGINT' if j % 3 == 0 else 'STRING'}" for j in range(columns))
gateway.create_sample_database(session)
for i in range(tables):
    gateway.configure_session(session, f"CREATE TABLE IF NOT EXISTS sample.bench_t{i:04d} ({cols}) USING parquet")
gateway.close_session(session)
gateway.shutdown()
"""

# Keydown -> the first frame in which the popup shows ``expected``; the result lands in window.__popupMs.
MEASURE_POPUP = """(expected) => {
  window.__popupMs = null;
  const start = { t: null };
  const onKey = (e) => { if (start.t === null) start.t = e.timeStamp || performance.now(); };
  document.addEventListener("keydown", onKey, { capture: true, once: true });
  const tick = () => {
    const popup = document.querySelector(".ace_autocomplete");
    const shown = popup && popup.style.display !== "none" && popup.innerText.split("\\n").some(l => l.trim() === expected);
    if (start.t !== null && shown) {
      window.__popupAt = performance.now(); window.__popupKeydown = start.t; window.__popupMs = window.__popupAt - start.t;
      return;
    }
    if (start.t === null || performance.now() - start.t < 55000) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


# Where the popup's time went, from the editor's marks (window.sqlEditorCompletionTrace, ui/sql_editor/frontend/
# editor.js) and the route's Server-Timing (ui/completion_route.py), between the keydown and the popup on screen:
# before_request: keydown to the first completion asked (Ace, the editor's JS); refresh_wait: from it to the request
# whose answer the popup shows (answers without columns still loading, asked again); network: that request's
# sent -> response less the route's own time; route = queue (behind the editor's earlier request) + complete (the
# engine) + encode (JSON); parse: response -> JSON read; to_ace: JSON read -> candidates handed to Ace;
# render: handed to Ace -> the popup on screen. requests: completion requests sent; dropped: superseded or aborted.
POPUP_PHASES = """() => {
  const t0 = window.__popupKeydown, t1 = window.__popupAt;
  const trace = (window.sqlEditorCompletionTrace ? window.sqlEditorCompletionTrace() : [])
    .filter(m => m.asked >= t0 - 1 && m.asked <= t1);
  const answered = trace.filter(m => m.answered !== undefined && m.answered <= t1);
  const sent = trace.filter(m => m.sent !== undefined && m.sent <= t1);
  const last = sent.filter(m => m.parsed !== undefined && m.parsed <= t1 && !m.dropped).pop();
  const shown = answered.pop();
  const res = performance.getEntriesByType("resource")
    .filter(e => e.name.includes("/_workbench/sessions/") && e.startTime >= t0 - 1 && e.startTime <= t1 + 1);
  const timing = (name) => { const e = res.filter(r => r.responseEnd <= t1 + 1).pop();
    const t = e && (e.serverTiming || []).find(x => x.name === name); return t ? t.duration : 0; };
  const out = { requests: sent.length, dropped: sent.filter(m => m.dropped).length,
                before_request: trace.length ? trace[0].asked - t0 : 0, render: shown ? t1 - shown.answered : 0 };
  if (last) {
    out.refresh_wait = last.sent - (trace.length ? trace[0].asked : last.sent);
    out.route = timing("route"); out.queue = timing("queue"); out.complete = timing("complete");
    out.encode = timing("encode");
    out.network = Math.max(0, last.response - last.sent - out.route);
    out.parse = last.parsed - last.response;
    out.to_ace = shown && shown.answered >= last.parsed ? shown.answered - last.parsed : 0;
  }
  return out;
}"""
PHASE_NAMES = ("before_request", "refresh_wait", "network", "queue", "complete", "encode", "route", "parse", "to_ace",
               "render", "requests", "dropped")
PHASES: dict[str, list[dict]] = {}


def show_phases(name: str, phases: list[dict]) -> None:
    """p50/p95 of each phase of one case's popups (POPUP_PHASES)."""
    parts = []
    for phase in PHASE_NAMES:
        values = [p[phase] for p in phases if phase in p]
        if values:
            unit = "" if phase in ("requests", "dropped") else " ms"
            parts.append(f"{phase} {pct(values, 50):.1f}/{pct(values, 95):.1f}{unit}")
    print(f"  phases p50/p95, {name}: " + ", ".join(parts))


# Keydown (Ctrl+Enter) -> the first frame in which the editor's status badge says Running; in window.__runningMs.
MEASURE_RUNNING = """() => {
  window.__runningMs = null;
  const start = { t: null };
  const onKey = (e) => { if (start.t === null) start.t = e.timeStamp || performance.now(); };
  document.addEventListener("keydown", onKey, { capture: true, once: true });
  const tick = () => {
    const badge = document.getElementById("status");
    const running = badge && badge.style.display !== "none" && /Running/.test(badge.textContent);
    if (start.t !== null && running) { window.__runningMs = performance.now() - start.t; return; }
    if (start.t === null || performance.now() - start.t < 10000) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


# Each completion request's own time on the server (the route's Server-Timing header, same origin).
SERVER_TIMINGS = """() => performance.getEntriesByType("resource")
  .filter(e => e.name.includes("/_workbench/sessions/") && e.serverTiming)
  .flatMap(e => e.serverTiming.filter(t => t.name === "complete").map(t => t.duration))"""


def server_timings(frame) -> list[float]:
    """The route's own times (ms) of the completion requests since the last call; then forgets them."""
    found = frame.evaluate(SERVER_TIMINGS)
    frame.evaluate("performance.clearResourceTimings()")
    return found


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


def show(name, values):
    print(f"{name:<52} n={len(values):<3} p50 {pct(values, 50):8.1f} ms   p95 {pct(values, 95):8.1f} ms")


def popup_ms(page, frame, before: str, key: str, expected: str, case: str = "warm") -> float:
    page.keyboard.press("Escape")
    replace_text(page, frame, before)
    frame.evaluate(MEASURE_POPUP, expected)
    page.keyboard.type(key)
    return popup_shown(frame, case)


def popup_shown(frame, case: str) -> float:
    """The keystroke-to-popup time just measured (MEASURE_POPUP), its phases kept under ``case``."""
    frame.wait_for_function("window.__popupMs !== null", timeout=60_000)
    PHASES.setdefault(case, []).append(frame.evaluate(POPUP_PHASES))
    frame.evaluate(MARK_WINDOWS, case)
    return frame.evaluate("window.__popupMs")


# With --trace: the popup's parse phase (the answer's headers -> its JSON read) and the whole keystroke -> popup as
# user-timing measures, so that the trace's summary can name what ran on the main thread within them.
MARK_WINDOWS = """(name) => {
  const t0 = window.__popupKeydown, t1 = window.__popupAt;
  const last = (window.sqlEditorCompletionTrace ? window.sqlEditorCompletionTrace() : [])
    .filter(m => m.asked >= t0 - 1 && m.parsed !== undefined && m.parsed <= t1 && !m.dropped).pop();
  try {
    performance.measure("wb-popup-" + name, { start: t0, end: t1 });
    if (last) performance.measure("wb-parse-" + name, { start: last.response, end: last.parsed });
  } catch (e) { /* marks are for the trace only */ }
}"""
# Trace events that say what a main-thread slice was (their args name the script, event or timer).
_TRACE_KINDS = ("FunctionCall", "EventDispatch", "TimerFire", "FireAnimationFrame", "XHRReadyStateChange",
                "ResourceReceiveResponse", "ResourceFinish", "Layout", "UpdateLayoutTree", "Paint", "PrePaint",
                "Commit", "HitTest", "ParseHTML", "EvaluateScript", "v8.compile", "MajorGC", "MinorGC",
                "V8.GC_SCAVENGER", "V8.GC_MARK_COMPACTOR", "RunMicrotasks", "ScheduleStyleRecalculation",
                "v8.run", "V8.Execute", "FireIdleCallback", "ResourceSendRequest", "ParseAuthorStyleSheet")


def trace_summary(path: Path, top: int = 14) -> None:
    """What the renderers' main threads ran within the popups' parse windows and whole keystroke -> popup
    windows (MARK_WINDOWS): per kind (script function and file, event type, GC, layout), total and max ms."""
    import json
    from collections import defaultdict
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    windows: dict[str, list[tuple[float, float]]] = defaultdict(list)
    begun: dict = {}
    for e in events:
        name = e.get("name", "")
        if e.get("cat", "").startswith("blink.user_timing") and name.startswith("wb-"):
            key = (name, json.dumps(e.get("id", e.get("id2")), sort_keys=True))
            if e.get("ph") == "b":
                begun[key] = e["ts"]
            elif e.get("ph") == "e" and key in begun:
                windows[name.split("-")[1]].append((begun.pop(key), e["ts"]))
    slices = [e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in main
              and e.get("name") in _TRACE_KINDS and e.get("dur")]
    for kind in ("parse", "popup"):
        spans = windows.get(kind, [])
        if not spans:
            print(f"  trace: no {kind} windows found")
            continue
        totals: dict[str, list[float]] = defaultdict(list)
        for e in slices:
            start, end = e["ts"], e["ts"] + e["dur"]
            inside = sum(max(0.0, min(end, b) - max(start, a)) for a, b in spans)
            if inside <= 0:
                continue
            data = (e.get("args") or {}).get("data") or {}
            what = data.get("functionName") or data.get("type") or ""
            where = (data.get("url") or "").rsplit("/", 1)[-1][:40]
            totals[f"{e['name']} {what} {where}".strip()].append(inside / 1000)
        span_ms = sum(b - a for a, b in spans) / 1000
        print(f"  trace: main-thread slices within {len(spans)} {kind} windows ({span_ms:.0f} ms in all; nested "
              f"slices count in each kind):")
        for label, values in sorted(totals.items(), key=lambda kv: -sum(kv[1]))[:top]:
            print(f"    {sum(values):8.1f} ms  n={len(values):<4} max {max(values):6.1f} ms  {label}")


def run_to_running_ms(page, frame, sql: str) -> float:
    """Ctrl+Enter right after typing ``sql`` to the running state on screen; then waits for the run's end."""
    page.keyboard.press("Escape")
    replace_text(page, frame, sql)
    frame.evaluate(MEASURE_RUNNING)
    page.keyboard.press("Control+Enter")
    frame.wait_for_function("window.__runningMs !== null", timeout=60_000)
    frame.wait_for_function("document.getElementById('status').style.display === 'none'", timeout=120_000)
    return frame.evaluate("window.__runningMs")


def click_to_rows_ms(page, frame, sql: str) -> float:
    page.keyboard.press("Escape")
    replace_text(page, frame, sql)
    started = time.perf_counter()
    frame.click("#run-all")
    frame.wait_for_function("document.getElementById('status').style.display !== 'none'", timeout=10_000)
    deadline = time.monotonic() + 120
    while True:
        idle = frame.evaluate("document.getElementById('status').style.display === 'none'")
        if idle and page.locator('[data-testid="stDataFrame"]').count() > 0:
            return (time.perf_counter() - started) * 1000
        if time.monotonic() > deadline:
            raise AssertionError(f"no rows for {sql!r}")
        page.wait_for_timeout(5)


def wait_for_dictionary(page, condition: str, timeout_s: float = 1800):
    """The editor's frame once ``condition`` holds in it. The editor keeps asking for a dictionary still
    loading for 20 minutes; a space typed now and then (a draft event, whose rerun ships the dictionary once
    it is there) asks too. The frame is found anew each time: a page rerun may have replaced it."""
    deadline = time.monotonic() + timeout_s
    while True:
        frame = editor_frame(page)
        try:
            frame.wait_for_function(condition, timeout=20_000)
            return frame
        except Exception:  # noqa: BLE001 - playwright's TimeoutError, a detached frame: nudge and wait again
            if time.monotonic() > deadline:
                raise
            frame = editor_frame(page)
            frame.click(".ace_content")
            page.keyboard.press("End")
            page.keyboard.type(" ")  # a change of the text: the editor hands it over (an unchanged one it does not)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--columns", type=int, default=20)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--join", action="store_true", help="also click-to-first-row for the sample join")
    parser.add_argument("--data-dir", type=Path, help="keep the workbench's data (and its tables) here; a second "
                        "run with the same directory and sizes skips creating them (10,000 tables take ~11 min)")
    parser.add_argument("--prepare-only", action="store_true", help="create the tables, measure nothing")
    parser.add_argument("--typing-gap-ms", type=int, default=100, help="the gap between keys of the typed case")
    parser.add_argument("--trace", type=Path, help="record a Chromium trace of the cold and CTE cases to this file "
                                                    "and print what the main thread ran within their popups")
    parser.add_argument("--only", choices=("click", "completion"),
                        help="click: only click to first row of SELECT 1 (after 3 warm-up clicks), no popups; with "
                             "--tables 0 nothing is created first. completion: only the popups (the quick A/B)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="browser-latency-") as tmp:
        data = args.data_dir or Path(tmp)
        data.mkdir(parents=True, exist_ok=True)
        prepared = data / f"bench-tables-{args.tables}x{args.columns}"
        env = dict(os.environ, WORKBENCH_DATA_DIR=str(data), WORKBENCH_SPARK_MASTER="local[2]")
        if not prepared.exists() and args.tables:
            started = time.monotonic()
            subprocess.run([sys.executable, "-c", CREATE_TABLES, str(args.tables), str(args.columns)],
                           cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            prepared.touch()
            print(f"{args.tables} tables of {args.columns} columns (plus the sample database) in "
                  f"{time.monotonic() - started:.0f} s; load {os.getloadavg()[0]:.1f}")
        if args.prepare_only:
            return
        with running_workbench(data, {"WORKBENCH_REST_ENABLED": "false"}) as bench, chromium() as browser:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(120_000)
            page.goto(bench.url)   # Spark starts with the first page: on a loaded machine that took over 6 minutes
            page.get_by_role("heading", name="SQL editor").wait_for(timeout=900_000)
            editor_frame(page, timeout_s=900)
            if args.only == "click":
                # the page settled (its first runs and the dictionary's shipping can replace the frame)
                _clicks_only(page, wait_for_dictionary(page, "window.sqlEditorDictionary && window.sqlEditorDictionary()"),
                             args)
                return
            frame = wait_for_dictionary(page, "window.sqlEditorDictionary && window.sqlEditorDictionary()")
            # The session's current database is "default": name the sample tables by database.
            replace_text(page, frame, "USE sample")
            page.keyboard.press("Control+Enter")
            page.get_by_text("FINISHED").first.wait_for()
            frame = wait_for_dictionary(page, "window.sqlEditorDictionary().relations.some(r => r.value === 'bench_t0000')")
            warm = [popup_ms(page, frame, "SELECT * FROM", " ", "bench_t0000") for _ in range(args.runs)]
            frame.evaluate("performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings()")
            before = frame.evaluate("window.sqlEditorCompletionRoutes()")
            if args.trace:
                browser.start_tracing(page=page, categories=[
                    "devtools.timeline", "v8.execute", "blink.user_timing"])
            cold = [_cold(page, frame, i) for i in range(1, args.runs + 1)]
            server_cold = server_timings(frame)
            cte = [_cte(page, frame, i) for i in range(1, args.runs + 1)]
            server_cte = server_timings(frame)
            if args.trace:
                args.trace.write_bytes(browser.stop_tracing())
            # Tables neither case above named (with fewer tables than 2 x runs + 1, some were seen: a smoke run).
            typed = [_typed(page, frame, (args.runs + i) % args.tables, args.typing_gap_ms)
                     for i in range(1, args.runs + 1)]
            server_typed = server_timings(frame)
            server = server_cold + server_cte + server_typed
            routes = frame.evaluate("window.sqlEditorCompletionRoutes()")
            if routes["path"] != "route" or routes["rerun"] != before["rerun"] or routes["direct_errors"]:
                raise SystemExit(f"the popups did not all come from the completion route: {before} -> {routes}")
            print(f"machine load (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            print(f"completion path: {routes['path']} (the route on Streamlit's server); requests by path {routes}")
            show("keystroke to popup, warm (SELECT * FROM ␣)", warm)
            show("keystroke to popup, cold (t. of a table not seen yet)", cold)
            show("keystroke to popup, CTE columns (s. of WITH s AS …)", cte)
            show(f"keystroke to popup, typed FROM t … t. ({args.typing_gap_ms} ms gaps)", typed)
            if server:
                for name, values in (("cold", server_cold), ("CTE", server_cte), ("typed", server_typed)):
                    if values:
                        show(f"server side, completion route ({name} case)", values)
                show("server side, completion route (all three cases)", server)
            else:
                print("server side: no Server-Timing read from the completion route's answers")
            for case, phases in PHASES.items():
                show_phases(case, phases)
            if args.trace:
                trace_summary(args.trace)
            sys.stdout.flush()   # the completion figures stand even if a run below fails
            if args.only == "completion":
                return
            running = [run_to_running_ms(page, frame, f"SELECT * FROM range({37 + i})") for i in range(args.runs)]
            select1 = [click_to_rows_ms(page, frame, "SELECT 1") for _ in range(args.runs)]
            join = []
            if args.join:
                join = [click_to_rows_ms(page, frame, "SELECT c.country, count(*) AS n FROM orders o JOIN "
                                                      "customers c ON o.customer_id = c.id GROUP BY c.country")
                        for _ in range(max(3, args.runs // 4))]
    show("Ctrl+Enter to the running state shown", running)
    show("click to first row, SELECT 1", select1)
    if join:
        show("click to first row, the sample join", join)


def _clicks_only(page, frame, args) -> None:
    """``--only click``: SELECT 1 click to first row alone (the quick A/B of the editor's click path)."""
    for _ in range(3):
        click_to_rows_ms(page, frame, "SELECT 1")
    select1 = [click_to_rows_ms(page, frame, "SELECT 1") for _ in range(args.runs)]
    print(f"machine load (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    show("click to first row, SELECT 1", select1)


def _cold(page, frame, i: int) -> float:
    """``SELECT t.`` with the cursor after the dot, over a table whose columns the editor has not asked for."""
    page.keyboard.press("Escape")
    replace_text(page, frame, f" FROM bench_t{i:04d} t")
    page.keyboard.press("Home")
    page.keyboard.type("SELECT t")
    frame.evaluate(MEASURE_POPUP, "c1")
    page.keyboard.type(".")
    return popup_shown(frame, "cold")


def _cte(page, frame, i: int) -> float:
    """``WITH s AS (SELECT c1 AS picked_i …) SELECT s.``: a context only a parse of the statement answers."""
    page.keyboard.press("Escape")
    replace_text(page, frame, " FROM s")
    page.keyboard.press("Home")
    page.keyboard.type(f"WITH s AS (SELECT c1 AS picked_{i} FROM bench_t{i:04d}) SELECT s")
    frame.evaluate(MEASURE_POPUP, f"picked_{i}")
    page.keyboard.type(".")
    return popup_shown(frame, "CTE")


def _typed(page, frame, i: int, gap_ms: int) -> float:
    """``SELECT * FROM bench_tN t WHERE t.`` typed key by key as a person types (``gap_ms`` between keys), into an
    empty editor: the popup after the dot, over a table whose columns nobody asked for before this statement."""
    page.keyboard.press("Escape")
    replace_text(page, frame, "")
    page.keyboard.type(f"SELECT * FROM bench_t{i:04d} t WHERE t", delay=gap_ms)
    page.wait_for_timeout(gap_ms)   # the same gap before the dot
    frame.evaluate(MEASURE_POPUP, "c1")
    page.keyboard.type(".")
    return popup_shown(frame, "typed")


if __name__ == "__main__":
    main()
