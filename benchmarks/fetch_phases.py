"""Where the time of a big ``fetch_pandas`` goes: 1,000,000 rows x 5 columns (the query of
benchmarks/engines.py) through the REST API and the project's client, on ``embedded`` or ``connect``,
stage by stage.

The gateway, its REST server and the client run in this one process (as in benchmarks/engines.py), so
each stage is timed where it runs by wrapping the function that does it (nothing is replaced: the
wrappers call the real code and add up their wall time per stage):

- producer: on ``embedded`` the planning of the partition stream (with its sample of the rows' width, a Spark
  job); the time to get the next batch out of Spark (on ``connect`` the ExecutePlan stream and its
  IPC decoding; on ``embedded`` the partition stream), and the time it waited in the buffer's ``put``
  (back-pressure: the buffer was full);
- REST: a page taken from the buffer (``fetch``, including waits for rows) and encoded (``page_arrow``),
  and the whole route;
- client: each HTTP exchange (request to last byte), the page's IPC decoding, each page's decimals (converted as
  pages arrive) and the ``to_pandas`` of the other columns after the last page.

Then a timeline of the pages (when each was asked for, answered and decoded) and, with ``--profile``,
cProfile of the client's thread, the producer's thread and the REST workers (top functions by own time).
Also the reference: the same query's ``toArrow()`` without the gateway (pyspark's own Connect client on
``connect``; on ``embedded`` the in-process session) and its ``to_pandas``.

    .venv/bin/python benchmarks/fetch_phases.py --engine connect [--rows 1000000] [--runs 3] [--profile]
        [--connect-url sc://127.0.0.1:15002] [--ab N]

``--ab N``: N pairs of fetches back to back, alternating the embedded engine's sample of a result's first rows
as it is (``executeTake``: one job over the first partition) with the collected limit it was (two stages and a
shuffle), under the same load; prints each pair and the medians.
"""
from __future__ import annotations

import argparse
import cProfile
import collections
import functools
import io
import os
import pstats
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # connect_server.py, ports.py

import workbench_client as dbapi  # noqa: E402
import workbench_client.decode as client_decode  # noqa: E402
import workbench_client.http as client_http  # noqa: E402
from gateway import GatewayService, load_config  # noqa: E402
from gateway.core import executor as executor_module  # noqa: E402
from gateway.core.results import ResultFetcher  # noqa: E402
from gateway.spark import arrow_stream  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402
from gateway.rest import serve_in_background  # noqa: E402
from gateway.rest.routes import operations as operations_route  # noqa: E402


def big_query(rows: int) -> str:
    """benchmarks/engines.py's query (bigint, double, string, date, timestamp) over ``rows`` rows."""
    return ("SELECT id, id * 1.5 AS d, CAST(id AS STRING) AS s, date_add(DATE'2020-01-01', CAST(id % 1000 AS INT)) "
            "AS day, TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 86400) AS ts "
            f"FROM range({rows})")


