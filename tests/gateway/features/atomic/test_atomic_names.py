"""Atomic writes whatever the table is called (issue 18): keyword names such as ``range``,
``date``, ``keep`` (legal unquoted in Spark, keywords to sqlglot) are staged like any other,
and a write that cannot be staged is refused, never run silently through Spark.

Faults are real: the query fails on its last row (raise_error) after other partitions wrote files.
"""
from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gateway import InvalidStatementError, OperationStatus
from gateway.features.atomic import ALLOW_NON_ATOMIC
from gateway.features.atomic.parse import quote
from gateway.spark.parser import PlannedWrite, parse_write_target
from tests.gateway.spark.test_spark_adapter import WithoutJvm
from tests.gateway.features.atomic.test_atomic_writes import OLD, OLD_ROWS, operation, run, warehouse_files

# Fails on its last row (id 7 of two partitions), after the first partition wrote its file.
FAILING = ("SELECT CASE WHEN id = 7 THEN CAST(raise_error('injected fault') AS BIGINT) ELSE id END AS id, "
           "id % 2 AS k FROM range(0, 8, 1, 2)")
GOOD = "SELECT id, id % 2 AS k FROM range(100, 103)"
GOOD_ROWS = sorted([i, i % 2] for i in range(100, 103))
WRITES = {  # with {t} for the target
    "INSERT_OVERWRITE": "INSERT OVERWRITE TABLE {t} {q}",
    "INSERT_OVERWRITE_NO_TABLE_WORD": "INSERT OVERWRITE {t} {q}",
    "CREATE_OR_REPLACE": "CREATE OR REPLACE TABLE {t} USING parquet AS {q}",
    "REPLACE": "REPLACE TABLE {t} USING orc AS {q}",
}


def tables(gateway, session, databases) -> set[str]:
    return {f"{db}.{t.name}".lower() for db in databases for t in gateway.list_tables(session, database=db)}


def rows_of(gateway, session, target: str) -> list:
    return sorted(run(gateway, session, f"SELECT id, k FROM {target}")[1])


def error_of(gateway, session, statement: str) -> str:
    _, _, page = run(gateway, session, statement)
    assert page.exception is not None, f"{statement!r} did not fail"
    return page.exception["root_cause"]


def committed(gateway, session, statement: str) -> list:
    op = gateway.execute_statement(session, statement)
    operation(gateway, session, op).done.wait(600)
    info = gateway.get_operation_info(session, op)
    gateway.close_operation(session, op)
    assert info.status is OperationStatus.FINISHED, info.exception
    return info.committed


# -- the names of the issue, one by one ---------------------------------------------------------

@pytest.mark.parametrize("target, database", [("range", "default"), ("date", "default"), ("keep", "default"),
                                              ("db.date", "db"), ("spark_catalog.db.Format", "db")])
def test_a_failed_write_to_a_keyword_name_keeps_the_old_rows(gateway, session, target, database):
    run(gateway, session, "CREATE DATABASE IF NOT EXISTS db")
    run(gateway, session, f"DROP TABLE IF EXISTS {target}")
    before_tables = tables(gateway, session, {"default", database})
    before_files = warehouse_files(gateway)

    # A failed CTAS leaves no table and no folder that would block the name.
    assert "injected fault" in error_of(gateway, session, f"CREATE TABLE {target} USING parquet AS {FAILING}")
    assert tables(gateway, session, {"default", database}) == before_tables
    assert warehouse_files(gateway) == before_files
    create = committed(gateway, session, f"CREATE TABLE {target} USING parquet AS {OLD}")
    assert create[0]["atomic"] is True and create[0]["action"] == "CREATE"
    assert rows_of(gateway, session, target) == OLD_ROWS

    after_create = warehouse_files(gateway)
    for kind, write in WRITES.items():
        assert "injected fault" in error_of(gateway, session, write.format(t=target, q=FAILING)), kind
        assert rows_of(gateway, session, target) == OLD_ROWS, kind
        assert warehouse_files(gateway) == after_create, kind

    # A failed RTAS leaves the table usable: the next RTAS replaces it, atomically.
    replace = committed(gateway, session, f"CREATE OR REPLACE TABLE {target} USING parquet AS {GOOD}")
    assert replace[0]["atomic"] is True and replace[0]["action"] == "REPLACE"
    assert rows_of(gateway, session, target) == GOOD_ROWS
    overwrite = committed(gateway, session, f"INSERT OVERWRITE {target} {OLD}")
    assert overwrite[0]["atomic"] is True and rows_of(gateway, session, target) == OLD_ROWS
    run(gateway, session, f"DROP TABLE {target}")
    assert warehouse_files(gateway) == before_files


