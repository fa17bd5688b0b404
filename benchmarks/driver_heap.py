"""The shared driver's live heap after N rounds of a bounded hostile workload (one driver, as the gateway starts it).

Each round, through the gateway's own calls (``execute_statement``, results fetched, sessions opened and closed):

- hostile statements of new shapes: parentheses and subqueries nested up to ``statement.max_nesting``, wide
  SELECTs of random expression trees (each one a new shape for Spark's parser), block comments nested up to
  ``statement.max_comment_nesting``; most fail in Spark (unknown tables), as hostile input does;
- the gateway's statement analysis with Spark's parser (``plan_objects``, ``statement_node``);
- sessions opened and closed, each with a temporary view and a fetched result of 20,000 rows.

After each round: the heap in use after two full collections (``System.gc()``), and the states of Spark's parser
DFA caches (the managed caches of ``spark.sql.parser.manageParserCaches`` and ANTLR's static ones, which live as
long as the JVM). At the end, the top of ``jcmd <pid> GC.class_histogram`` (live objects).

    .venv/bin/python benchmarks/driver_heap.py [--rounds 6] [--unmanaged] [--histogram 12]

``--unmanaged`` starts the driver as before the workbench managed Spark's parser caches
(``spark.sql.parser.manageParserCaches=false``): the before figure. Progress to stderr, figures to stdout.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway import GatewayService, load_config  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402
from gateway.spark.parser import plan_objects, statement_node  # noqa: E402
from gateway.spark.parser_cache import dfa_states  # noqa: E402

_OPS = ("+", "-", "*", "/", "%", "AND", "OR", "=", "<", ">=", "||")


def say(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


def expression(rnd: random.Random, depth: int) -> str:
    """A random expression tree: each one is a shape Spark's parser has not seen."""
    if depth == 0:
        return rnd.choice(("a", "1", "'x'", "b.c", "f(a)", "NULL", "2.5"))
    kind = rnd.randrange(5)
    if kind == 0:
        return f"({expression(rnd, depth - 1)} {rnd.choice(_OPS)} {expression(rnd, depth - 1)})"
    if kind == 1:
        return (f"CASE WHEN {expression(rnd, depth - 1)} THEN {expression(rnd, depth - 1)} "
                f"ELSE {expression(rnd, depth - 1)} END")
    if kind == 2:
        return f"coalesce({expression(rnd, depth - 1)}, {expression(rnd, depth - 1)})"
    if kind == 3:
        return f"CAST({expression(rnd, depth - 1)} AS {rnd.choice(('INT', 'STRING', 'DECIMAL(10,2)'))})"
    return f"{expression(rnd, depth - 1)} IN ({', '.join(expression(rnd, 0) for _ in range(rnd.randrange(1, 6)))})"


