"""What the geo module's functions cost, before and after they became Spark SQL functions (issue 17):
haversine_km and geohash_encode as geo 2.0's SQL functions (LOAD MODULE geo: JVM only) against geo
1.0's vectorized pandas/Arrow UDFs (still loadable as a python module, gateway.features.modules.geo),
and haversine as a row-at-a-time Python UDF and as a plain Spark SQL expression.

Also the cost of the module statements themselves (LOAD MODULE geo, USE MODULES, UNLOAD).

Run from the project root:

    .venv/bin/python benchmarks/geo_udfs.py [--rows N] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway import GatewayService, load_config  # noqa: E402

SQL_HAVERSINE = ("2 * 6371.0088 * asin(sqrt(pow(sin(radians(lat2 - lat1) / 2), 2) + cos(radians(lat1)) * "
                 "cos(radians(lat2)) * pow(sin(radians(lon2 - lon1) / 2), 2)))")


def row_haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def timed(spark, sql: str, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        spark.sql(sql).collect()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()
    data_dir = args.data_dir or tempfile.mkdtemp(prefix="wb-geo-bench-")
    config = load_config(None, environ={}).with_overrides(data_dir=data_dir, session__idle_timeout_s=0)
    gateway = GatewayService(config)
    try:
        handle = gateway.open_session(name="bench")
        statements = {}
        for statement in ("LOAD MODULE geo", "USE MODULES geo, core", "USE MODULES core, geo", "UNLOAD MODULE geo",
                          "LOAD MODULE geo",
                          "LOAD MODULE geo_pandas WITH ('type'='python', 'module'='gateway.features.modules.geo')"):
            started = time.perf_counter()
            gateway.configure_session(handle, statement)
            statements[statement] = time.perf_counter() - started
        spark = gateway.sessions.get(handle).spark
        spark.udf.register("row_haversine", row_haversine, "double")
        source = (f"(SELECT rand(1) * 180 - 90 AS lat1, rand(2) * 360 - 180 AS lon1, rand(3) * 180 - 90 AS lat2, "
                  f"rand(4) * 360 - 180 AS lon2 FROM range({args.rows}))")
        distance = f"SELECT sum(haversine_km(lat1, lon1, lat2, lon2)) FROM {source}"
        geohash = f"SELECT max(geohash_encode(lat1, lon1, 7)) FROM {source}"
        paths = {  # label: (modules in use, query)
            "haversine_km, geo 1.0 (pandas UDF)": ("geo_pandas, core", distance),
            "haversine_km, geo 2.0 (SQL function)": ("geo, core", distance),
            "geohash_encode, geo 1.0 (pandas UDF)": ("geo_pandas, core", geohash),
            "geohash_encode, geo 2.0 (SQL function)": ("geo, core", geohash),
            "haversine, row-at-a-time Python UDF": ("core", f"SELECT sum(row_haversine(lat1, lon1, lat2, lon2)) FROM {source}"),
            "haversine, Spark SQL expression": ("core", f"SELECT sum({SQL_HAVERSINE}) FROM {source}"),
        }
        for modules, sql in paths.values():  # warm-up: Python workers, code generation
            gateway.configure_session(handle, f"USE MODULES {modules}")
            spark.sql(sql.replace(f"range({args.rows})", "range(1000)")).collect()
        print(f"{args.rows:,} rows, master {gateway.get_gateway_info()['master']}")
        print(f"{'path':40} {'median s':>9} {'rows/s':>12}")
        for label, (modules, sql) in paths.items():
            gateway.configure_session(handle, f"USE MODULES {modules}")
            seconds = timed(spark, sql)
            print(f"{label:40} {seconds:9.2f} {args.rows / seconds:12,.0f}")
        print()
        for statement, seconds in statements.items():
            print(f"{statement[:40]:40} {seconds * 1000:9.1f} ms")
    finally:
        gateway.shutdown()


if __name__ == "__main__":
    from gateway.identity import LOCAL_PRINCIPAL, acting_as

    with acting_as(LOCAL_PRINCIPAL):  # it reaches past the API to a session: as the local user
        main()