# -- no silent fallback -------------------------------------------------------------------------

def test_a_write_that_cannot_be_staged_is_refused_unless_allowed_once(gateway, session):
    run(gateway, session, "DROP TABLE IF EXISTS aw_computed")
    run(gateway, session, f"CREATE TABLE aw_computed USING parquet AS {OLD}")
    run(gateway, session, "DECLARE OR REPLACE VARIABLE aw_target STRING DEFAULT 'aw_computed'")
    files = warehouse_files(gateway)
    statement = f"INSERT OVERWRITE IDENTIFIER(aw_target) {GOOD}"  # the name is known only when it runs

    message = error_of(gateway, session, statement)
    assert "cannot run atomically" in message and "IDENTIFIER" in message and ALLOW_NON_ATOMIC in message
    assert rows_of(gateway, session, "aw_computed") == OLD_ROWS and warehouse_files(gateway) == files

    written = committed(gateway, session, f"SET {ALLOW_NON_ATOMIC}=true;\n{statement}")
    assert written[0]["atomic"] is False and ALLOW_NON_ATOMIC in written[0]["note"]
    assert rows_of(gateway, session, "aw_computed") == GOOD_ROWS
    # The permission was taken by that write: the next one is refused again.
    assert "cannot run atomically" in error_of(gateway, session, statement)
    multi = f"FROM ({OLD}) q INSERT OVERWRITE aw_computed SELECT * INSERT INTO aw_computed SELECT *"
    assert "multi-insert" in error_of(gateway, session, multi)
    assert rows_of(gateway, session, "aw_computed") == GOOD_ROWS
    run(gateway, session, "DROP TABLE aw_computed")
    # IDENTIFIER of a literal is a name Spark's parser reads: it is staged like any other.
    run(gateway, session, f"CREATE TABLE aw_literal USING parquet AS {OLD}")
    assert "injected fault" in error_of(gateway, session, f"INSERT OVERWRITE IDENTIFIER('aw_literal') {FAILING}")
    assert rows_of(gateway, session, "aw_literal") == OLD_ROWS
    assert committed(gateway, session, f"INSERT OVERWRITE IDENTIFIER('aw_literal') {GOOD}")[0]["atomic"] is True
    assert rows_of(gateway, session, "aw_literal") == GOOD_ROWS
    run(gateway, session, "DROP TABLE aw_literal")


def test_writes_the_leading_words_hide_are_staged_too(gateway, session):
    """CTAS without AS, AS TABLE, WITH … INSERT OVERWRITE, FROM … INSERT OVERWRITE: Spark reads them as writes."""
    for table in ("aw_noas", "aw_astable", "values"):
        run(gateway, session, f"DROP TABLE IF EXISTS {table}")
    run(gateway, session, f"CREATE TABLE values USING parquet AS {OLD}")
    files = warehouse_files(gateway)
    before = tables(gateway, session, {"default"})
    assert "injected fault" in error_of(gateway, session, f"CREATE TABLE aw_noas USING parquet {FAILING}")
    assert "injected fault" in error_of(gateway, session,
                                        f"WITH q AS ({FAILING}) INSERT OVERWRITE TABLE values SELECT * FROM q")
    assert "injected fault" in error_of(gateway, session, f"FROM ({FAILING}) q INSERT OVERWRITE values SELECT *")
    assert tables(gateway, session, {"default"}) == before and warehouse_files(gateway) == files
    assert rows_of(gateway, session, "values") == OLD_ROWS

    for statement in (f"CREATE TABLE aw_noas USING parquet {GOOD}", "CREATE TABLE aw_astable USING orc AS TABLE aw_noas",
                      f"WITH q AS ({GOOD}) INSERT OVERWRITE TABLE values SELECT * FROM q"):
        assert committed(gateway, session, statement)[0]["atomic"] is True, statement
    assert rows_of(gateway, session, "aw_astable") == GOOD_ROWS and rows_of(gateway, session, "values") == GOOD_ROWS
    assert committed(gateway, session, f"FROM ({OLD}) q INSERT OVERWRITE values SELECT *")[0]["atomic"] is True
    assert rows_of(gateway, session, "values") == OLD_ROWS
    assert run(gateway, session, "SELECT 1 AS overwrite")[1] == [[1]]  # a query is still a query
    for table in ("aw_noas", "aw_astable", "values"):
        run(gateway, session, f"DROP TABLE {table}")


