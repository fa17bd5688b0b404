"""Issue 27 item 5: CACHE TABLE t, then INSERT OVERWRITE t (from the same session or another) leaves t
readable, with the new rows, for every session; parquet and ORC. Real Spark, through the gateway."""
from __future__ import annotations

import itertools

import pytest

from conftest import run_all

_names = itertools.count()


def rows(gateway, session, statement):
    _, found, page = run_all(gateway, session, statement)
    assert page.exception is None, f"{statement}: {page.exception['root_cause'][:600]}"
    return found


@pytest.fixture
def other(gateway):
    handle = gateway.open_session(name="other")
    yield handle
    gateway.close_session(handle)


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
def test_a_cached_table_stays_readable_after_an_overwrite(gateway, session, other, fmt):
    """The caching session overwrites first, then another session does."""
    table = f"cached_overwrite_{fmt}_{next(_names)}"
    rows(gateway, session, f"CREATE TABLE {table} (id BIGINT) USING {fmt}")
    rows(gateway, session, f"INSERT INTO {table} VALUES (1), (2)")
    rows(gateway, session, f"CACHE TABLE {table}")
    assert rows(gateway, other, f"SELECT count(*) FROM {table}") == [[2]]
    rows(gateway, session, f"INSERT OVERWRITE {table} SELECT id + 10 FROM range(3)")
    for reader in (session, other):
        assert sorted(rows(gateway, reader, f"SELECT id FROM {table}")) == [[10], [11], [12]]
    # and again, once the cache has been rebuilt from the new files
    rows(gateway, other, f"INSERT OVERWRITE {table} SELECT id + 20 FROM range(2)")
    for reader in (session, other):
        assert sorted(rows(gateway, reader, f"SELECT id FROM {table}")) == [[20], [21]]
    rows(gateway, session, f"DROP TABLE {table}")
