"""SQL scripting's ``BEGIN … END`` compound statements are one statement each, as Spark's own parser
reads them: nested blocks, IF/WHILE/LOOP/REPEAT/CASE/FOR … END inside, labels, handler bodies, ``CASE …
END`` expressions in conditions. ``BEGIN`` alone, ``BEGIN TRANSACTION`` and ``begin`` as a name open no
block. The workbench runs a block and answers what Spark answers for it: its last result."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_all
from gateway.core.statement_analysis import analyse
from gateway.core.statements import split_script

PREFIX = "BEGIN\n"


def _spark_split(spark, script: str) -> list[tuple[int, str]]:
    """(offset, text) of each statement of ``script`` as Spark's script parser reads it: the script
    is made the body of one block, whose statements (a nested block is one) carry their origin."""
    parser = spark._jsparkSession.sessionState().sqlParser()
    wrapped = PREFIX + script + "\nEND"
    body = parser.parsePlan(wrapped)
    assert body.nodeName() == "CompoundBody"
    statements = body.collection()
    out = []
    for i in range(statements.length()):
        origin = statements.apply(i).origin()
        start, stop = origin.startIndex().get(), origin.stopIndex().get()
        out.append((start - len(PREFIX), wrapped[start:stop + 1]))
    return out


@pytest.fixture
def spark(gateway, session):
    return gateway.sessions.get(session).spark


BLOCKS = [
    "BEGIN END",
    "BEGIN SELECT 1; END",
    "BEGIN SELECT 1; BEGIN SELECT 2; BEGIN SELECT 3; END; END; SELECT 4; END",
    "BEGIN DECLARE x INT DEFAULT 0; WHILE x < 3 DO SET x = x + 1; END WHILE; SELECT x; END",
    "BEGIN IF CASE WHEN 1 = 1 THEN true ELSE false END THEN SELECT 1; ELSEIF 1 = 2 THEN SELECT 2; "
    "ELSE SELECT CASE WHEN true THEN 3 END; END IF; END",
    "BEGIN DECLARE i INT DEFAULT 0; REPEAT SET i = i + 1; UNTIL CASE WHEN i > 2 THEN true ELSE false END "
    "END REPEAT; END",
    "BEGIN CASE 1 WHEN 1 THEN SELECT 1; WHEN 2 THEN SELECT 2; ELSE SELECT 3; END CASE; END",
    "BEGIN CASE WHEN true THEN SELECT 'w;'; END CASE; END",
    "BEGIN lbl: LOOP LEAVE lbl; END LOOP lbl; END",
    "outer_block: BEGIN inner_block: BEGIN SELECT 1; END inner_block; END outer_block",
    "BEGIN FOR r AS SELECT 1 AS a DO SELECT r.a; END FOR; END",
    "BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN SELECT 'h;'; END; SELECT 2; END",
    "BEGIN -- a ; comment\n SELECT 1 /* ; END; */; SELECT 'END;' AS `end;`; END",
    "begin select begin from values (1) as t(begin); end",
]


@pytest.mark.parametrize("block", BLOCKS)
def test_a_block_is_one_statement_as_spark_reads_it(spark, block):
    script = f"SELECT 0;\n{block};\n  SELECT 'after';"
    ours = [(s.offset, s.text) for s in split_script(script)]
    assert ours == _spark_split(spark, script)
    assert [s.kind for s in split_script(script)] == ["QUERY", "SCRIPT", "QUERY"]
    if not block.startswith("outer_block"):  # Spark takes a label on a block inside a script only
        assert spark._jsparkSession.sessionState().sqlParser().parsePlan(block).nodeName() == "CompoundBody"


@pytest.mark.parametrize("script, statements", [
    ("BEGIN; SELECT 1", ["BEGIN", "SELECT 1"]),
    ("BEGIN TRANSACTION; SELECT 1", ["BEGIN TRANSACTION", "SELECT 1"]),
    ("BEGIN", ["BEGIN"]),
    ("SELECT begin FROM VALUES (1) AS t(begin); SELECT 2", ["SELECT begin FROM VALUES (1) AS t(begin)", "SELECT 2"]),
    ("SELECT 1 AS begin; SELECT 'BEGIN'; SELECT `begin` FROM VALUES (1) AS t(`begin`)",
     ["SELECT 1 AS begin", "SELECT 'BEGIN'", "SELECT `begin` FROM VALUES (1) AS t(`begin`)"]),
    ("/* BEGIN */ SELECT 1; -- BEGIN\nSELECT 2", ["SELECT 1", "SELECT 2"]),
])
def test_begin_that_opens_no_block_splits_as_before(script, statements):
    assert [s.text for s in split_script(script)] == statements
    assert all(s.kind != "SCRIPT" for s in split_script(script))


def test_a_block_left_open_is_one_statement_that_spark_rejects(gateway, session):
    script = "BEGIN SELECT 1; SELECT 2;"
    assert [s.text for s in split_script(script)] == ["BEGIN SELECT 1; SELECT 2"]
    _, _, page = run_all(gateway, session, script)
    assert page.exception["error_class"] == "PARSE_SYNTAX_ERROR"


def test_a_block_is_fail_closed_for_the_guards():
    """Its statements run inside Spark, past guards that read one statement: a write that may load code."""
    analysis = analyse("BEGIN /* x */ SELECT 1; INSERT INTO t VALUES (1); END")
    assert (analysis.kind, analysis.writes, analysis.loads_code) == ("SCRIPT", True, True)
    assert analysis.targets == ("t",)


def test_the_workbench_runs_a_block_and_answers_its_last_result(gateway, session):
    script = ("CREATE OR REPLACE TEMPORARY VIEW block_src AS SELECT 3 AS n;\n"
              "BEGIN\n"
              "  DECLARE x INT DEFAULT 0;\n"
              "  DECLARE last INT;\n"
              "  SET last = (SELECT n FROM block_src);\n"
              "  WHILE x < last DO\n"
              "    IF x = 0 THEN SET x = x + 2; ELSE SET x = x + 1; END IF;\n"
              "  END WHILE;\n"
              "  SELECT x AS reached, 'done;' AS note;\n"
              "END")
    columns, rows, page = run_all(gateway, session, script, timeout_s=300)  # each step is a Spark job
    assert page.exception is None, page.exception
    assert [c.name for c in columns] == ["reached", "note"]
    assert rows == [[3, "done;"]]


# -- blocks made up at random, split by us and by Spark ---------------------------------------------

SIMPLE = ["SELECT 1", "SELECT 'a;b'", "SELECT CASE WHEN true THEN 1 ELSE 2 END", "SET x = x + 1",
          "SELECT 1 /* ; END; */", "VALUES (';')", "SELECT 2 -- END;\n"]
CONDITIONS = ["x < 3", "CASE WHEN x > 1 THEN true ELSE false END", "(SELECT count(*) FROM VALUES (1)) > 0"]


@st.composite
def compound(draw, depth: int = 0) -> str:
    """A statement of a compound body: a simple one or, above depth 3, one with a body of its own."""
    kind = draw(st.sampled_from(["simple"] * 2 + (["begin", "if", "while", "loop", "repeat", "case"]
                                                   if depth < 3 else [])))
    if kind == "simple":
        return draw(st.sampled_from(SIMPLE))
    body = "".join(draw(compound(depth + 1)) + ";" + draw(st.sampled_from([" ", "\n", " /* ; */ "]))
                   for _ in range(draw(st.integers(0 if kind == "begin" else 1, 2))))
    condition = draw(st.sampled_from(CONDITIONS))
    label = draw(st.sampled_from(["", f"l{depth}: "])) if kind in ("begin", "while", "loop", "repeat") else ""
    if kind == "begin":
        return f"{label}BEGIN {body} END"
    if kind == "if":
        return f"IF {condition} THEN {body} ELSE {body} END IF"
    if kind == "while":
        return f"{label}WHILE {condition} DO {body} END WHILE"
    if kind == "loop":
        return f"{label}LOOP {body} END LOOP"
    if kind == "repeat":
        return f"{label}REPEAT {body} UNTIL {condition} END REPEAT"
    return f"CASE WHEN {condition} THEN {body} ELSE {body} END CASE"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_blocks_split_as_spark_splits_them(spark, data):
    script = "".join(data.draw(st.sampled_from(["SELECT 1", "BEGIN " + data.draw(compound(1)) + "; END"]))
                     + ";\n" for _ in range(data.draw(st.integers(1, 3))))
    assert [(s.offset, s.text) for s in split_script(script)] == _spark_split(spark, script), script


BLOCK_SCRIPT = ("SELECT 1;\n"
                "BEGIN\n"
                "  SELECT 2; /* ; */\n"
                "  BEGIN SELECT 3; END;\n"
                "END;   SELECT 4;\n"
                "  SELEC 5")


def test_statements_around_and_after_a_block_keep_their_line_and_column():
    """Error markers need each statement's start in the script; a block (with a nested block and a
    comment holding ``;``) is one statement, and the statements after it keep their places."""
    statements = split_script(BLOCK_SCRIPT)
    assert [(s.line, s.column) for s in statements] == [(1, 0), (2, 0), (5, 7), (6, 2)]
    assert [BLOCK_SCRIPT[s.offset:s.offset + 6] for s in statements] == ["SELECT", "BEGIN\n", "SELECT", "SELEC "]


@pytest.mark.parametrize("script, line, position", [
    (BLOCK_SCRIPT, 6, 2),  # after a block: the script's line, the column where the statement starts
    # inside a block: Spark's line in the block moved to the script's, at the token Spark names ('3')
    ("SELECT 1;\nBEGIN\n  SELECT 2;\n  SELEC 3;\nEND", 4, 8),
])
def test_a_syntax_error_after_or_inside_a_block_is_marked_where_it_is_in_the_script(gateway, session, script,
                                                                                   line, position):
    _, _, page = run_all(gateway, session, script)
    error = page.exception
    assert error["error_class"] == "PARSE_SYNTAX_ERROR", error
    assert (error["line"], error["position"]) == (line, position), error
