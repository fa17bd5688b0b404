"""Prefetch: the columns of the tables a statement names are loaded in the background as soon as a
completion request sees them in FROM or JOIN, so that the ``t.`` typed next costs no catalog round trip.

Counted on the session's real completion cache over a real catalog: ``request_loads`` (catalog calls made
while answering), ``prefetch_loads`` (made in the background), ``request_waits`` (answers that waited for a
load already running). No timing is asserted.
"""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def prefetch_db(gateway):
    setup = gateway.open_session(name="prefetch-setup")
    for statement in ("CREATE DATABASE IF NOT EXISTS prefetch_db",
                      "CREATE TABLE IF NOT EXISTS prefetch_db.pf_orders (order_id BIGINT, pf_amount DECIMAL(10,2), "
                      "pf_ship STRUCT<city: STRING>) USING parquet",
                      "CREATE TABLE IF NOT EXISTS prefetch_db.pf_other (other_col STRING) USING parquet",
                      "CREATE TABLE IF NOT EXISTS prefetch_db.pf_third (third_col INT) USING parquet",
                      "CREATE TABLE IF NOT EXISTS prefetch_db.pf_fourth (fourth_col INT) USING parquet"):
        gateway.configure_session(setup, statement)
    assert gateway.feature("completion").wait_fresh(60)
    yield setup
    gateway.close_session(setup)


@pytest.fixture()
def fresh(gateway, prefetch_db):
    """A new session (its completion cache knows no columns yet) in prefetch_db, and that cache."""
    handle = gateway.open_session(name="prefetch")
    gateway.configure_session(handle, "USE prefetch_db")
    cache = gateway.feature("completion").completer.cache(gateway.session(handle))
    yield handle, cache
    gateway.close_session(handle)


def values(gateway, handle, statement, position=None):
    position = len(statement) if position is None else position
    return [c.value for c in gateway.complete_candidates(handle, statement, position)]


def test_a_table_named_in_from_has_its_columns_known_before_the_dot(gateway, fresh):
    handle, cache = fresh
    loads, prefetched = cache.request_loads, cache.prefetch_loads
    # Typing the alias after the table's name: the answer (keywords) needs no columns; the table is named.
    values(gateway, handle, "SELECT * FROM pf_orders o ")
    assert cache.wait_prefetched(60)
    assert cache.prefetch_loads == prefetched + 1 and cache.request_loads == loads
    found = values(gateway, handle, "SELECT * FROM pf_orders o WHERE o.")
    assert found[:3] == ["order_id", "pf_amount", "pf_ship"]
    assert values(gateway, handle, "SELECT o.pf_ship. FROM pf_orders o", 17) == ["city"]
    assert cache.request_loads == loads and cache.request_waits == 0  # the dots asked the catalog nothing
    # The control: a table no earlier request named costs its dot a catalog call that the request waits for
    # (made by the request itself, or by the prefetch that same request started).
    assert values(gateway, handle, "SELECT x. FROM pf_other x", 9) == ["other_col"]
    assert cache.request_loads + cache.request_waits == loads + 1


def test_a_statement_that_does_not_parse_and_joins_are_prefetched_too(gateway, fresh):
    handle, cache = fresh
    values(gateway, handle, "SELECT  FROM pf_third a JOIN prefetch_db.pf_fourth b ON (", 0)  # no parse at 0
    assert cache.wait_prefetched(60)
    loads = cache.request_loads
    assert values(gateway, handle, "SELECT a. FROM pf_third a JOIN prefetch_db.pf_fourth b", 9) == ["third_col"]
    assert values(gateway, handle, "SELECT b. FROM pf_third a JOIN prefetch_db.pf_fourth b", 9) == ["fourth_col"]
    assert cache.request_loads == loads


def test_a_cte_name_is_not_prefetched_as_a_table(gateway, fresh):
    handle, cache = fresh
    values(gateway, handle, "WITH pf_cte AS (SELECT * FROM pf_orders) SELECT  FROM pf_cte", 49)
    assert cache.wait_prefetched(60)
    assert "pf_cte" not in cache._columns and "pf_orders" in cache._columns  # noqa: SLF001


def test_a_dot_right_after_the_first_mention_costs_one_catalog_call_in_all(gateway, fresh):
    """Whether the prefetch has finished, is running or has not started when the dot comes, the table's
    columns are asked of the catalog once: a request never loads what another thread is loading."""
    handle, cache = fresh
    before = cache.request_loads + cache.prefetch_loads
    values(gateway, handle, "SELECT * FROM pf_other t ")
    assert values(gateway, handle, "SELECT t. FROM pf_other t", 9) == ["other_col"]
    assert cache.wait_prefetched(60)
    assert cache.request_loads + cache.prefetch_loads == before + 1


