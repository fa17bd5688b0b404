"""The editor's contract calls on a real gateway: SET/RESET one option, preview and analyze a table,
split and format scripts (comments kept), workbench settings."""
from __future__ import annotations

import pytest

from conftest import run_all
from gateway import InvalidRequestError, InvalidStatementError, SessionNotFoundError, SqlExecutionError
from gateway.core.editor_calls import format_script
from gateway.models import StatementText


# -- session options --------------------------------------------------------------------------------

def test_set_and_reset_one_option_and_all(gateway, session):
    default = gateway.get_session_config(session).get("spark.sql.shuffle.partitions")
    gateway.set_session_option(session, " spark.sql.shuffle.partitions ", " 7 ")
    gateway.set_session_option(session, "spark.sql.ansi.enabled", "false")
    assert gateway.get_session_config(session)["spark.sql.shuffle.partitions"] == "7"
    assert run_all(gateway, session, "SELECT current_timestamp() IS NOT NULL")[1] == [[True]]
    gateway.reset_session_option(session, "spark.sql.shuffle.partitions")
    config = gateway.get_session_config(session)
    assert config.get("spark.sql.shuffle.partitions") == default != "7"
    assert config["spark.sql.ansi.enabled"] == "false"          # only the named one was reset
    gateway.reset_session_option(session)                        # RESET: every setting
    assert gateway.get_session_config(session).get("spark.sql.ansi.enabled") != "false"


@pytest.mark.parametrize("key", ["bad key; DROP TABLE x", "", "a=b", "x'y", None])
def test_a_key_that_is_not_a_setting_name_is_refused_before_any_sql(gateway, session, key):
    with pytest.raises(InvalidRequestError, match="is not a setting name"):
        gateway.set_session_option(session, key, "1")
    if key:  # an empty key means RESET of everything
        with pytest.raises(InvalidRequestError, match="is not a setting name"):
            gateway.reset_session_option(session, key)


def test_a_value_with_a_semicolon_is_refused(gateway, session):
    with pytest.raises(InvalidRequestError, match="cannot contain ';'"):
        gateway.set_session_option(session, "spark.sql.shuffle.partitions", "4; DROP TABLE t")
    assert gateway.get_session_config(session).get("spark.sql.shuffle.partitions") != "4"


# -- tables -----------------------------------------------------------------------------------------

def test_preview_statement_quotes_every_part(gateway, session):
    assert (gateway.preview_statement(session, "spark_catalog.default.orders", 5)
            == "SELECT * FROM `spark_catalog`.`default`.`orders` LIMIT 5")
    assert (gateway.preview_statement(session, "db.`odd.name`", 10)
            == "SELECT * FROM `db`.`odd.name` LIMIT 10")
    assert gateway.preview_statement(session, "`my``view`") == "SELECT * FROM `my``view` LIMIT 100"


@pytest.mark.parametrize("limit", [0, -1, True, "10", 2.5])
def test_preview_statement_refuses_a_bad_limit(gateway, session, limit):
    with pytest.raises(InvalidRequestError, match="limit must be a whole number"):
        gateway.preview_statement(session, "t", limit)


def test_preview_needs_a_name_and_a_live_session(gateway, session):
    with pytest.raises(InvalidRequestError, match="name is empty"):
        gateway.preview_statement(session, " ")
    with pytest.raises(SessionNotFoundError):
        gateway.preview_statement("6f1c2d3e-0000-4000-8000-000000000000", "t")


def test_preview_table_runs_the_preview_of_an_oddly_named_view(gateway, session):
    run_all(gateway, session, "CREATE OR REPLACE TEMPORARY VIEW `odd view` AS SELECT id FROM range(50)")
    operation = gateway.preview_table(session, "odd view", limit=3)
    rows = [row for page in gateway.iter_results(session, operation) for row in page.rows]
    assert gateway.get_operation_info(session, operation).statement == "SELECT * FROM `odd view` LIMIT 3"
    gateway.close_operation(session, operation)
    assert rows == [[0], [1], [2]]


def test_analyze_table_computes_statistics_and_reports_failures(gateway, session):
    run_all(gateway, session, "CREATE DATABASE IF NOT EXISTS editor_calls_db")
    run_all(gateway, session, "CREATE OR REPLACE TABLE editor_calls_db.stats_t USING parquet AS "
                              "SELECT id, CAST(id AS STRING) AS s FROM range(20)")
    assert "20 rows" not in (gateway.get_table(session, "editor_calls_db.stats_t").statistics or "")
    gateway.analyze_table(session, "editor_calls_db.stats_t")
    assert "20 rows" in gateway.get_table(session, "editor_calls_db.stats_t").statistics
    with pytest.raises(SqlExecutionError, match="TABLE_OR_VIEW_NOT_FOUND|cannot be found"):
        gateway.analyze_table(session, "editor_calls_db.no_such_table")
    assert gateway.list_operations(session) == []   # the analyze operations were closed


