"""The splitter agrees with Spark: each tricky script is split as Spark's own script parser splits it
(``BEGIN … END``, SQL scripting's compound body, whose statements carry their text and offsets), and
a statement Spark rejects fails alone while the others still split and run."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_all
from gateway.core.statements import split_script

# Scripts Spark's parser reads whole; the expected statements come from Spark, not from this file.
# Spark's compound body wants each statement ended by one semicolon (no empty statements), so each
# script does; ``;;`` and a last statement without one are the unit tests' (test_statements.py).
TRICKY_SCRIPTS = [
    "/*/**/*/ SELECT 'x';",
    "SELECT 1; /* a ; /* nested ; */ still ; */ SELECT 2;",
    "SELECT 'a;b' AS x; SELECT \"c;d\" AS y; SELECT `e;f` FROM VALUES (1) AS t(`e;f`);",
    "SELECT r'a\\'; SELECT 2;",
    "SELECT R\"x;\\\" AS y; SELECT 3;",
    "SELECT 'it''s; here'; SELECT 4;",
    "SELECT 'a\\'; b'; SELECT 5;",
    "SELECT \"q\\\";\"; SELECT 6;",
    "SELECT `a``;b` FROM VALUES (1) AS t(`a``;b`); SELECT 7;",
    "SELECT 1 -- comment ; not a split\n; SELECT 8;",
    "SELECT 1 -- continued \\\n ; still the comment\n, 2; SELECT 9;",
    "SELECT X'1F2E'; SELECT U&'\\0041;'; SELECT DATE'2020-01-01';",
    "-- leading\n/* block */ SELECT 10 /* trailing */ ; -- end",
    "SELECT 1\n;\n\n   SELECT 2 + /* ; */ 3 ; SELECT '--' || '/*';",
    "SELECT /*+ REPARTITION(2) */ * FROM VALUES (1); SELECT 'é;ü' AS `ñ;`;",
    "SET spark.sql.ansi.enabled = true; SELECT 11;",
    "CREATE TEMPORARY VIEW v1 AS SELECT ';' AS c /* ; */; DROP VIEW IF EXISTS v1;",
]


def _spark_split(spark, script: str) -> list[tuple[int, str]]:
    """(offset, text) of each statement as Spark's script parser reads ``script``."""
    prefix = "BEGIN\n"
    parser = spark._jsparkSession.sessionState().sqlParser()
    body = parser.parsePlan(prefix + script + "\nEND")
    assert body.nodeName() == "CompoundBody"
    statements = body.collection()
    out = []
    for i in range(statements.length()):
        statement = statements.apply(i)
        out.append((statement.origin().startIndex().get() - len(prefix), str(statement.getText())))
    return out


@pytest.fixture
def spark(gateway, session):
    return gateway.sessions.get(session).spark


@pytest.mark.parametrize("script", TRICKY_SCRIPTS)
def test_the_splitter_yields_the_statements_sparks_script_parser_reads(spark, script):
    ours = [(s.offset, s.text) for s in split_script(script)]
    assert ours == _spark_split(spark, script)
    parser = spark._jsparkSession.sessionState().sqlParser()
    for _, text in ours:
        parser.parsePlan(text)  # each one alone is a statement Spark accepts


@pytest.mark.parametrize("script", TRICKY_SCRIPTS)
def test_each_statement_keeps_its_line_and_column(script):
    for statement in split_script(script):
        before = script[:statement.offset]
        assert statement.line == before.count("\n") + 1
        assert statement.column == statement.offset - (before.rfind("\n") + 1)
        assert script[statement.offset:].startswith(statement.text)


BAD = "select X'XuZ'"


@pytest.mark.parametrize("script", [
    f"SELECT 1; {BAD}; SELECT 2",
    f"/*/**/*/ SELECT 1;\n  {BAD} ;\nSELECT 'x;y'",
])
def test_a_statement_spark_rejects_fails_alone(spark, script):
    statements = split_script(script)
    parser = spark._jsparkSession.sessionState().sqlParser()
    assert [s.text for s in statements if s.text == BAD] == [BAD]
    for statement in statements:
        if statement.text == BAD:
            with pytest.raises(Exception, match="INVALID_TYPED_LITERAL"):
                parser.parsePlan(statement.text)
        else:
            parser.parsePlan(statement.text)
    good = "".join(s.text + ";\n" for s in statements if s.text != BAD)  # Spark splits the rest the same way
    assert [t for _, t in _spark_split(spark, good)] == [s.text for s in statements if s.text != BAD]


def test_sparks_error_in_statement_n_points_into_the_script(gateway, session):
    script = "SELECT 1;\n  SELECT 2;   " + BAD + ";\nSELECT 3"
    _, _, page = run_all(gateway, session, script)
    error = page.exception
    assert error["error_class"] == "INVALID_TYPED_LITERAL"
    column = script.split("\n")[1].index("X'XuZ'")
    assert (error["line"], error["position"]) == (2, column)
    assert "statement 3 of 4" in error["root_cause"]


def test_statements_before_a_bad_one_run(gateway, session):
    _, _, page = run_all(gateway, session, "CREATE OR REPLACE TEMPORARY VIEW before_bad AS SELECT 1 AS a; " + BAD)
    assert page.exception["error_class"] == "INVALID_TYPED_LITERAL"
    _, rows, _ = run_all(gateway, session, "SELECT a FROM before_bad")
    assert rows == [[1]]


# -- scripts made up at random from tricky pieces, split by us and by Spark ------------------------

PIECES = [
    "SELECT 'a;b'", "SELECT \"c;d\"", "SELECT `e;f` FROM VALUES (1) AS t(`e;f`)", "SELECT r'x\\'",
    "SELECT 'q\\';'", "SELECT 1 /* ; /* ; */ ; */ + 2", "SELECT 3 -- ; \n + 4", "SELECT X'1F'",
    "SELECT U&'\\0041'", "SET a.b = 1", "SELECT 5 -- x \\\n ; y\n + 6", "SELECT 'it''s'", "VALUES (';')",
]
BEFORE_SEMICOLON = ["", " ", "\n", "/* x; */", " -- c;\n", "/*/**/*/"]
AFTER_SEMICOLON = ["", " ", "\n", "\n\n  ", "/* ; */ ", "-- ;'\n", "/* /* ; */ */\n"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_scripts_split_as_spark_splits_them(spark, data):
    count = data.draw(st.integers(1, 5))
    script = data.draw(st.sampled_from(AFTER_SEMICOLON))
    for _ in range(count):
        script += (data.draw(st.sampled_from(PIECES)) + data.draw(st.sampled_from(BEFORE_SEMICOLON)) + ";"
                   + data.draw(st.sampled_from(AFTER_SEMICOLON)))
    assert [(s.offset, s.text) for s in split_script(script)] == _spark_split(spark, script), script