def test_without_spark_s_parser_a_write_is_refused_unless_allowed(gateway, session):
    """A backend with no JVM (Spark Connect) cannot read the target: refuse, never guess with sqlglot."""
    spark = gateway.sessions.get(session).spark
    writer = gateway.features["atomic"].writer
    statement = "INSERT OVERWRITE TABLE range SELECT 1, 2"
    with pytest.raises(InvalidStatementError, match="no Catalyst parser") as info:
        writer.two_phase_table(WithoutJvm(spark), statement)
    assert ALLOW_NON_ATOMIC in info.value.message
    spark.conf.set(ALLOW_NON_ATOMIC, "true")
    allowed = writer.two_phase_table(WithoutJvm(spark), statement)
    assert allowed.atomic is False and allowed.statements[0].sql == statement
    assert spark.conf.get(ALLOW_NON_ATOMIC, None) is None  # taken by that one write


# -- every name Spark accepts (hypothesis) ------------------------------------------------------

_NAMES: dict = {}


def legal_keywords(gateway, session) -> list[str]:
    """Spark's keywords that its parser takes as an unquoted table name (all, when not enforced)."""
    if "keywords" not in _NAMES:
        spark = gateway.sessions.get(session).spark
        keywords = [row[0] for row in run(gateway, session,
                                          "SELECT keyword FROM sql_keywords() WHERE NOT reserved")[1]]
        assert len(keywords) > 300  # Spark 4.3 lists 444

        def legal(word: str) -> bool:
            try:
                insert = parse_write_target(spark, f"INSERT OVERWRITE TABLE {word} SELECT 1")
                create = parse_write_target(spark, f"CREATE TABLE {word} AS SELECT 1")
            except Exception:  # noqa: BLE001 - Spark's ParseException: not a legal bare name
                return False
            return insert.plan is PlannedWrite.INSERT_OVERWRITE and insert.name_parts == (word,) \
                and create.name_parts == (word,)

        _NAMES["keywords"] = [k for k in keywords if legal(k)]
        _NAMES["refused"] = sorted(set(keywords) - set(_NAMES["keywords"]))
        print(f"{len(_NAMES['keywords'])} keywords are legal bare table names; not: {_NAMES['refused']}")
    return _NAMES["keywords"]


def spelled(draw, word: str) -> str:
    """One way to write ``word``: as is, lower, upper or mixed case; backquoted or bare."""
    case = draw(st.sampled_from(["lower", "upper", "mixed"]))
    if case == "lower":
        word = word.lower()
    elif case == "upper":
        word = word.upper()
    else:
        word = "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(word))
    return quote(word) if draw(st.booleans()) else word


@pytest.mark.timeout(900)
def test_no_failed_write_loses_data_whatever_the_table_is_called(gateway, session):
    keywords = legal_keywords(gateway, session)
    plain = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
    word = st.one_of(st.sampled_from(keywords), plain)
    databases_made: set[str] = set()
    started = time.monotonic()

    @st.composite
    def target(draw):
        table = draw(word)
        parts = draw(st.integers(1, 3))
        database = draw(word) if parts > 1 else None
        written = [spelled(draw, table)]
        if database:
            written.insert(0, spelled(draw, database))
        if parts == 3:
            written.insert(0, draw(st.sampled_from(["spark_catalog", "SPARK_CATALOG", "`spark_catalog`"])))
        return ".".join(written), (database or "default").lower(), table.lower()

    @settings(max_examples=25, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(target=target(), write=st.sampled_from(["CREATE"] + list(WRITES)))
    def check(target, write):
        name, database, table = target
        if database not in databases_made:
            run(gateway, session, f"CREATE DATABASE IF NOT EXISTS {quote(database)}")
            databases_made.add(database)
        full = quote("spark_catalog", database, table)
        run(gateway, session, f"DROP TABLE IF EXISTS {full}")
        if write != "CREATE":
            run(gateway, session, f"CREATE TABLE {name} USING parquet AS {OLD}")
        before_tables = tables(gateway, session, {"default", database})
        before_files = warehouse_files(gateway)
        statement = (f"CREATE TABLE {name} USING parquet AS {FAILING}" if write == "CREATE"
                     else WRITES[write].format(t=name, q=FAILING))

        assert "injected fault" in error_of(gateway, session, statement), statement
        assert tables(gateway, session, {"default", database}) == before_tables, statement
        assert warehouse_files(gateway) == before_files, statement
        if write != "CREATE":
            assert rows_of(gateway, session, full) == OLD_ROWS, statement
        run(gateway, session, f"DROP TABLE IF EXISTS {full}")

    try:
        check()
    finally:
        for database in databases_made - {"default"}:
            run(gateway, session, f"DROP DATABASE IF EXISTS {quote(database)} CASCADE")
    print(f"25 generated names took {time.monotonic() - started:.0f} s")
