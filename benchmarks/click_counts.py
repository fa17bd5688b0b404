"""What one click on *Run all* for ``SELECT 1`` costs, in counts that do not depend on the machine's load.

For each measured click (after warm-ups), from a real browser (Chromium, Playwright) and a probe in the
Streamlit server process:
- the script runs and fragment runs it caused (which fragments), each one's Python CPU time on its own
  thread (``time.thread_time``), its wall time and the ForwardMsgs it queued (count and bytes);
- the ForwardMsgs the browser received over the WebSocket until the row's grid arrived and after it
  (count, bytes, and what the deltas drew);
- the gateway calls made (by name; the script thread's and all threads'), and the server process's
  CPU time (``/proc/<pid>/stat``) from the click to the row and to quiet;
- with ``--profile``, a cProfile of the script runs of the measured clicks (top functions).

The probe is a ``sitecustomize`` on the server's PYTHONPATH that wraps Streamlit's script runner and the
gateway's public methods; nothing of the checkout is changed, so ``--root`` can point at another checkout
(an older commit in a scratch worktree) and the two print the same table:

    .venv/bin/python benchmarks/click_counts.py [--clicks 5] [--warmups 3] [--profile] [--root CHECKOUT]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SPARK_CONF = '{"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "1g"}'

PROBE = textwrap.dedent('''
    """The click probe (benchmarks/click_counts.py): script runs, their CPU and messages, gateway calls."""
    import cProfile, collections, json, os, threading, time

    _LOG = os.environ["CLICK_PROBE_DIR"]
    _lock = threading.Lock()
    _calls = collections.Counter()          # (thread kind, method) -> calls, every thread, cumulative
    _local = threading.local()
    _patched = set()
    _profiles = [0]

    def _write(name, record):
        with _lock, open(os.path.join(_LOG, name), "a") as out:
            out.write(json.dumps(record) + "\\n")

    def _mark(name):
        """One moment of the click's timeline (epoch seconds, the machine's clock, as the browser's is)."""
        _write("marks.jsonl", {"name": name, "t": time.time()})

    def _wrap_class(cls):
        if cls in _patched:
            return
        _patched.add(cls)
        for name, member in list(vars(cls).items()):
            if name.startswith("_") or not callable(member) or isinstance(member, (staticmethod, classmethod, type)):
                continue
            def wrapper(*args, __f=member, __name=name, **kwargs):
                depth = getattr(_local, "depth", 0)
                if depth == 0:
                    kind = "script" if threading.current_thread().name.startswith("ScriptRunner") else "other"
                    with _lock:
                        _calls[kind + ":" + __name] += 1
                    run = getattr(_local, "run", None)
                    if run is not None:
                        run["gateway"][__name] = run["gateway"].get(__name, 0) + 1
                started = time.perf_counter()
                if depth == 0 and run is not None:
                    _mark("gateway " + __name + " start")
                _local.depth = depth + 1
                try:
                    answer = __f(*args, **kwargs)
                    if __name == "fetch_results" and depth == 0:
                        _mark("fetch_results " + getattr(getattr(answer, "result_type", None), "name", "?"))
                    return answer
                finally:
                    _local.depth = depth
                    if depth == 0 and run is not None:
                        _mark("gateway " + __name + " end")
                        run["gateway_ms"][__name] = round(run["gateway_ms"].get(__name, 0)
                                                          + (time.perf_counter() - started) * 1000, 1)
            wrapper.__name__ = name
            setattr(cls, name, wrapper)

    def _patch_internals():
        """Marks inside the gateway: the statement's end, the spool's first page and its end."""
        try:
            from gateway.core import operations
            original_transition = operations.Operation.transition

            def transition(self, target, __f=original_transition):
                moved = __f(self, target)
                if moved and target.is_terminal:
                    _mark("statement " + target.name)
                return moved
            operations.Operation.transition = transition
        except Exception as exc:  # noqa: BLE001
            _write("errors.jsonl", {"error": "timeline marks: " + repr(exc)})
        try:
            from gateway.core import result_spool
            original_add = result_spool.ResultSpool._add

            def add(self, table, force, __f=original_add):
                first = not self.files and not self._pending
                __f(self, table, force)
                if first:
                    _mark("spool first page written")
            result_spool.ResultSpool._add = add
            original_fill = result_spool.ResultSpool.fill

            def fill(self, pages, on_cap, __f=original_fill):
                try:
                    return __f(self, pages, on_cap)
                finally:
                    _mark("spool done")
            result_spool.ResultSpool.fill = fill
        except ImportError:
            pass  # an older checkout spooled in ui/runs.py: its fetches are marked (fetch_results)
        except Exception as exc:  # noqa: BLE001
            _write("errors.jsonl", {"error": "timeline marks: " + repr(exc)})

    def _dump_calls():
        last = None
        while True:
            time.sleep(0.1)
            with _lock:
                now = dict(_calls)
            if now != last:
                tmp = os.path.join(_LOG, "calls.json.tmp")
                with open(tmp, "w") as out:
                    json.dump(now, out)
                os.replace(tmp, os.path.join(_LOG, "calls.json"))
                last = now

    def _install():
        from streamlit.runtime.scriptrunner import script_runner
        original_exec = script_runner.exec_func_with_error_handling
        original_enqueue = script_runner.ScriptRunner._enqueue_forward_msg

        def enqueue(self, msg):
            run = getattr(_local, "run", None)
            if run is not None:
                run["msgs"] += 1
                run["bytes"] += msg.ByteSize()
                kind = msg.WhichOneof("type")
                if kind == "delta":
                    delta = msg.delta.WhichOneof("type")
                    if delta == "new_element":
                        delta = msg.delta.new_element.WhichOneof("type")
                    kind = "delta:" + str(delta)
                    if delta in ("dataframe", "arrow_data_frame", "arrow_table"):
                        _mark("grid delta queued")
                run["kinds"][kind] = run["kinds"].get(kind, 0) + 1
            return original_enqueue(self, msg)

        def exec_with_probe(func, ctx):
            if not _patched:
                try:
                    import gateway
                    _wrap_class(gateway.GatewayService)
                    _patch_internals()
                except Exception as exc:  # noqa: BLE001
                    _write("errors.jsonl", {"error": repr(exc)})
            fragments = list(ctx.fragment_ids_this_run or [])
            names = []
            for fid in fragments:
                try:
                    f = ctx.fragment_storage.get(fid)
                    inner = [c.cell_contents for c in (f.__closure__ or ()) if callable(c.cell_contents)
                             and hasattr(c.cell_contents, "__qualname__")]
                    names.append(next((i.__qualname__ for i in inner if i.__qualname__ != f.__qualname__), fid))
                except Exception:  # noqa: BLE001
                    names.append(fid)
            run = {"fragments": names, "msgs": 0, "bytes": 0, "kinds": {}, "gateway": {}, "gateway_ms": {},
                   "wall_start": time.time()}
            _mark("run start " + (",".join(str(n) for n in names) or "PAGE"))
            _local.run = run
            profiler = None
            if os.path.exists(os.path.join(_LOG, "profile-on")):
                profiler = cProfile.Profile()
            cpu = time.thread_time()
            started = time.perf_counter()
            try:
                if profiler is not None:
                    profiler.enable()
                return original_exec(func, ctx)
            finally:
                if profiler is not None:
                    profiler.disable()
                    _profiles[0] += 1
                    profiler.dump_stats(os.path.join(_LOG, f"run-{_profiles[0]}.pstats"))
                run["cpu_ms"] = (time.thread_time() - cpu) * 1000
                run["wall_ms"] = (time.perf_counter() - started) * 1000
                run["wall_end"] = time.time()
                _mark("run end " + (",".join(str(n) for n in names) or "PAGE"))
                _local.run = None
                _write("runs.jsonl", run)

        for module, cls in (("py4j.clientserver", "ClientServerConnection"), ("py4j.java_gateway", "GatewayConnection")):
            try:
                target = getattr(__import__(module, fromlist=[cls]), cls)
            except Exception:  # noqa: BLE001
                continue
            def send_command(self, command, *args, __f=target.send_command, **kwargs):
                kind = "script" if threading.current_thread().name.startswith("ScriptRunner") else "other"
                with _lock:
                    _calls["py4j:" + kind] += 1
                return __f(self, command, *args, **kwargs)
            target.send_command = send_command
        script_runner.exec_func_with_error_handling = exec_with_probe
        script_runner.ScriptRunner._enqueue_forward_msg = enqueue
        threading.Thread(target=_dump_calls, daemon=True, name="click-probe").start()

    try:
        _install()
    except Exception as exc:  # noqa: BLE001
        _write("errors.jsonl", {"error": repr(exc)})
