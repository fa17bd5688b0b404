"""One analysis per statement: comments, case and white space between tokens change nothing that a
guard decides (kind, writes, loads code, targets, resources), and every guard reaches the same decision."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.core.freshness import may_write
from gateway.core.session_journal import journaled
from gateway.core.restrictions import Restrictions
from gateway.core.statement_analysis import QUOTED_NAME, STRING, StatementKind, analyse, tokens
from gateway.core.statements import Statement, split_script
from gateway.errors import InvalidStatementError, PermissionDeniedError
from gateway.features.jars.resources import _jar_arguments

# Statements of every guarded kind. Resource arguments are quoted: a bare path (ADD JAR /tmp/a.jar)
# is raw text to Spark too, where a space or comment inside would make it another path.
GUARDED = [
    "ADD JAR 'https://repo.example/u.jar'",
    "ADD JARS '/tmp/a.jar' \"b.jar\"",
    "ADD FILE 'data.txt'",
    "ADD ARCHIVE 'env.zip'",
    "CREATE TEMPORARY FUNCTION f AS 'com.example.Udf'",
    "CREATE OR REPLACE FUNCTION db.f AS 'a.B' USING JAR 'hdfs:///u.jar', FILE 'x.txt'",
    "CREATE TEMPORARY FUNCTION g(x INT) RETURNS INT RETURN x + 1",
    "LOAD MODULE geo",
    "UNLOAD MODULE geo",
    "USE MODULES core, geo",
    "REMOVE JAR 'x.jar'",
    "SHOW JARS",
    "WITH q AS (SELECT 1 AS a) INSERT INTO t SELECT * FROM q",
    "FROM s INSERT INTO t SELECT * INSERT OVERWRITE TABLE u SELECT *",
    "INSERT OVERWRITE TABLE t SELECT 1",
    "CREATE TABLE t USING parquet AS SELECT 1",
    "SET spark.sql.runSQLOnFiles = true",
    "SET a.b = 1",
    "CREATE TEMPORARY VIEW v AS SELECT 1 AS c",
    "DROP TEMPORARY FUNCTION f",
    "DROP VIEW v",
    "EXECUTE IMMEDIATE 'ADD JAR x'",
    "SELECT a, b FROM db.t JOIN `other`.u ON t.a = u.a",
    "COMPILE PLAN 'p.json' FOR SELECT 1",
    "CALL system.proc(1)",
    # what the engine guard refuses non-admins (issue 27): programs, reflection, directories, local files
    "SELECT TRANSFORM (a) USING 'cat' AS (b) FROM t",
    "SELECT reflect('java.lang.System', 'exit', 0)",
    "INSERT OVERWRITE LOCAL DIRECTORY '/tmp/out' STORED AS TEXTFILE SELECT 1",
    "INSERT OVERWRITE DIRECTORY '/tmp/out' USING parquet SELECT 1",
    "LOAD DATA LOCAL INPATH '/etc/passwd' OVERWRITE INTO TABLE db.t",
    "CREATE TABLE t (a INT) USING parquet LOCATION '/tmp/t'",
    "ALTER TABLE t SET LOCATION '/tmp/elsewhere'",
    "BEGIN DECLARE x INT DEFAULT 1; IF x = 1 THEN INSERT INTO t VALUES (x); END IF; END",
    # every other kind of the grammar
    "SHOW TABLES IN db", "DESCRIBE TABLE EXTENDED t", "EXPLAIN SELECT 1", "RESET spark.sql.ansi.enabled",
    "USE db", "INSERT INTO db.t VALUES (1)", "TRUNCATE TABLE t", "MERGE INTO t USING s ON t.a = s.a "
    "WHEN MATCHED THEN DELETE", "UPDATE t SET a = 1", "DELETE FROM t WHERE a = 1", "CACHE LAZY TABLE t",
    "UNCACHE TABLE IF EXISTS t", "CLEAR CACHE", "REFRESH TABLE t", "ANALYZE TABLE t COMPUTE STATISTICS",
    "MSCK REPAIR TABLE t", "COMMENT ON TABLE t IS 'c'", "DECLARE VARIABLE v INT DEFAULT 1",
    "EXECUTE PLAN 'p.json'", "EXPLAIN PLAN 'p.json'", "SHOW FULL MODULES", "ADD FILES 'a.txt' 'b.txt'",
    "LIST FILES",
]

SEPARATORS = [" ", "  ", "\n", "\t", " /* x */ ", "/* x */", "-- x\n", "/* /* */ */", "/*/**/*/", "\r\n",
              "/* ; */", "-- ; ' \"\n"]


def _recased(text: str, flips: list[bool]) -> str:
    return "".join(c.swapcase() if flips[i % len(flips)] else c for i, c in enumerate(text))


@st.composite
def disguised(draw, text: str) -> str:
    """``text`` with comments, white space and case changes between and in its tokens (not in strings
    or quoted names, whose content is data)."""
    toks = tokens(text)
    out = [draw(st.sampled_from(["", " ", "-- lead\n", "/* lead */ "]))]
    for i, token in enumerate(toks):
        piece = token.text
        if token.kind not in (STRING, QUOTED_NAME):
            piece = _recased(piece, draw(st.lists(st.booleans(), min_size=1, max_size=4)))
        out.append(piece)
        if i + 1 < len(toks):
            out.append(draw(st.sampled_from(SEPARATORS)))
    out.append(draw(st.sampled_from(["", " ", " -- tail", " /* tail */"])))
    return "".join(out)


def _reading(text: str) -> tuple:
    """What the guards decide from, names compared as Spark compares them (case-insensitively)."""
    a = analyse(text)
    return (a.kind, a.writes, a.loads_code, a.resources, tuple(n.lower() for n in a.targets),
            tuple(n.lower() for n in a.reads), a.temporary, a.assigns, a.max_depth)


def _guard_decisions(text: str) -> tuple:
    [statement] = split_script(text)
    a = statement.analysis
    jars = None
    if a.kind in (StatementKind.ADD_JAR, "REMOVE_JAR"):
        jars = tuple(_jar_arguments(statement, "ADD"))
    return (statement.kind, journaled(a, text), may_write(statement), jars, "OVERWRITE" in a.words)


def test_every_kind_of_the_grammar_is_among_the_disguised_statements():
    """A kind added to the grammar (core or a feature of the workbench) must be added to GUARDED too."""
    from gateway.api.plugins import feature_classes
    from gateway.core.statement_analysis import CORE_STATEMENTS

    ours = {spec.kind for spec in CORE_STATEMENTS} | {spec.kind for cls in feature_classes()
                                                      if cls.__module__.startswith("gateway.") for spec in cls.statements}
    assert ours - {analyse(t).kind for t in GUARDED} == set()


@pytest.mark.parametrize("text", GUARDED)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_comments_case_and_space_do_not_change_the_analysis(text, data):
    variant = data.draw(disguised(text))
    assert _reading(variant) == _reading(text), variant
    assert _guard_decisions(variant) == _guard_decisions(text), variant


@pytest.mark.parametrize("text, kind, writes, loads_code", [
    ("ADD /*x*/ JAR 'https://h/u.jar'", "ADD_JAR", True, True),
    ("add\njar 'u.jar'", "ADD_JAR", True, True),
    ("ADD -- c\n JAR 'u.jar'", "ADD_JAR", True, True),
    ("CREATE TEMPORARY FUNCTION f AS 'C'", "CREATE_FUNCTION", False, True),  # the session's own: no write
    ("CREATE OR REPLACE /**/ TEMP VIEW v AS SELECT 1", "CREATE", False, False),
    ("DROP TEMPORARY VARIABLE IF EXISTS v", "DROP", False, False),
    ("DROP VIEW v", "DROP", True, False),  # Spark has no DROP TEMPORARY VIEW: v may be a shared view
    ("CREATE GLOBAL TEMPORARY VIEW v AS SELECT 1", "CREATE", True, False),  # global_temp is shared
    ("CREATE VIEW v AS SELECT 1", "CREATE", True, False),
    ("CREATE FUNCTION f(x INT) RETURNS INT RETURN x", "CREATE_FUNCTION", True, False),
    ("WITH q AS (SELECT 1) INSERT/**/INTO t SELECT * FROM q", "QUERY", True, False),
    ("SELECT 'INSERT INTO t' AS s", "QUERY", False, False),
    ("SELECT 1 /* INSERT */", "QUERY", False, False),
    ("/*/**/*/ LOAD MODULE geo", "LOAD_MODULE", True, True),
    ("EXECUTE IMMEDIATE 'SELECT 1'", "EXECUTE_IMMEDIATE", True, True),
])
def test_the_issues_disguises_are_read_as_what_they_are(text, kind, writes, loads_code):
    a = analyse(text)
    assert (a.kind, a.writes, a.loads_code) == (kind, writes, loads_code)


def test_resources_are_read_as_spark_reads_them():
    assert analyse("ADD JAR /tmp/a.jar 'b c.jar' \"d\\\\e.jar\"").resources == ("/tmp/a.jar", "b c.jar", "d\\e.jar")
    assert analyse("CREATE FUNCTION f AS 'C' USING JAR 'a.jar', ARCHIVE 'b.zip'").resources == ("a.jar", "b.zip")


def test_jar_statements_without_a_jar_are_a_clear_error():
    with pytest.raises(InvalidStatementError, match="ADD JAR needs a jar"):
        _jar_arguments(Statement("ADD JAR /* nothing */", StatementKind.ADD_JAR, 0, 1, 0), "ADD")


# -- the restriction guard, on a real session of a gateway with users ---------------------------------

@dataclass
class _UserSession:
    spark: object
    user: str = "alice"
    admin: bool = False


@pytest.fixture(scope="module")
def restrictions(config):
    return Restrictions(config.with_overrides(auth__mode="builtin", auth__admin_only_code=True))


@pytest.fixture
def alice(gateway, session):
    return _UserSession(gateway.sessions.get(session).spark)


def _decision(restrictions, session, text: str) -> str:
    [statement] = split_script(text)
    try:
        restrictions.check_statement(session, statement)
    except PermissionDeniedError as exc:
        return "refused: " + exc.message.split(" is not allowed")[0].lower()
    return "allowed"


@pytest.mark.parametrize("text, decision", [
    ("ADD /*x*/ JAR 'https://repo.example/u.jar'", "refused: add jar"),
    ("ADD JAR '/etc/hostname'", "refused: add jar of the local path '/etc/hostname'"),
    ("ADD FILE 'https://repo.example/x'", "refused: add file"),
    ("CREATE TEMPORARY FUNCTION f AS 'C'", "refused: create function"),
    ("CREATE FUNCTION f AS 'C' USING JAR '/tmp/u.jar'", "refused: create function of the local path '/tmp/u.jar'"),
    ("LOAD MODULE geo", "refused: load module"),
    ("EXECUTE IMMEDIATE 'ADD JAR x'", "refused: a statement of kind execute_immediate (execute immediate …)"),
    ("CALL system.proc(1)", "refused: a statement of kind other (call system …)"),
    ("SET spark.sql.runSQLOnFiles = true", "refused: setting spark.sql.runsqlonfiles"),
    ("SET spark.sql.parser.manageParserCaches = false", "refused: setting spark.sql.parser.manageparsercaches"),
    ("SET spark.sql.parser.parserDfaCacheFlushRatio=-1", "refused: setting spark.sql.parser.parserdfacacheflushratio"),
    ("SET spark.sql.parser.parserDfaCacheFlushThreshold = -1",
     "refused: setting spark.sql.parser.parserdfacacheflushthreshold"),
    ("CREATE TEMPORARY FUNCTION g(x INT) RETURNS INT RETURN x + 1", "allowed"),
    ("SELECT 1", "allowed"), ("SET a.b = 1", "allowed"), ("SHOW JARS", "allowed"),
    ("WITH q AS (SELECT 1) INSERT INTO t SELECT * FROM q", "allowed"),
])
def test_non_admins_run_only_the_allowed_kinds(restrictions, alice, text, decision):
    assert _decision(restrictions, alice, text) == decision


@pytest.mark.parametrize("text", [t for t in GUARDED if analyse(t).kind != "QUERY"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_disguises_reach_the_same_restriction_decision(restrictions, alice, text, data):
    variant = data.draw(disguised(text))
    assert _decision(restrictions, alice, variant) == _decision(restrictions, alice, text), variant


def test_sparks_parser_is_asked_when_tokens_cannot_rule_code_out(restrictions, alice):
    """A CREATE whose words say nothing of code, but which Spark reads as a function from a class,
    is refused: the token reading and Spark's own must agree before it runs."""
    from gateway.spark.parser import CODE_PLANS, statement_node

    assert statement_node(alice.spark, "CREATE TEMPORARY FUNCTION f AS 'C'") in CODE_PLANS
    assert statement_node(alice.spark, "CREATE TEMPORARY FUNCTION g(x INT) RETURNS INT RETURN x") not in CODE_PLANS
    assert statement_node(alice.spark, "LOAD MODULE geo") is None  # the gateway's own: Spark cannot read it


@pytest.mark.parametrize("text, depth", [
    ("SELECT 1", 0),
    ("SELECT 1 /* one */", 1),
    ("/*/**/*/ SELECT 'x'", 2),
    ("SELECT '/* in a string */', `/* in a name */` -- /* in a line comment", 0),
    ("SELECT /* a /* b /* c */ */ */ 1 /* d */", 3),
    ("SELECT 1 /* /* left open", 2),
    ("SELECT " + "/*" * 500 + "*/" * 500 + " 1", 500),
])
def test_comment_nesting_reads_comments_as_the_splitter_does(text, depth):
    """The engine guard's depth limit and the splitter read comments with the one lexer: the guard reads
    the depth from the statement's analysis, made once at the split."""
    from gateway.core.sql_lexer import comment_nesting

    assert comment_nesting(text) == depth == analyse(text).comment_depth