# -- scripts ----------------------------------------------------------------------------------------

def test_split_statements_gives_kind_index_line_and_offset(gateway):
    script = "SELECT 1;\n-- note; not a split\nSET a.b=1;\n\nCREATE TABLE t (s STRING) USING parquet;"
    parts = gateway.split_statements(script)
    assert parts == [StatementText("SELECT 1", "QUERY", 0, 1, 0),
                     StatementText("SET a.b=1", "SET", 1, 3, script.index("SET")),
                     StatementText("CREATE TABLE t (s STRING) USING parquet", "CREATE", 2, 5,
                                   script.index("CREATE"))]
    with pytest.raises(InvalidStatementError, match="empty"):
        gateway.split_statements("  ")
    with pytest.raises(InvalidStatementError, match="must be text"):
        gateway.split_statements(None)


def test_format_statement_pretty_prints_each_statement(gateway):
    formatted = gateway.format_statement("select a,b from t where a>1; select 2")
    assert formatted == "SELECT\n  a,\n  b\nFROM t\nWHERE\n  a > 1;\n\nSELECT\n  2;"
    assert gateway.format_statement("select 1;") == "SELECT\n  1"


@pytest.mark.parametrize("script, expected", [
    # a line comment inside a statement stays a line comment; what followed it moves to the next line
    ("select x from t where a = 1 -- note\n and b = 2",
     "SELECT\n  x\nFROM t\nWHERE\n  a = 1 -- note\n  AND b = 2"),
    # comments before, between and after statements (sqlglot alone loses these)
    ("-- first\nselect 1; -- after one\n/* before\n   two */ select a -- col\nfrom t; -- tail",
     "-- first\nSELECT\n  1; -- after one\n\n/* before\n   two */\nSELECT\n  a -- col\nFROM t; -- tail"),
    ("select a, -- c1\n b /* c2 */ from t\n-- closing",
     "SELECT\n  a, -- c1\n  b /* c2 */\nFROM t\n-- closing"),
    ("select 1 -- end", "SELECT\n  1 -- end"),
    # hints are not comments; comment look-alikes in strings are not comments
    ("select /*+ BROADCAST(t) */ a from t", "SELECT /*+ BROADCAST(t) */\n  a\nFROM t"),
    ("select '-- no' as s, '/* no */' as b", "SELECT\n  '-- no' AS s,\n  '/* no */' AS b"),
    # statements sqlglot only passes through keep their comments too
    ("SET spark.sql.shuffle.partitions=4; -- four\nLOAD MODULE geo",
     "SET spark.sql.shuffle.partitions = 4; -- four\n\nLOAD MODULE geo;"),
])
def test_format_statement_keeps_every_comment_as_typed(gateway, script, expected):
    assert gateway.format_statement(script) == expected


def test_format_keeps_line_comments_that_sqlglot_rewrites():
    """The reason for the placeholders: sqlglot turns every ``--`` comment into ``/* */``, and
    formatting the split statements' text (what the editor did) lost comments between statements."""
    import sqlglot
    script = "select 1;\n-- keep me\nselect 2 -- and me"
    plain = "\n".join(sqlglot.transpile(script, read="spark", write="spark", pretty=True))
    assert "/* keep me */" in plain and "-- keep me" not in plain
    assert format_script(script) == "SELECT\n  1;\n\n-- keep me\nSELECT\n  2; -- and me"


@pytest.mark.parametrize("script, message", [
    ("SELECT (((", "line 1 cannot be formatted"),
    ("SELECT 1;\n\nSELECT x FROM", "line 3 cannot be formatted"),
    ("-- only a comment\n;", "only comments"),
    ("", "empty"),
    ("SELECT 'open", "unterminated"),
])
def test_format_statement_says_what_it_cannot_format(gateway, script, message):
    with pytest.raises(InvalidStatementError, match=message):
        gateway.format_statement(script)


def test_format_refuses_text_over_the_statement_limit():
    with pytest.raises(InvalidStatementError, match="statement.max_chars"):
        format_script("SELECT 1 " + " " * 100, max_chars=50)


# -- workbench settings -----------------------------------------------------------------------------

def test_get_setting_reads_the_configuration(gateway):
    assert gateway.get_setting("session.idle_timeout_s") == gateway.config["session.idle_timeout_s"] == 0
    assert gateway.get_setting("result.buffer_max_rows") == 20_000
    with pytest.raises(InvalidRequestError, match="not a workbench setting.*session.idle_timeout_s"):
        gateway.get_setting("session.idle_timeout")
