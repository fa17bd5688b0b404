import pytest

from gateway.errors import InvalidStatementError
from gateway.core.statements import StatementKind, classify, split_script


def test_split_respects_strings_and_comments():
    script = "-- a comment; still\nSELECT 'a;b' AS x;\n/* c; */ SET spark.sql.ansi.enabled = true;;\nSELECT 2"
    statements = split_script(script)
    assert [s.text for s in statements] == ["SELECT 'a;b' AS x", "SET spark.sql.ansi.enabled = true", "SELECT 2"]
    assert [s.line for s in statements] == [2, 3, 4]
    assert [s.index for s in statements] == [0, 1, 2]


@pytest.mark.parametrize("text,kind", [
    ("select 1", StatementKind.QUERY), ("WITH a AS (SELECT 1) SELECT * FROM a", StatementKind.QUERY),
    ("(select 1)", StatementKind.QUERY), ("SHOW TABLES", StatementKind.SHOW),
    ("desc t", StatementKind.DESCRIBE), ("SET x = 1", StatementKind.SET), ("RESET", StatementKind.RESET),
    ("USE db", StatementKind.USE), ("USE MODULES core, geo", "USE_MODULES"),
    ("CREATE TABLE t (a INT)", StatementKind.CREATE), ("REPLACE TABLE t AS SELECT 1", StatementKind.CREATE_TABLE_AS),
    ("DROP VIEW v", StatementKind.DROP), ("ALTER TABLE t ADD COLUMN c INT", StatementKind.ALTER),
    ("ADD JAR '/x.jar'", StatementKind.ADD_JAR), ("REMOVE JAR '/x.jar'", "REMOVE_JAR"),
    ("LOAD MODULE geo", "LOAD_MODULE"), ("UNLOAD MODULE geo", "UNLOAD_MODULE"),
    ("INSERT INTO t VALUES (1)", StatementKind.INSERT), ("CACHE TABLE t", StatementKind.CACHE),
    ("EXECUTE IMMEDIATE 'SELECT 1'", StatementKind.EXECUTE_IMMEDIATE), ("ADD ARCHIVE 'a.zip'", StatementKind.ADD_FILE),
    ("CALL p()", StatementKind.OTHER),
])
def test_classify(text, kind):
    assert classify(text) == kind


# -- negative cases ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "   \n ", ";;", "-- only a comment"])
def test_empty_text_is_a_clear_error(text):
    with pytest.raises(InvalidStatementError, match="empty|only comments"):
        split_script(text)


def test_too_long_text_names_the_limit():
    with pytest.raises(InvalidStatementError, match=r"1,048,576 characters.*statement.max_chars"):
        split_script("SELECT " + "x" * (1024 * 1024 - 7), max_chars=512 * 1024)


def test_unterminated_string_in_a_script_is_the_last_statement():
    # Spark's lexer reads the open string to the end: the statements before it still run.
    assert [s.text for s in split_script("SELECT 1; SELECT 'abc; SELECT 2")] == ["SELECT 1", "SELECT 'abc; SELECT 2"]


def test_unterminated_string_alone_goes_to_spark_whole():
    [statement] = split_script("SELECT 'abc")
    assert statement.text == "SELECT 'abc"


@pytest.mark.parametrize("text,kind", [
    ("SHOW MODULES", "SHOW_MODULES"), ("show full modules", "SHOW_MODULES"),
    ("SHOW JARS", "SHOW_JARS"), ("LIST JARS", "SHOW_JARS"),
    ("CREATE TEMPORARY FUNCTION f AS 'a.B' USING JAR 'x.jar'", StatementKind.CREATE_FUNCTION),
    ("CREATE OR REPLACE TEMPORARY SYSTEM FUNCTION f AS 'a.B'", StatementKind.CREATE_FUNCTION),
    ("CREATE TABLE t USING parquet AS SELECT 1", StatementKind.CREATE_TABLE_AS),
    ("CREATE TABLE t STORED AS ORC AS SELECT 1", StatementKind.CREATE_TABLE_AS),
    ("CREATE OR REPLACE TABLE t AS (SELECT 1)", StatementKind.CREATE_TABLE_AS),
    ("CREATE TABLE t (a INT COMMENT 'as select') STORED AS PARQUET", StatementKind.CREATE),
    ("CREATE VIEW v AS SELECT 1", StatementKind.CREATE),
    ("INSERT OVERWRITE TABLE t SELECT 1", StatementKind.INSERT_OVERWRITE),
    ("INSERT INTO t SELECT 1", StatementKind.INSERT),
    ("COMPILE PLAN 'p.json' FOR SELECT 1", "COMPILE_PLAN"),
    ("COMPILE AND EXECUTE PLAN 'p.json' FOR SELECT 1", "EXECUTE_PLAN"),
    ("EXECUTE PLAN 'p.json'", "EXECUTE_PLAN"), ("EXPLAIN PLAN 'p.json'", "EXPLAIN_PLAN"),
    ("EXPLAIN SELECT 1", StatementKind.EXPLAIN),
])
def test_classify_gateway_statements(text, kind):
    assert classify(text) == kind


# -- Spark's lexer: nested comments, raw strings, comment continuation, positions ------------------

@pytest.mark.parametrize("script, texts", [
    ("/*/**/*/ SELECT 'x'", ["SELECT 'x'"]),
    ("SELECT 1 /* a /* b; */ c; */;; SELECT 2", ["SELECT 1", "SELECT 2"]),
    ("SELECT r'a\\'; SELECT 'b\\';'", ["SELECT r'a\\'", "SELECT 'b\\';'"]),
    ("SELECT 1 -- a \\\n ; b\n; SELECT 2", ["SELECT 1", "SELECT 2"]),
    ("select X'XuZ'; select 2", ["select X'XuZ'", "select 2"]),
    ("SELECT 1; SELECT 2 /* never closed ;", ["SELECT 1", "SELECT 2 /* never closed ;"]),
])
def test_split_reads_the_script_as_sparks_lexer_does(script, texts):
    assert [s.text for s in split_script(script)] == texts


def test_each_statement_has_its_line_and_column():
    statements = split_script("SELECT 1;  SELECT 2;\n  /* c */ SELECT 3")
    assert [(s.line, s.column, s.offset) for s in statements] == [(1, 0, 0), (1, 11, 11), (2, 10, 31)]
