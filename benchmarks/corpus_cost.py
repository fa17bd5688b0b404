"""Where the corpus test's time goes, per statement: the two sides of tests/corpus/test_spark_corpus.py.

For each script named, in one process on one gateway (the test's configuration): the workbench's
splitter, the gateway path (``execute_statement`` + every page + ``close_operation``), PySpark's
``spark.sql`` + the string cast, and the catalog reset between the sides; with ``--profile`` the
gateway side once more under cProfile (its top functions by cumulative time, to stderr).

Run from the project root:

    .venv/bin/python benchmarks/corpus_cost.py [--profile] [SCRIPT ...]   (default: cte group-by)

Progress and the profile go to stderr; the table of seconds goes to stdout.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "corpus")]

from gateway import GatewayService, load_config  # noqa: E402
from gateway.core.operations import OperationManager  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", default=["cte", "group-by"])
    parser.add_argument("--profile", action="store_true", help="profile the gateway side (stderr)")
    args = parser.parse_args()

    import test_spark_corpus as corpus

    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=tempfile.mkdtemp(prefix="corpus-cost-"), spark__master="local[2]",
        spark__conf={"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "2g"},
        session__idle_timeout_s=0, session__restore=False)
    with acting_as(LOCAL_PRINCIPAL):
        gateway = GatewayService(config)
        try:
            root = gateway.sessions.get(gateway.open_session(name="root")).spark
            zone = root.conf.get("spark.sql.session.timeZone")
            corpus._gateway_answers(gateway, ["SELECT 1"], zone)  # warm-up
            print(f"{'script':<28} {'stmts':>5} {'split':>6} {'gateway':>8} {'pyspark':>8} {'reset':>6}  s/stmt gw/py")
            for script in args.scripts:
                text = (corpus.INPUTS / f"{script}.sql").read_text(encoding="utf-8")
                t0 = time.perf_counter()
                ours = [s.text for s in corpus.split_script(text)]
                t1 = time.perf_counter()
                before = corpus._catalog_state(root)
                t2 = time.perf_counter()
                corpus._gateway_answers(gateway, ours, zone)
                t3 = time.perf_counter()
                corpus._drop_created(root, before)
                t4 = time.perf_counter()
                spark = root.newSession()
                t4 = time.perf_counter()
                for statement in corpus.spark_statements(script):
                    corpus._spark_answer(spark, statement)
                t5 = time.perf_counter()
                corpus._drop_created(root, before)
                t6 = time.perf_counter()
                n = len(ours)
                print(f"{script:<28} {n:>5} {t1 - t0:>6.2f} {t3 - t2:>8.2f} {t5 - t4:>8.2f} "
                      f"{(t2 - t1) + (t4 - t3) + (t6 - t5):>6.2f}  {(t3 - t2) / n:.3f} {(t5 - t4) / n:.3f}", flush=True)
                if args.profile:
                    profile = cProfile.Profile()
                    original = OperationManager._work

                    def profiled(manager, work, operation):  # the worker thread, where the statement runs
                        profile.enable()
                        try:
                            original(manager, work, operation)
                        finally:
                            profile.disable()
                    OperationManager._work = profiled
                    try:
                        t7 = time.perf_counter()
                        corpus._gateway_answers(gateway, ours, zone)
                        print(f"{'  again, profiled':<28} {n:>5} {'':>6} {time.perf_counter() - t7:>8.2f}", flush=True)
                    finally:
                        OperationManager._work = original
                    corpus._drop_created(root, before)
                    t8 = time.perf_counter()
                    spark = root.newSession()
                    for statement in corpus.spark_statements(script):
                        corpus._spark_answer(spark, statement)
                    again = time.perf_counter() - t8
                    print(f"{'  pyspark again':<28} {n:>5} {'':>6} {'':>8} {again:>8.2f}", flush=True)
                    corpus._drop_created(root, before)
                    out = io.StringIO()
                    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(60)
                    print(out.getvalue(), file=sys.stderr)
        finally:
            gateway.shutdown()


if __name__ == "__main__":
    main()