def hostile_statements(rnd: random.Random, max_nesting: int, max_comments: int, wide: int) -> list[str]:
    depths = sorted({max(2, max_nesting // 4), max_nesting // 2, max_nesting - 2})
    texts = []
    for depth in depths:
        texts.append("SELECT " + "(" * depth + "1" + ")" * depth)
        half = depth // 2
        texts.append("SELECT * FROM " + "(SELECT * FROM " * half + "range(1)" + ") AS t" * half)
    texts.append("SELECT 1 " + "/*" * max_comments + "*/" * max_comments)
    for _ in range(wide):
        texts.append("SELECT " + ", ".join(expression(rnd, rnd.randrange(2, 6)) for _ in range(20))
                     + " FROM hostile_t WHERE " + expression(rnd, 5))
    return texts


def run(gateway, session, text: str) -> None:
    """Execute and read every page; a failure is the hostile input's expected answer."""
    op = gateway.execute_statement(session, text)
    try:
        for _ in gateway.iter_results(session, op, None, 300):
            pass
    except Exception:  # noqa: BLE001 - Spark refuses most of them (no such table): that is the point
        pass
    finally:
        gateway.close_operation(session, op)


def live_mib(jvm) -> float:
    runtime = jvm.java.lang.Runtime.getRuntime()
    for _ in range(2):
        jvm.java.lang.System.gc()
    return (runtime.totalMemory() - runtime.freeMemory()) / 2 ** 20


ORDINARY = ("SELECT c.name, count(*) AS n, sum(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.id "
            "WHERE o.placed_at >= DATE'2024-01-01' AND c.region IN ('EU', 'US') "
            "GROUP BY c.name ORDER BY n DESC LIMIT 10")


def parse_cost(gateway) -> None:
    """What a flush costs: an ordinary statement parsed with warm caches, and cold (caches dropped after every
    parse: a flush threshold of one state, for the moment of the measurement)."""
    spark = gateway.root  # a Py4J thread parses with the default session's settings: the root's
    parser = spark._jsparkSession.sessionState().sqlParser()

    def median_ms(runs: int = 40) -> float:
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            parser.parsePlan(ORDINARY)
            times.append((time.perf_counter() - started) * 1000)
        return sorted(times)[runs // 2]

    median_ms(5)
    warm = median_ms()
    spark.conf.set("spark.sql.parser.parserDfaCacheFlushThreshold", "1")
    cold = median_ms()
    left = dfa_states(spark).managed
    spark.conf.unset("spark.sql.parser.parserDfaCacheFlushThreshold")
    print(f"\nparse of an ordinary statement (through Py4J, median of 40): warm caches {warm:.1f} ms, "
          f"caches dropped after every parse {cold:.1f} ms ({left} states left after the last)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--wide", type=int, default=40, help="wide random SELECTs per round")
    parser.add_argument("--sessions", type=int, default=5, help="sessions opened and closed per round")
    parser.add_argument("--only", choices=("hostile", "sessions"), help="one half of each round")
    parser.add_argument("--unmanaged", action="store_true", help="Spark's parser caches unmanaged (before)")
    parser.add_argument("--driver-memory", default="2g")
    parser.add_argument("--histogram", type=int, default=12, help="rows of the live class histogram at the end")
    args = parser.parse_args()

    conf = {"spark.driver.memory": args.driver_memory, "spark.sql.shuffle.partitions": "2"}
    if args.unmanaged:
        conf["spark.sql.parser.manageParserCaches"] = "false"
    data = tempfile.mkdtemp(prefix="driver-heap-")
    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=data, spark__master="local[2]", spark__conf=conf, spark__ui__enabled=False,
        session__idle_timeout_s=0, session__restore=False)
    gateway = GatewayService(config)
    jvm = gateway.root._jvm
    pid = int(jvm.java.lang.ProcessHandle.current().pid())
    rnd = random.Random(39)
    max_nesting, max_comments = int(config["statement.max_nesting"]), int(config["statement.max_comment_nesting"])
    print(f"# driver_heap: local[2], driver {args.driver_memory}, parser caches "
          f"{'unmanaged (before)' if args.unmanaged else 'as the workbench sets them'}, {args.rounds} rounds of "
          f"{args.wide} wide SELECTs, nesting to {max_nesting}, {args.sessions} sessions; "
          f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| round | live heap MiB | DFA states managed | DFA states static (parser) | static (lexer) | s |")
    print("|---|---|---|---|---|---|")
    analysis = gateway.open_session(name="analysis")
    spark = gateway.sessions.get(analysis).spark
    started = time.monotonic()

    def row(label) -> None:
        states = dfa_states(gateway.root)
        print(f"| {label} | {live_mib(jvm):,.0f} | {states.managed:,} | {states.static_parser:,} | "
              f"{states.static_lexer:,} | {time.monotonic() - started:.0f} |", flush=True)

    row("start")
    for number in range(1, args.rounds + 1):
        texts = hostile_statements(rnd, max_nesting, max_comments, args.wide) if args.only != "sessions" else []
        for text in texts:
            run(gateway, analysis, text)
        for text in texts[-5:]:  # the gateway's own analysis of statements with Spark's parser
            try:
                plan_objects(spark, text)
            except Exception:  # noqa: BLE001 - a ParseException is an answer too
                pass
            statement_node(spark, text)
        for _ in range(args.sessions if args.only != "hostile" else 0):
            session = gateway.open_session()
            run(gateway, session, f"CREATE TEMPORARY VIEW v{number} AS SELECT id, repeat('x', 50) AS s "
                                  f"FROM range(20000)")
            run(gateway, session, f"SELECT * FROM v{number}")
            gateway.close_session(session)
        say(f"round {number} done")
        row(number)
    if not args.unmanaged:
        parse_cost(gateway)
    if args.histogram:
        lines = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True,
                               timeout=300).stdout.splitlines()
        print(f"\nlive class histogram (jcmd {pid} GC.class_histogram), top {args.histogram}:\n")
        print("\n".join(lines[1:3 + args.histogram]))
    gateway.shutdown()


if __name__ == "__main__":
    with acting_as(LOCAL_PRINCIPAL):
        main()
