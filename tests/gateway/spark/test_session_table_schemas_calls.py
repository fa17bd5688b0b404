"""``SessionTableSchemas`` keeps a session's JVM objects between lookups: a table's schema costs a few Py4J calls,
each of which also waits for the GIL in a busy web process (completion's background load of a table's columns).
Counted on the real Py4J client; no timing is asserted."""
from __future__ import annotations

from gateway.spark.catalog import SessionTableSchemas, session_table_schema


def test_a_table_s_schema_costs_at_most_six_py4j_calls_once_the_handles_are_kept(gateway, session):
    spark = gateway.session(session).spark
    for statement in ("CREATE DATABASE IF NOT EXISTS stsc_db",
                      "CREATE TABLE IF NOT EXISTS stsc_db.stsc_a (id BIGINT, s STRUCT<x: INT>) USING parquet",
                      "CREATE TABLE IF NOT EXISTS stsc_db.stsc_b (name STRING) USING parquet"):
        spark.sql(statement)
    schemas = SessionTableSchemas(spark)
    assert schemas.schema(["stsc_db", "stsc_a"]).simpleString() == "struct<id:bigint,s:struct<x:int>>"
    client = spark.sparkContext._gateway._gateway_client
    calls = []
    send = client.send_command

    def counting(command, *args, **kwargs):
        if command.startswith("c\n"):   # a method call (not a reference released, not a class looked up)
            calls.append(command.split("\n")[2])
        return send(command, *args, **kwargs)

    client.send_command = counting
    try:
        assert schemas.schema(["stsc_db", "stsc_b"]).fieldNames() == ["name"]
    finally:
        client.send_command = send
    assert len(calls) <= 6, calls
    assert session_table_schema(spark, ["stsc_db", "stsc_b"]).fieldNames() == ["name"]  # the one-off call, same answer
