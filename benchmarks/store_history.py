"""What the workbench store costs: the history's overhead per statement, and the workspace calls.

1. The observer's own cost on the statement's path (three calls per statement, each a queue put).
2. ``SELECT 1`` through the gateway (execute and fetch to the end) with the history recorded and
   without it, in alternating blocks so that drift of a loaded machine hits both alike.
3. ``save_tab_text`` (the draft, called as the user types) and ``list_history`` on the store:
   SQLite by default; PostgreSQL too with ``--postgres-url``, or ``--with-postgres`` (starts Debian's
   PostgreSQL on 127.0.0.1 like the tests, tests/postgres_server.py).
4. How fast the writer drains: history events per second into the store.

Run from the project root:

    .venv/bin/python benchmarks/store_history.py [--repeat 200] [--with-postgres | --postgres-url URL]

Progress goes to stderr; the figures go to stdout.
"""
from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway import LOCAL_USER, GatewayService, load_config  # noqa: E402
from gateway.core.history import StatementHistory  # noqa: E402
from gateway.store import WorkbenchStore, default_url  # noqa: E402


def row(label: str, samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"{label:<52} p50 {statistics.median(ordered):8.3f} ms   p95 {p95:8.3f} ms   (n={len(ordered)})"


def observer_cost(store: WorkbenchStore, gateway: GatewayService, session, repeat: int) -> list[float]:
    """The three observer calls of one statement, timed around the calls only."""
    history = StatementHistory(store.recorder)
    op_handle = gateway.execute_statement(session, "SELECT 1")
    list(gateway.iter_results(session, op_handle))
    operation = gateway.operations.get(gateway.sessions.get(session).handle, op_handle)
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        history.operation_submitted(operation)
        history.operation_ended(operation)
        history.operation_done(operation)
        samples.append((time.perf_counter() - started) * 1000)
    store.recorder.flush(60)
    gateway.close_operation(session, op_handle)
    return samples


def select_one(gateway: GatewayService, session, repeat: int, recorded: bool) -> list[float]:
    saved = gateway.operations.observers
    if not recorded:
        gateway.operations.observers = ()
    samples = []
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            op = gateway.execute_statement(session, "SELECT 1")
            for _page in gateway.iter_results(session, op):
                pass
            samples.append((time.perf_counter() - started) * 1000)
            gateway.close_operation(session, op)
    finally:
        gateway.operations.observers = saved
    return samples


def workspace_calls(store: WorkbenchStore, label: str, repeat: int) -> None:
    tab = store.open_tab(LOCAL_USER, title=f"bench {time.time()}")
    text = "SELECT country, sum(amount) AS revenue\nFROM orders\nGROUP BY country\n" * 20
    samples = []
    for i in range(repeat):
        started = time.perf_counter()
        store.save_tab_text(LOCAL_USER, tab.tab_id, text + f"-- {i}")
        samples.append((time.perf_counter() - started) * 1000)
    print(row(f"{label}: save_tab_text (1.3 KB draft)", samples))
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        store.list_history(LOCAL_USER, limit=100)
        samples.append((time.perf_counter() - started) * 1000)
    print(row(f"{label}: list_history (100 newest)", samples))
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        store.list_history(LOCAL_USER, search="revenue", limit=100)
        samples.append((time.perf_counter() - started) * 1000)
    print(row(f"{label}: list_history search", samples))
    store.close_tab(LOCAL_USER, tab.tab_id)


def drain_rate(store: WorkbenchStore, label: str, statements: int) -> None:
    now = dt.datetime.now(dt.timezone.utc)
    started = time.perf_counter()
    for i in range(statements):
        key = ("bench", i, started)
        store.recorder.started(key, LOCAL_USER, "bench-session", None, f"SELECT {i} -- revenue", now)
        store.recorder.ended(key, "FINISHED", 1, None)
        store.recorder.through(key, {"rows": 1})
    store.recorder.flush(300)
    seconds = time.perf_counter() - started
    print(f"{label}: {statements:,} statements (3 events each) written in {seconds:.2f} s: "
          f"{statements / seconds:,.0f} statements/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--postgres-url", default="")
    parser.add_argument("--with-postgres", action="store_true")
    args = parser.parse_args()
    server = None
    if args.with_postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from postgres_server import PostgresServer
        print("starting PostgreSQL…", file=sys.stderr)
        server = PostgresServer().start()
        args.postgres_url = server.create_database("bench")
    data_dir = Path(tempfile.mkdtemp(prefix="bench-store-"))
    config = load_config(environ={}).with_overrides(data_dir=str(data_dir), spark__master="local[2]",
                                                    session__idle_timeout_s=0)
    print("starting the gateway…", file=sys.stderr)
    gateway = GatewayService(config)
    session = gateway.open_session(name="bench")
    try:
        for _ in range(20):  # warm up Spark's planning of SELECT 1
            select_one(gateway, session, 1, recorded=True)
        print(row("observer calls per statement (on its path)", observer_cost(gateway.store, gateway, session,
                                                                              args.repeat * 10)))
        on, off = [], []
        for _ in range(10):
            on += select_one(gateway, session, args.repeat // 10, recorded=True)
            off += select_one(gateway, session, args.repeat // 10, recorded=False)
        print(row("SELECT 1, execute to end, history recorded", on))
        print(row("SELECT 1, execute to end, history off", off))
        stores = [("sqlite", gateway.store)]
        if args.postgres_url:
            stores.append(("postgresql", WorkbenchStore(args.postgres_url)))
        for label, store in stores:
            drain_rate(store, label, 5000)
            workspace_calls(store, label, args.repeat)
        for label, store in stores[1:]:
            store.close()
        print(f"store: {gateway.get_gateway_info()['store']}", file=sys.stderr)
    finally:
        gateway.shutdown()
        if server is not None:
            server.stop()


if __name__ == "__main__":
    from gateway.identity import LOCAL_PRINCIPAL, acting_as

    with acting_as(LOCAL_PRINCIPAL):  # it reaches past the API to a session: as the local user
        main()