class Stages:
    """Wall seconds and calls per stage, and events for the timeline, from every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, float] = collections.defaultdict(float)
        self.calls: dict[str, int] = collections.defaultdict(int)
        self.events: list[tuple[float, float, str, str]] = []  # (start, end, stage, detail)
        self.origin = time.perf_counter()
        self.profiles: dict[str, list[cProfile.Profile]] = collections.defaultdict(list)
        self.profile = False

    def reset(self) -> None:
        with self.lock:
            self.seconds.clear()
            self.calls.clear()
            self.events.clear()
            self.profiles.clear()
            self.origin = time.perf_counter()

    def add(self, stage: str, start: float, end: float, detail: str = "") -> None:
        with self.lock:
            self.seconds[stage] += end - start
            self.calls[stage] += 1
            self.events.append((start - self.origin, end - self.origin, stage, detail))

    def wrap(self, owner, name: str, stage: str, detail=None, profile_as: str = "") -> None:
        """Time every call of ``owner.name`` as ``stage`` (``detail(result)`` adds a note to its event);
        with ``profile_as`` and --profile, a cProfile of each call under that name."""
        real = getattr(owner, name)

        @functools.wraps(real)
        def timed(*args, **kwargs):
            profiler = cProfile.Profile() if (self.profile and profile_as) else None
            start = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            try:
                result = real(*args, **kwargs)
            finally:
                if profiler is not None:
                    profiler.disable()
                    with self.lock:
                        self.profiles[profile_as].append(profiler)
            self.add(stage, start, time.perf_counter(), detail(result) if detail else "")
            return result

        setattr(owner, name, timed)


STAGES = Stages()


def _timed_batches(batches):
    """The producer's source, each next batch timed (Spark's side of the producer)."""
    iterator = iter(batches)
    while True:
        start = time.perf_counter()
        try:
            item = next(iterator)
        except StopIteration:
            STAGES.add("producer: next batch from Spark", start, time.perf_counter(), "end")
            return
        STAGES.add("producer: next batch from Spark", start, time.perf_counter(), f"{item[0].num_rows} rows")
        yield item


def instrument() -> None:
    real_feed = executor_module.StatementRunner._feed

    def feed(operation, batches):
        profiler = cProfile.Profile() if STAGES.profile else None
        start = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        try:
            return real_feed(operation, _timed_batches(batches))
        finally:
            if profiler is not None:
                profiler.disable()
                STAGES.profiles["producer thread"].append(profiler)
            STAGES.add("producer: whole feed", start, time.perf_counter())

    executor_module.StatementRunner._feed = staticmethod(feed)
    STAGES.wrap(executor_module, "prepare_stream", "producer: plan the partition stream (embedded)")
    STAGES.wrap(arrow_stream, "measured_result_bytes", "producer: sample the rows' width (embedded, a job)")
    STAGES.wrap(ResultFetcher, "put", "producer: put into the buffer (incl. back-pressure waits)")
    STAGES.wrap(ResultFetcher, "fetch", "REST: take a page from the buffer (incl. waits for rows)",
                detail=lambda page: f"{getattr(page, 'row_count', 0)} rows")
    STAGES.wrap(operations_route, "page_arrow", "REST: encode the page (Arrow IPC)",
                detail=lambda body: f"{len(body) / 1e6:.1f} MB")
    STAGES.wrap(operations_route, "_result_page", "REST: the whole route", profile_as="REST workers")
    STAGES.wrap(client_http.GatewayClient, "exchange", "client: HTTP exchange (request to last byte)",
                detail=lambda answer: f"{len(answer[1]) / 1e6:.1f} MB")
    STAGES.wrap(client_http, "_arrow_page", "client: decode the page (IPC to Arrow)")
    STAGES.wrap(client_decode, "decimal_objects", "client: decimals of a page (as pages arrive)",
                detail=lambda values: f"{len(values)} values")
    STAGES.wrap(client_decode, "_frame", "client: to_pandas of the other columns (once, all pages)")


def fetch_once(cur, query: str, expected_rows: int) -> float:
    STAGES.reset()
    profiler = cProfile.Profile() if STAGES.profile else None
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    cur.execute(query)
    frame = cur.fetch_pandas()
    seconds = time.perf_counter() - start
    if profiler is not None:
        profiler.disable()
        STAGES.profiles["client thread"].append(profiler)
    assert len(frame) == expected_rows and len(frame.columns) == 5, frame.shape
    return seconds


def sample_by_collect_limit(df, rows: int):
    """The embedded sample of a result's first rows before it was taken by ``executeTake``: the limit collected
    as Arrow (a local limit in each partition, a shuffle into one, a second stage) (--ab's "before")."""
    return arrow_stream.small_result(df.limit(rows))


def alternate(cur, query: str, rows: int, pairs: int) -> None:
    """--ab: pairs of fetches, "before" (the embedded sample by a collected limit) and "now", alternating which
    goes first (on ``connect`` there is no sample: both are the same code, a check of the noise)."""
    import statistics

    current = arrow_stream._first_rows_arrow
    timings: dict[str, list[float]] = {"before": [], "now": []}
    for pair in range(pairs):
        order = ("before", "now") if pair % 2 == 0 else ("now", "before")
        for name in order:
            arrow_stream._first_rows_arrow = sample_by_collect_limit if name == "before" else current
            try:
                timings[name].append(fetch_once(cur, query, rows))
            finally:
                arrow_stream._first_rows_arrow = current
        print(f"  pair {pair + 1}: before {timings['before'][-1]:.3f} s, now {timings['now'][-1]:.3f} s "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
    before, now = statistics.median(timings["before"]), statistics.median(timings["now"])
    wins = sum(n < b for b, n in zip(timings["before"], timings["now"]))
    print(f"  A/B medians of {pairs} pairs: before {before:.3f} s ({rows / before:,.0f} rows/s), now {now:.3f} s "
          f"({rows / now:,.0f} rows/s): {before / now:.3f}x; now faster in {wins} of {pairs} pairs")


def report(seconds: float, rows: int) -> None:
    print(f"  fetch_pandas: {seconds:.3f} s, {rows / seconds:,.0f} rows/s")
    arrivals = [end for start, end, stage, detail in STAGES.events if stage.startswith("producer: next")]
    if arrivals:
        print(f"  Spark's batches reached the producer from {min(arrivals):.3f} s to {max(arrivals):.3f} s "
              f"after execute; the frame was ready at {seconds:.3f} s")
    for stage in sorted(STAGES.seconds, key=lambda s: (s.split(":")[0], -STAGES.seconds[s])):
        print(f"    {stage:<62} {STAGES.seconds[stage]:7.3f} s  {STAGES.calls[stage]:5d} calls")
    print("  timeline (s from execute; REST pages and client exchanges):")
    for start, end, stage, detail in sorted(STAGES.events):
        if stage.startswith(("REST: take", "REST: encode", "client: HTTP", "client: to_pandas", "client: decimals",
                              "producer: whole")) \
                or (stage.startswith(("producer: next", "producer: plan", "producer: sample")) and start < 2):
            print(f"    {start:7.3f} - {end:7.3f}  {stage.split('(')[0].strip():<34} {detail}")


def print_profiles(limit: int) -> None:
    for name, profilers in STAGES.profiles.items():
        if not profilers:
            continue
        out = io.StringIO()
        stats = pstats.Stats(profilers[0], stream=out)
        for other in profilers[1:]:
            stats.add(other)
        stats.sort_stats("tottime").print_stats(limit)
        lines = [line for line in out.getvalue().splitlines() if line.strip()]
        print(f"  cProfile, {name} ({len(profilers)} calls), by own time:")
        for line in lines[2:limit + 6]:
            print(f"    {line[:160]}")


class Reference:
    """The same result without the gateway: ``toArrow()`` then ``to_pandas`` (pyspark's own Connect client on
    ``connect``, the in-process root session on ``embedded``); run between the gateway's fetches, so that
    both see the same load."""

    def __init__(self, engine: str, url: str) -> None:
        self.engine = engine
        if engine == "connect":
            from pyspark.sql.connect.session import SparkSession as ConnectSession

            self.spark = ConnectSession.builder.remote(url).create()
        else:
            from pyspark.sql import SparkSession

            self.spark = SparkSession.builder.getOrCreate()  # the gateway's root session (its JVM is up)
        self.arrow_s: list[float] = []
        self.total_s: list[float] = []

    def run(self, query: str, rows: int) -> None:
        start = time.perf_counter()
        table = self.spark.sql(query).toArrow()
        self.arrow_s.append(time.perf_counter() - start)
        frame = client_decode.to_pandas(table)
        self.total_s.append(time.perf_counter() - start)
        assert len(frame) == rows

    def report(self, rows: int) -> None:
        arrow_s, total_s = min(self.arrow_s), min(self.total_s)
        print(f"  reference without the gateway ({'pyspark Connect client' if self.engine == 'connect' else 'in process'}"
              f", best of {len(self.arrow_s)}): toArrow() {arrow_s:.3f} s ({rows / arrow_s:,.0f} rows/s); "
              f"with to_pandas {total_s:.3f} s ({rows / total_s:,.0f} rows/s)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("embedded", "connect"), default="connect")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="fetches; the fastest is reported (default 3)")
    parser.add_argument("--profile", action="store_true", help="cProfile the client, producer and REST threads")
    parser.add_argument("--profile-lines", type=int, default=18)
    parser.add_argument("--connect-url", default="", help="an existing Spark Connect server (default: start one)")
    parser.add_argument("--no-reference", action="store_true", help="skip the toArrow() reference")
    parser.add_argument("--ab", type=int, default=0, metavar="N",
                        help="N alternated pairs: the embedded sample by a collected limit (before) against executeTake (now)")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)",
          flush=True)
    server = None
    url = args.connect_url
    if args.engine == "connect" and not url:
        from connect_server import ConnectServer

        server = ConnectServer().start()
        url = server.url
    instrument()
    query = big_query(args.rows)
    base = load_config(ROOT / "workbench.toml", environ={})
    overrides = dict(spark__master="local[2]") if args.engine == "embedded" else dict(engine__kind="connect",
                                                                                     engine__url=url)
    config = base.with_overrides(data_dir=tempfile.mkdtemp(prefix=f"bench-phases-{args.engine}-"),
                                 session__idle_timeout_s=0, session__restore=False, **overrides)
    try:
        with acting_as(LOCAL_PRINCIPAL):
            gateway = GatewayService(config)
            rest = serve_in_background(gateway, "127.0.0.1", 0)
            try:
                reference = None if args.no_reference else Reference(args.engine, url)
                with dbapi.connect(rest.url, timeout_s=600) as conn:
                    cur = conn.cursor()
                    fetch_once(cur, query, args.rows)  # warm up (a cold engine, the code paths)
                    if args.ab:
                        alternate(cur, query, args.rows, args.ab)
                    if reference is not None:
                        reference.run(query, args.rows)
                        reference.arrow_s.clear(), reference.total_s.clear()
                    best = None
                    for _ in range(args.runs):
                        STAGES.profile = args.profile
                        seconds = fetch_once(cur, query, args.rows)
                        STAGES.profile = False
                        print(f"  run: fetch_pandas {seconds:.3f} s ({args.rows / seconds:,.0f} rows/s)", end="")
                        if best is None or seconds < best[0]:
                            best = (seconds, dict(STAGES.seconds), dict(STAGES.calls), list(STAGES.events),
                                    {k: list(v) for k, v in STAGES.profiles.items()})
                        if reference is not None:
                            reference.run(query, args.rows)
                            print(f"; reference toArrow() {reference.arrow_s[-1]:.3f} s, "
                                  f"with to_pandas {reference.total_s[-1]:.3f} s", end="")
                        print(flush=True)
                    if best is not None:  # --runs 0: the A/B pairs only
                        STAGES.seconds, STAGES.calls, STAGES.events, STAGES.profiles = (
                            collections.defaultdict(float, best[1]), collections.defaultdict(int, best[2]), best[3],
                            collections.defaultdict(list, best[4]))
                        print(f"{args.engine}: {args.rows:,} rows x 5 columns, best of {args.runs}")
                        report(best[0], args.rows)
                        if reference is not None:
                            reference.report(args.rows)
                        if args.profile:
                            print_profiles(args.profile_lines)
            finally:
                rest.stop()
                gateway.shutdown()
    finally:
        if server is not None:
            server.stop()
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    sys.stdout.flush()
    os._exit(0)  # pyspark's Connect channels can wait for ever when collected at exit (see engines.py)


if __name__ == "__main__":
    raise SystemExit(main())
