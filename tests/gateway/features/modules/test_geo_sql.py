"""geo 2.0 (issue 17 item 2): Spark SQL functions with geo 1.0's results and no Python worker; and the
executor check that refuses Python modules whose packages the executors lack (run for real on the
cluster in tests/cluster/; here its probe runs as a real job on the local executor)."""
from __future__ import annotations

import sys

import pytest

from gateway.features.modules import geo
from gateway.features.modules.python_module import PythonModule, executor_packages
from gateway.spark.executors import missing_on_executors
from tests.conftest import run_all

PANDAS_GEO = "LOAD MODULE geo_pandas WITH ('type'='python', 'module'='gateway.features.modules.geo')"
POINTS = ("(SELECT rand(7) * 190 - 95 AS lat, rand(8) * 370 - 185 AS lon, CAST(floor(rand(9) * 14) AS DOUBLE) AS p, "
          "id FROM range(3000))")
QUERY = (f"SELECT id, geohash_encode(lat, lon, p) AS h, geohash_decode(geohash_encode(lat, lon, 12)) AS d, "
         f"haversine_km(lat, lon, 10.5, -20.25) AS km, initial_bearing(lat, lon, 10.5, -20.25) AS deg, "
         f"in_bbox(lat, lon, -10, 170, 40, -170) AS box FROM {POINTS} ORDER BY id")


def rows(gateway, session, sql):
    _, result, page = run_all(gateway, session, sql)
    if page.exception is not None:
        raise AssertionError(page.exception["root_cause"])
    return result


@pytest.fixture
def both(gateway, session):
    gateway.configure_session(session, "LOAD MODULE geo")
    gateway.configure_session(session, PANDAS_GEO)
    return session


def test_geo_is_spark_sql_and_needs_no_python_worker(gateway, both):
    detail = gateway.get_function(both, "haversine_km")
    assert (detail.module, detail.module_version) == ("geo", "2.0.0") and detail.implementation.startswith("sql:")
    plan = "\n".join(str(r[0]) for r in rows(gateway, both, f"EXPLAIN {QUERY}"))
    assert "EvalPython" not in plan and "PythonUDF" not in plan, plan
    gateway.configure_session(both, "USE MODULES geo_pandas, core")  # the same query on geo 1.0: a Python worker
    plan = "\n".join(str(r[0]) for r in rows(gateway, both, f"EXPLAIN {QUERY}"))
    assert "ArrowEvalPython" in plan


def test_geo_sql_answers_what_the_pandas_udfs_answer(gateway, both):
    sql_rows = rows(gateway, both, QUERY)
    gateway.configure_session(both, "USE MODULES geo_pandas, core")
    pandas_rows = rows(gateway, both, QUERY)
    assert len(sql_rows) == len(pandas_rows) == 3000
    invalid = 0
    for (i, h, d, km, deg, box), (_, h0, d0, km0, deg0, box0) in zip(sql_rows, pandas_rows):
        assert (h, d, box) == (h0, d0, box0), i  # geohashes exactly, points exactly, NULLs alike
        assert (km is None) == (km0 is None) and (deg is None) == (deg0 is None)
        if km is None:
            invalid += 1
            continue
        assert abs(km - km0) <= 1e-9 * max(km0, 1.0) and abs(deg - deg0) <= 1e-9
    assert invalid > 0  # out-of-range points were among them


def test_a_python_module_names_the_packages_its_functions_import():
    assert executor_packages(PythonModule("g", geo)) == ["numpy", "pandas", "pyarrow"]


def test_the_executor_probe_finds_what_is_missing(gateway, session):
    spark = gateway.sessions.get(session).spark
    answer = missing_on_executors(spark, ["pandas", "no_such_package_for_the_probe"])
    assert answer["missing"] == ["no_such_package_for_the_probe"]
    assert answer["python"] == sys.executable  # a local master's workers run the workbench's Python
    assert missing_on_executors(spark, ["pandas"])["missing"] == []