''')


def _process_cpu_s(pid: int) -> float:
    """User + system CPU of one process (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _jvm_cpu_s(pid: int) -> float:
    """CPU of the server's child processes (the JVM that py4j started), in seconds."""
    total = 0.0
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for cpid in child.read_text().split():
            try:
                total += _process_cpu_s(int(cpid))
            except (OSError, ValueError):
                pass
    return total


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in Path(f"/proc/{todo.pop()}/task").glob("*/children"):
            try:
                kids = [int(k) for k in child.read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def _browser_cpu_s(server_pid: int) -> float:
    """CPU of this script's own descendants (Playwright's driver and Chromium), the server's tree left out."""
    server = {server_pid, *_descendants(server_pid)}
    total = 0.0
    for pid in _descendants(os.getpid()):
        if pid not in server:
            try:
                total += _process_cpu_s(pid)
            except (OSError, ValueError):
                pass
    return total


def _read_runs(probe: Path) -> list[dict]:
    path = probe / "runs.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _read_marks(probe: Path) -> list[dict]:
    path = probe / "marks.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def steps(c: dict) -> list[tuple[str, float]]:
    """One click's timeline: each moment's first occurrence, ms from the click (browser and server clocks
    are the machine's)."""
    t = c["timeline"]
    if t["click"] is None:
        return []
    at = lambda epoch_ms: round(epoch_ms - t["click"], 1)  # noqa: E731
    found: list[tuple[str, float]] = []

    def first(name: str, epoch_ms) -> None:
        if epoch_ms is not None and name not in dict(found):
            found.append((name, at(epoch_ms)))

    first("BackMsg sent (browser)", t["sent"][0] if t["sent"] else None)
    for mark in t["marks"]:
        name = mark["name"]
        if name.startswith("gateway ") and not any(k in name for k in ("execute_statement", "spool_result",
                                                                      "get_result_spool", "result_page",
                                                                      "get_operation_info")):
            continue
        if name.startswith("fetch_results"):
            name = "first page fetched (" + name.split()[-1] + ")"
        first(name, mark["t"] * 1000)
    msgs = t["ws"]
    grid_index = len(c["to_row"]) - 1 if any(k.endswith(("dataframe", "arrow_table")) for _, k in c["to_row"]) else None
    first("first frame received (browser)", msgs[0][0] if msgs else None)
    if grid_index is not None and grid_index < len(msgs):
        first("grid frame received (browser)", msgs[grid_index][0])
    if t["grids"]:
        first("grid element added (browser)", t["grids"][-1][0])
        first("grid painted (browser, 2 frames on)", t["grids"][-1][1])
    first("status badge hidden (editor)", t["idle"])
    return sorted(found, key=lambda item: item[1])


def _read_calls(probe: Path) -> collections.Counter:
    time.sleep(0.25)   # the probe writes its counters every 0.1 s
    path = probe / "calls.json"
    return collections.Counter(json.loads(path.read_text())) if path.exists() else collections.Counter()


def _describe(msg) -> str:
    kind = msg.WhichOneof("type")
    if kind != "delta":
        return kind or "?"
    delta = msg.delta.WhichOneof("type")
    if delta == "new_element":
        return "element:" + str(msg.delta.new_element.WhichOneof("type"))
    if delta == "add_block":
        return "block:" + str(msg.delta.add_block.WhichOneof("type"))
    return "delta:" + str(delta)


# Each WebSocket message's arrival (epoch ms) and size, recorded in the page itself: the browser's own clock.
RECORD_MESSAGES = """(() => {
  const Native = window.WebSocket;
  window.__wsTimes = [];
  window.__wsSent = [];
  window.__gridTimes = [];
  const nativeSend = Native.prototype.send;
  Native.prototype.send = function (data) {
    window.__wsSent.push(performance.timeOrigin + performance.now());   // a BackMsg (the rerun request)
    return nativeSend.call(this, data);
  };
  // A result grid put on the page: when its element appears, and the next frame after it (painted).
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && (node.matches('[data-testid="stDataFrame"]') ||
                                    node.querySelector('[data-testid="stDataFrame"]'))) {
          const added = performance.timeOrigin + performance.now();
          requestAnimationFrame(() => requestAnimationFrame(() =>
            window.__gridTimes.push([added, performance.timeOrigin + performance.now()])));
          return;
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    ws.addEventListener("message", (e) => {
      const size = e.data && (e.data.byteLength !== undefined ? e.data.byteLength : (e.data.size || e.data.length));
      window.__wsTimes.push([performance.timeOrigin + performance.now(), size || 0]);
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();"""

# In the editor's frame: the click's time and the first frame in which its status badge is hidden again.
RECORD_CLICK = """() => {
  window.__clickAt = null; window.__idleAt = null;
  document.getElementById("run-all").addEventListener("click", () => {
    window.__clickAt = performance.timeOrigin + performance.now();
    const tick = () => {
      const badge = document.getElementById("status");
      if (window.__clickAt !== null && badge.style.display === "none" && performance.now() > 0) {
        window.__idleAt = performance.timeOrigin + performance.now(); return;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(() => requestAnimationFrame(tick));
  }, { capture: true, once: true });
}"""


class Frames:
    """The ForwardMsgs the page's WebSocket received, parsed (Streamlit's own protobuf)."""

    def __init__(self, page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        self._parse = ForwardMsg.FromString
        self.received: list[tuple[int, str]] = []
        page.on("websocket", self._attach)

    def _attach(self, ws) -> None:
        if "_stcore/stream" in ws.url:
            ws.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        data = payload if isinstance(payload, bytes) else payload.encode()
        try:
            self.received.append((len(data), _describe(self._parse(data))))
        except Exception:  # noqa: BLE001 - not a ForwardMsg
            self.received.append((len(data), "unparsed"))


def _editor_frame(page, timeout_s: float):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for frame in page.frames:
            if "sql_editor" in frame.url:
                try:
                    if frame.evaluate("!!window.sqlEditor && !!window.sqlEditorTab()"):
                        return frame
                except Exception:  # noqa: BLE001 - being replaced
                    pass
        page.wait_for_timeout(100)
    raise SystemExit("the SQL editor component did not load")


def _replace_text(page, frame, text: str) -> None:
    frame.click(".ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text, delay=10)


def _wait_quiet(page, frames: Frames, probe: Path, quiet_s: float = 1.5, bound_s: float = 15) -> None:
    """Until neither the WebSocket nor the script runner has done anything for ``quiet_s`` (at most ``bound_s``)."""
    deadline = time.monotonic() + bound_s
    seen = (len(frames.received), len(_read_runs(probe)))
    still_since = time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        now = (len(frames.received), len(_read_runs(probe)))
        if now != seen:
            seen, still_since = now, time.monotonic()
        elif time.monotonic() - still_since >= quiet_s:
            return


def click(page, frame, frames: Frames, probe: Path, pid: int, sql: str = "SELECT 1") -> dict:
    """One click on *Run all*, its counts until the grid showed and until quiet."""
    page.keyboard.press("Escape")
    _replace_text(page, frame, sql)
    _wait_quiet(page, frames, probe)
    runs_before, frames_before, calls_before = len(_read_runs(probe)), len(frames.received), _read_calls(probe)
    cpu_before, jvm_before, browser_before = _process_cpu_s(pid), _jvm_cpu_s(pid), _browser_cpu_s(pid)
    ws_before, sent_before, grids_before = page.evaluate(
        "[window.__wsTimes.length, window.__wsSent.length, window.__gridTimes.length]")
    frame.evaluate(RECORD_CLICK)
    clicked = time.time()
    started = time.perf_counter()
    frame.click("#run-all")
    frame.wait_for_function("document.getElementById('status').style.display !== 'none'", timeout=10_000)
    deadline = time.monotonic() + 120
    while True:
        idle = frame.evaluate("document.getElementById('status').style.display === 'none'")
        if idle and page.locator('[data-testid="stDataFrame"]').count() > 0:
            row_ms = (time.perf_counter() - started) * 1000
            row_at = time.time()
            break
        if time.monotonic() > deadline:
            raise SystemExit("no row")
        page.wait_for_timeout(5)
    cpu_row, jvm_row, browser_row = _process_cpu_s(pid), _jvm_cpu_s(pid), _browser_cpu_s(pid)
    _wait_quiet(page, frames, probe)
    cpu_quiet, jvm_quiet = _process_cpu_s(pid), _jvm_cpu_s(pid)
    click_at, idle_at = frame.evaluate("[window.__clickAt, window.__idleAt]")
    ws_times = page.evaluate(f"window.__wsTimes.slice({ws_before})")
    ws_sent = page.evaluate(f"window.__wsSent.slice({sent_before})")
    grids = page.evaluate(f"window.__gridTimes.slice({grids_before})")
    marks = [m for m in _read_marks(probe) if m["t"] >= clicked - 0.05]
    runs = _read_runs(probe)[runs_before:]
    received = frames.received[frames_before:]
    grid_at = next((i for i, (_, kind) in enumerate(received) if kind in ("element:dataframe", "element:arrow_data_frame",
                                                                          "element:arrow_table")), None)
    to_row = received[:grid_at + 1] if grid_at is not None else received
    after = received[grid_at + 1:] if grid_at is not None else []
    timeline = {"click": click_at, "idle": idle_at, "ws": ws_times, "sent": ws_sent, "grids": grids, "marks": marks}
    return {"row_ms": row_ms, "runs": runs, "timeline": timeline, "clicked": clicked, "row_at": row_at,
            "to_row": to_row, "after": after,
            "calls": _read_calls(probe) - calls_before,
            "cpu_to_row_ms": (cpu_row - cpu_before) * 1000, "cpu_to_quiet_ms": (cpu_quiet - cpu_before) * 1000,
            "jvm_to_row_ms": (jvm_row - jvm_before) * 1000, "jvm_to_quiet_ms": (jvm_quiet - jvm_before) * 1000,
            "browser_to_row_ms": (browser_row - browser_before) * 1000}


def report(clicks: list[dict], probe: Path, profile: bool) -> None:
    med = statistics.median
    print(f"machine load (1 min) {os.getloadavg()[0]:.1f}; {len(clicks)} measured clicks; medians over clicks")
    print(f"click to row (wall, load-dependent)     {med([c['row_ms'] for c in clicks]):8.1f} ms")
    print(f"server process CPU, click to row        {med([c['cpu_to_row_ms'] for c in clicks]):8.1f} ms")
    print(f"server process CPU, click to quiet      {med([c['cpu_to_quiet_ms'] for c in clicks]):8.1f} ms")
    print(f"JVM CPU, click to row / to quiet        {med([c['jvm_to_row_ms'] for c in clicks]):8.1f} / "
          f"{med([c['jvm_to_quiet_ms'] for c in clicks]):.1f} ms")
    print(f"browser CPU (Chromium + driver), to row  {med([c['browser_to_row_ms'] for c in clicks]):8.1f} ms")
    for c in clicks[:1] + clicks[-1:]:
        print("runs of one click (fragments; cpu ms, wall ms; msgs/bytes; before row?; gateway calls' ms on the script thread):")
        for run in c["runs"]:
            where = "before" if run["wall_end"] <= c["row_at"] else "after "
            name = ",".join(run["fragments"]) or "PAGE"
            print(f"  {name[:48]:<48} cpu {run['cpu_ms']:6.1f} wall {run['wall_ms']:6.1f} "
                  f"msgs {run['msgs']:3d}/{run['bytes']:6d} B {where} {json.dumps(run['gateway_ms'])}")
    print("timeline of each click, ms from the click (browser clock; server runs on the same machine clock):")
    for c in clicks:
        t = c["timeline"]
        if t["click"] is None:
            continue
        at = lambda x: x - t["click"]  # noqa: E731
        ws = c["to_row"]
        grid_index = len(ws) - 1 if c["after"] or any(k.endswith("dataframe") for _, k in ws) else None
        msgs = t["ws"]
        runs = " ".join(f"[{','.join(f[:4] for f in r['fragments']) or 'PAGE'} {at(r['wall_start'] * 1000):.0f}-"
                        f"{at(r['wall_end'] * 1000):.0f}]" for r in c["runs"])
        grid = f"{at(msgs[grid_index][0]):.0f}" if grid_index is not None and grid_index < len(msgs) else "?"
        print(f"  first msg {at(msgs[0][0]) if msgs else float('nan'):.0f}, grid msg {grid}, "
              f"badge hidden {at(t['idle']) if t['idle'] else float('nan'):.0f}, "
              f"last msg {at(msgs[-1][0]) if msgs else float('nan'):.0f} ({len(msgs)} msgs); runs {runs}")
    print("the click's timeline, ms from the click (median over clicks of each moment's first occurrence; "
          "then the last click's):")
    names: dict[str, list[float]] = collections.defaultdict(list)
    for c in clicks:
        for name, ms in steps(c):
            names[name].append(ms)
    order = sorted(names, key=lambda n: statistics.median(names[n]))
    last = dict(steps(clicks[-1]))
    for name in order:
        print(f"  {statistics.median(names[name]):8.1f}  {last.get(name, float('nan')):8.1f}  {name}")
    print("script/fragment runs per click (median): "
          f"{med([len(c['runs']) for c in clicks])}; before the row: "
          f"{med([sum(r['wall_end'] <= c['row_at'] for r in c['runs']) for c in clicks])}")
    print(f"script-thread CPU of the click's runs (median sum) {med([sum(r['cpu_ms'] for r in c['runs']) for c in clicks]):.1f} ms; "
          f"of the runs before the row {med([sum(r['cpu_ms'] for r in c['runs'] if r['wall_end'] <= c['row_at']) for c in clicks]):.1f} ms")
    print(f"ForwardMsgs received until the grid: {med([len(c['to_row']) for c in clicks])} msgs, "
          f"{med([sum(n for n, _ in c['to_row']) for c in clicks])} B; after it: "
          f"{med([len(c['after']) for c in clicks])} msgs, {med([sum(n for n, _ in c['after']) for c in clicks])} B")
    kinds = collections.Counter(kind for _, kind in clicks[-1]["to_row"])
    print("  until the grid (last click):", dict(kinds.most_common()))
    kinds = collections.Counter(kind for _, kind in clicks[-1]["after"])
    print("  after the grid (last click):", dict(kinds.most_common()))
    if os.environ.get("CLICK_COUNTS_ORDER"):
        print("every message of the last click, in order:", " ".join(k.split(":")[-1] for _, k in
                                                                     clicks[-1]["to_row"] + clicks[-1]["after"]))
    total = collections.Counter()
    for c in clicks:
        total.update(c["calls"])
    print("gateway calls per click (mean; script thread / other threads):",
          {k: round(v / len(clicks), 1) for k, v in sorted(total.items())})
    if profile:
        files = sorted(str(p) for p in probe.glob("run-*.pstats"))
        if files:
            stats = pstats.Stats(files[0])
            for f in files[1:]:
                stats.add(f)
            print(f"cProfile of the measured clicks' script runs ({len(files)} runs), by cumulative time:")
            stats.sort_stats("cumulative").print_stats(45)
            print("by own time:")
            stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=5)
    parser.add_argument("--warmups", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile the measured clicks' script runs")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app.py runs (default: this one)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from ports import free_port
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="click-counts-") as tmp:
        tmp = Path(tmp)
        probe, data = tmp / "probe", tmp / "data"
        probe.mkdir()
        data.mkdir()
        (probe / "sitecustomize.py").write_text(PROBE)
        port = free_port()
        env = dict(os.environ, WORKBENCH_DATA_DIR=str(data), WORKBENCH_SPARK_MASTER="local[2]",
                   WORKBENCH_SPARK_CONF=SPARK_CONF, CLICK_PROBE_DIR=str(probe),
                   PYTHONPATH=os.pathsep.join([str(probe)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        with open(tmp / "streamlit.log", "w") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(args.root / "app.py"), "--server.address", "127.0.0.1",
                 "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
                 "--server.fileWatcherType", "none"], cwd=args.root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 240
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"streamlit did not start: {(tmp / 'streamlit.log').read_text()[-3000:]}")
                    time.sleep(0.3)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                try:
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    page.set_default_timeout(120_000)
                    frames = Frames(page)
                    page.add_init_script(RECORD_MESSAGES)
                    page.goto(url)
                    page.get_by_role("heading", name="SQL editor").wait_for(timeout=400_000)
                    frame = _editor_frame(page, 400)
                    for _ in range(args.warmups):
                        click(page, frame, frames, probe, server.pid)
                    if args.profile:
                        (probe / "profile-on").touch()
                    clicks = [click(page, frame, frames, probe, server.pid) for _ in range(args.clicks)]
                    (probe / "profile-on").unlink(missing_ok=True)
                finally:
                    browser.close()
            if (probe / "errors.jsonl").exists():
                print("probe errors:", (probe / "errors.jsonl").read_text())
            print(f"checkout {args.root} at {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=args.root, capture_output=True, text=True).stdout.strip()}")
            report(clicks, probe, args.profile)
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)


if __name__ == "__main__":
    main()
