"""The analysis's names read and written agree with Spark's own parser (``plan_objects``), including
names sqlglot takes for keywords (``date``, ``range``, ``keep``) and names hidden behind comments."""
from __future__ import annotations

import pytest

from gateway.core.statement_analysis import analyse, name_parts
from gateway.spark.parser import plan_objects

STATEMENTS = [
    "SELECT * FROM a",
    "SELECT * FROM db.a AS x JOIN `b c`.d y ON x.k = y.k",
    "SELECT * FROM a, b x, c AS y WHERE a.k IN (SELECT k FROM e)",
    "SELECT * FROM (SELECT 1 FROM h) s, i",
    "SELECT * FROM range(3), g",
    "SELECT * FROM date JOIN range ON 1 = 1 JOIN keep USING (k)",
    "TABLE db.t",
    "WITH q AS (SELECT * FROM src) SELECT * FROM q",
    "WITH q AS (SELECT * FROM src) INSERT/**/INTO t SELECT * FROM q JOIN b ON 1 = 1",
    "INSERT INTO db.t SELECT * FROM s",
    "INSERT OVERWRITE TABLE t /* c */ SELECT * FROM s",
    "FROM s INSERT INTO t SELECT * INSERT OVERWRITE TABLE u SELECT *",
    "CREATE TABLE x USING parquet AS SELECT * FROM a, b",
    "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT * FROM -- c\n a",
    "DROP TABLE IF EXISTS db.t",
    "DROP VIEW v",
    "SELECT * FROM VALUES (1) AS t(a)",
    "SELECT * FROM a t(x, y), b",
    "SELECT * FROM /* hidden */ a LEFT OUTER JOIN b ON a.k = b.k",
]


def _lower(names) -> set:
    return {tuple(part.lower() for part in parts) for parts in names}


@pytest.fixture
def spark(gateway, session):
    return gateway.sessions.get(session).spark


@pytest.mark.parametrize("text", STATEMENTS)
def test_names_read_and_written_agree_with_sparks_parser(spark, text):
    analysis = analyse(text)
    spark_reading = plan_objects(spark, text)
    assert _lower(name_parts(n) for n in analysis.reads) == _lower(spark_reading.reads), spark_reading
    assert _lower(name_parts(n) for n in analysis.targets) == _lower(spark_reading.writes), spark_reading
