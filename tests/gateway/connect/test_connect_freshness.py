"""Cross-session write freshness on Spark Connect (real server): a session that read a parquet table (its
relation and file list cached on the server, per session) sees the rows another session wrote since, by a
REFRESH TABLE of the written tables before its next statement; no JVM handles."""
from __future__ import annotations

import contextlib

from connect_support import fetch_all, wait_terminal
from gateway.core.freshness import WRITES
from gateway.models import OperationStatus


def _rows(gateway, session, sql):
    op = gateway.execute_statement(session, sql)
    info = wait_terminal(gateway, session, op)
    assert info.status == OperationStatus.FINISHED, (sql, info.exception)
    rows, _ = fetch_all(gateway, session, op)
    gateway.close_operation(session, op)
    return rows


@contextlib.contextmanager
def _two_sessions(gateway):
    reader, writer = gateway.open_session(name="reader"), gateway.open_session(name="writer")
    try:
        yield reader, writer
    finally:
        gateway.close_session(reader)
        gateway.close_session(writer)


def test_a_session_reads_the_rows_another_session_inserted(connect_gateway):
    with _two_sessions(connect_gateway) as (reader, writer):
        _rows(connect_gateway, writer, "DROP TABLE IF EXISTS fresh_parquet")
        _rows(connect_gateway, writer, "CREATE TABLE fresh_parquet (x INT) USING parquet")
        _rows(connect_gateway, writer, "INSERT INTO fresh_parquet VALUES (1)")
        assert _rows(connect_gateway, reader, "SELECT count(*) FROM fresh_parquet") == [[1]]  # cached: one file
        before = WRITES.catch_ups
        _rows(connect_gateway, writer, "INSERT INTO fresh_parquet VALUES (2), (3)")
        assert _rows(connect_gateway, reader, "SELECT sum(x) FROM fresh_parquet") == [[6]]
        assert WRITES.catch_ups > before


def test_a_write_named_in_the_writers_database_is_refreshed_in_a_reader_elsewhere(connect_gateway):
    with _two_sessions(connect_gateway) as (reader, writer):
        _rows(connect_gateway, writer, "CREATE DATABASE IF NOT EXISTS fresh_db")
        _rows(connect_gateway, writer, "USE fresh_db")
        _rows(connect_gateway, writer, "DROP TABLE IF EXISTS fresh_elsewhere")
        _rows(connect_gateway, writer, "CREATE TABLE fresh_elsewhere (x INT) USING parquet")
        _rows(connect_gateway, writer, "INSERT INTO fresh_elsewhere VALUES (1)")
        assert _rows(connect_gateway, reader, "SELECT count(*) FROM fresh_db.fresh_elsewhere") == [[1]]
        _rows(connect_gateway, writer, "INSERT INTO fresh_elsewhere VALUES (7), (8)")  # the writer's database
        assert _rows(connect_gateway, reader, "SELECT sum(x) FROM fresh_db.fresh_elsewhere") == [[16]]
        # the reader's own database has no such table: a REFRESH TABLE of the unqualified name would have failed
        assert _rows(connect_gateway, reader, "SELECT current_database()") == [["default"]]