def test_ddl_after_a_prefetch_shows_in_the_next_request(gateway, fresh, prefetch_db):
    handle, cache = fresh
    gateway.configure_session(prefetch_db, "CREATE TABLE prefetch_db.pf_altered (first_col INT) USING parquet")
    try:
        values(gateway, handle, "SELECT * FROM pf_altered t ")
        assert cache.wait_prefetched(60)
        assert values(gateway, handle, "SELECT t. FROM pf_altered t", 9) == ["first_col"]
        gateway.configure_session(prefetch_db, "ALTER TABLE prefetch_db.pf_altered ADD COLUMNS (added_col STRING)")
        assert values(gateway, handle, "SELECT t. FROM pf_altered t", 9) == ["added_col", "first_col"]
        gateway.configure_session(prefetch_db, "DROP TABLE prefetch_db.pf_altered")
        assert values(gateway, handle, "SELECT t. FROM pf_altered t", 9) == []
        assert gateway.feature("completion").wait_fresh(60)
        assert values(gateway, handle, "SELECT t. FROM pf_altered t", 9) == []
    finally:
        gateway.configure_session(prefetch_db, "DROP TABLE IF EXISTS prefetch_db.pf_altered")


def test_the_latest_request_s_tables_replace_those_still_queued(gateway, fresh):
    """Typing ``FROM pf_oth…`` names a table per key (``pf_o``, ``pf_ot``, …: none exists); the table finally
    typed must not wait behind their lookups. Queued with the cache's lock held, so the background worker
    takes nothing before the second request's names replace the first's."""
    handle, cache = fresh
    with cache._lock:   # noqa: SLF001 - the worker starts, and waits for this lock before it takes a name
        cache.prefetch_columns(["pf_o", "pf_ot", "pf_oth"])
        cache.prefetch_columns(["pf_other"], latest=True)
    assert cache.wait_prefetched(60)
    assert [c.name for c in cache._columns["pf_other"]] == ["other_col"]   # noqa: SLF001
    assert not {"pf_o", "pf_ot", "pf_oth"} & set(cache._columns)           # noqa: SLF001 - never looked up


def test_the_editor_s_prefetch_request_loads_the_named_tables_columns_ahead(gateway, fresh):
    """``{"prefetch": [names]}`` (the editor saw the names typed after FROM): no candidates, no catalog call made
    or waited for on the request; the columns load in the background, and the dot then costs the catalog nothing."""
    handle, cache = fresh
    token = gateway.completion_credential(handle)["token"]
    loads, waits = cache.request_loads, cache.request_waits
    answer = gateway.complete_with_credential(token, handle, {"prefetch": ["pf_orders", "prefetch_db.pf_third"]})
    assert answer["candidates"] == [] and answer["loading"] == ["pf_orders", "prefetch_db.pf_third"]
    assert cache.wait_prefetched(60)
    assert cache.columns_not_known(["pf_orders", "prefetch_db.pf_third"]) == []
    again = gateway.complete_with_credential(token, handle, {"prefetch": ["pf_orders"]})
    assert "loading" not in again   # known now: nothing to load
    dot = gateway.complete_with_credential(token, handle, {"statement": "SELECT o. FROM pf_orders o", "position": 9,
                                                           "details": False, "wait": False})
    assert dot["candidates"][:3] == ["order_id", "pf_amount", "pf_ship"] and "loading" not in dot
    assert cache.request_loads == loads and cache.request_waits == waits


@pytest.mark.parametrize("bad", [[], "pf_orders", [""], [3], ["t"] * 17])
def test_a_prefetch_that_is_not_a_short_list_of_names_is_refused(gateway, fresh, bad):
    from gateway import InvalidRequestError
    handle, _ = fresh
    token = gateway.completion_credential(handle)["token"]
    with pytest.raises(InvalidRequestError, match="prefetch is a list of 1 to 16 table names"):
        gateway.complete_with_credential(token, handle, {"prefetch": bad})


def test_the_first_column_lookup_is_warmed_once_the_dictionary_is_built(gateway, fresh):
    """The session's first lookup of a table's columns is made once in the background after its listing (the
    metastore client's first lookup is the slow one), its answer neither kept nor counted; once per cache."""
    handle, cache = fresh
    lookups, columns = cache.column_lookups, cache.columns_not_known(["pf_orders", "pf_other", "pf_third"])
    gateway.completion_dictionary(handle)
    assert cache.warm_column_lookup() is None   # the dictionary started it already: not again
    assert cache.column_lookups == lookups
    assert cache.columns_not_known(["pf_orders", "pf_other", "pf_third"]) == columns
