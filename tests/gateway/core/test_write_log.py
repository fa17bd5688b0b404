"""The write log of gateway/core/freshness.py that Spark Connect sessions catch up on by table name: which
writes name shared tables, and what a session behind the log is told to refresh (no Spark needed: the log's
own rules; tests/gateway/connect/test_connect_freshness.py runs it on a real server)."""
from __future__ import annotations

import pytest

from gateway.core.freshness import LoggedWrite, WriteEpoch, _names_tables
from gateway.core.statement_analysis import analyse


@pytest.mark.parametrize("sql, names", [
    ("INSERT INTO t VALUES (1)", True),
    ("WITH q AS (SELECT 1) INSERT INTO db.t SELECT * FROM q", True),
    ("CREATE TABLE t (x INT) USING parquet", True),
    ("DROP TABLE IF EXISTS t", True),
    ("CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 1", False),
    ("CREATE TEMP VIEW v AS SELECT 1", False),
    ("DROP TEMPORARY VIEW v", False),
    ("CREATE FUNCTION f AS 'x.Y'", False),
    ("CREATE DATABASE IF NOT EXISTS d", False),
    ("SET spark.sql.shuffle.partitions = 2", False),
])
def test_writes_that_name_tables_other_sessions_cache(sql, names):
    assert _names_tables(analyse(sql)) is names


def _logged(epoch_log, *writes):
    for write in writes:
        epoch_log._value = write.epoch
        epoch_log._append(write)


def test_a_reader_refreshes_what_others_wrote_on_its_server_once_each_in_order():
    log = WriteEpoch()
    _logged(log, LoggedWrite(1, "a:1", "w", ("`c`.`d`.`t`",)), LoggedWrite(2, "b:1", "w", ("`c`.`d`.`other`",)),
            LoggedWrite(3, "a:1", "reader", ("`c`.`d`.`own`",)), LoggedWrite(4, "a:1", "w", ("`c`.`d`.`u`", "`c`.`d`.`t`")))
    assert log._written_since(0, 4, "a:1", "reader") == (["`c`.`d`.`t`", "`c`.`d`.`u`"], True)
    assert log._written_since(1, 4, "a:1", "reader") == (["`c`.`d`.`u`", "`c`.`d`.`t`"], True)
    assert log._written_since(4, 4, "a:1", "reader") == ([], True)


def test_a_write_without_names_or_out_of_the_log_makes_the_catch_up_incomplete():
    log = WriteEpoch()
    _logged(log, LoggedWrite(1, "a:1", "w", ()))
    assert log._written_since(0, 1, "a:1", "reader") == ([], False)
    small = WriteEpoch()
    small._log = type(small._log)(maxlen=2)
    _logged(small, *(LoggedWrite(epoch, "a:1", "w", (f"t{epoch}",)) for epoch in (1, 2, 3)))
    assert small._written_since(0, 3, "a:1", "reader") == (["t2", "t3"], False)
    assert small._written_since(1, 3, "a:1", "reader") == (["t2", "t3"], True)
