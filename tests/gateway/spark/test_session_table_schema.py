"""``session_table_schema``: a table's schema from the session catalog's metadata (completion's quick path
to a table's columns) is the schema Spark's own resolution gives, for tables, views and temporary views."""
from __future__ import annotations

import pytest
from pyspark.errors import AnalysisException

from gateway.spark.catalog import session_table_schema


def test_the_metadata_schema_is_the_resolved_schema(gateway, session):
    spark = gateway.session(session).spark
    for statement in ("CREATE DATABASE IF NOT EXISTS sts_db",
                      "CREATE TABLE IF NOT EXISTS sts_db.typed (id BIGINT, price DECIMAL(10,2), "
                      "ship STRUCT<city: STRING, geo: STRUCT<lat: DOUBLE>>, tags ARRAY<STRING>, day DATE) "
                      "USING parquet PARTITIONED BY (day)",
                      "CREATE OR REPLACE VIEW sts_db.typed_view AS SELECT id, price FROM sts_db.typed",
                      "CREATE OR REPLACE TEMPORARY VIEW sts_temp AS SELECT 1 AS one, 'x' AS letter"):
        spark.sql(statement)
    for parts, name in ((["sts_db", "typed"], "sts_db.typed"), (["sts_db", "typed_view"], "sts_db.typed_view"),
                        (["sts_temp"], "sts_temp")):
        assert session_table_schema(spark, parts).simpleString() == spark.table(name).schema.simpleString()
    spark.sql("USE sts_db")
    assert session_table_schema(spark, ["typed"]).fieldNames() == ["id", "price", "ship", "tags", "day"]


def test_no_such_table_raises_and_other_names_are_left_to_spark(gateway, session):
    spark = gateway.session(session).spark
    with pytest.raises(AnalysisException):
        session_table_schema(spark, ["no_such_table_sts"])
    assert session_table_schema(spark, ["spark_catalog", "default", "t"]) is None  # three parts: spark.table's
