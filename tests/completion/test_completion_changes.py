"""What completion reads from a DDL statement's text before it runs (``changes.change_of``)."""
import pytest

from gateway.features.completion.changes import change_of


@pytest.mark.parametrize("statement, expected", [
    ("CREATE TABLE IF NOT EXISTS db.t (a INT, b STRING) USING parquet",
     {"relation": ["db", "t"], "created": True, "columns": [("a", "INT"), ("b", "STRING")]}),
    ("CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 1 AS x",
     {"relation": ["v"], "created": True, "replaced": True, "temporary": True, "view": True}),
    ("DROP TABLE IF EXISTS db.t", {"relation": ["db", "t"], "dropped": True}),
    ("DROP TEMPORARY VIEW IF EXISTS v", {"relation": ["v"], "dropped": True, "temporary": True, "view": True}),
    ("ALTER TABLE t ADD COLUMNS (c INT, d STRING)", {"relation": ["t"], "added_columns": [("c", "INT"),
                                                                                          ("d", "STRING")]}),
    ("ALTER TABLE t DROP COLUMNS (c, e)", {"relation": ["t"], "dropped_columns": ["c", "e"]}),
    ("ALTER TABLE t RENAME COLUMN a TO z", {"relation": ["t"], "renamed_columns": [("a", "z")]}),
    ("ALTER TABLE db.t RENAME TO db.u", {"relation": ["db", "t"], "renamed_to": ["db", "u"]}),
    ("CREATE DATABASE IF NOT EXISTS x", {"database": "x", "database_created": True}),
    ("DROP DATABASE x CASCADE", {"database": "x"}),
    ("CREATE TEMPORARY FUNCTION twice(x INT) RETURNS INT RETURN x * 2",
     {"function": "twice", "created": True, "temporary": True}),
    ("DROP FUNCTION IF EXISTS db.f", {"function": "f", "dropped": True}),
])
def test_a_ddl_statement_says_what_it_changes(statement, expected):
    change = change_of(statement)
    assert {k: v for k, v in vars(change).items() if v} == expected


@pytest.mark.parametrize("statement", ["SELECT 1", "INSERT INTO t VALUES (1)", "CREATE TABLE (", "USE db", ""])
def test_other_statements_and_broken_text_change_nothing(statement):
    assert change_of(statement) is None
