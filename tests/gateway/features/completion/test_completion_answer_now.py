"""The editor's requests (``wait: false``, through ``complete_with_credential``) answer from what is known: a
table whose columns are not known yet costs the request no catalog call and no wait for a load another thread
is making; its columns load in the background, the answer's ``loading`` names it, and the next request has them.
REST's requests (``wait`` absent) still wait for them. A missing table costs one catalog lookup, not two.

Counted on the session's real completion cache over a real catalog (``request_loads``: catalog calls made while
answering, ``request_waits``: answers that waited for a load, ``column_lookups``); no timing is asserted.
"""
from __future__ import annotations

import pytest
from conftest import run_all

from gateway import InvalidRequestError
from gateway.features.completion import completer


@pytest.fixture(scope="module")
def answer_now_db(gateway):
    setup = gateway.open_session(name="answer-now-setup")
    for statement in ("CREATE DATABASE IF NOT EXISTS answer_now_db",
                      "CREATE TABLE IF NOT EXISTS answer_now_db.an_orders (an_id BIGINT, an_amount DOUBLE, "
                      "an_ship STRUCT<an_city: STRING>) USING parquet",
                      "CREATE TABLE IF NOT EXISTS answer_now_db.an_other (an_other_col STRING) USING parquet"):
        gateway.configure_session(setup, statement)
    assert gateway.feature("completion").wait_fresh(60)
    yield setup
    gateway.close_session(setup)


@pytest.fixture(autouse=True)
def no_wait_for_loads(monkeypatch):
    """The answers below say "loading" however quick the catalog is: no wait for a load under way (one test
    sets a wait of its own)."""
    monkeypatch.setattr(completer, "ANSWER_WAIT_S", 0.0)


@pytest.fixture()
def editor(gateway, answer_now_db):
    """A new session in answer_now_db (its completion cache knows no columns yet), its cache, and a function
    that asks as the editor does (``wait: false``, the editor's credential)."""
    handle = gateway.open_session(name="answer-now")
    gateway.configure_session(handle, "USE answer_now_db")
    cache = gateway.feature("completion").completer.cache(gateway.session(handle))
    token = gateway.completion_credential(handle)["token"]

    def ask(statement: str, position: int = None, **extra) -> dict:
        request = {"statement": statement, "position": len(statement) if position is None else position,
                   "details": True, "wait": False, **extra}
        return gateway.complete_with_credential(token, handle, request)

    yield handle, cache, ask
    gateway.close_session(handle)


def test_a_dot_over_a_table_not_known_yet_answers_at_once_and_loads_in_the_background(editor):
    handle, cache, ask = editor
    loads, waits = cache.request_loads, cache.request_waits
    statement = "SELECT o. FROM an_orders o"
    first = ask(statement, 9)
    assert first["loading"] == ["an_orders"]
    assert "an_id" not in first["candidates"]
    assert cache.request_loads == loads and cache.request_waits == waits   # no catalog call, no wait
    assert cache.wait_prefetched(60)
    second = ask(statement, 9)
    assert "loading" not in second
    assert set(second["candidates"]) == {"an_id", "an_amount", "an_ship"}
    assert ask("SELECT o.an_ship. FROM an_orders o", 17)["candidates"] == ["an_city"]
    assert cache.request_loads == loads and cache.request_waits == waits


def test_a_dot_over_a_table_whose_columns_are_loading_waits_a_moment_for_that_load(editor, monkeypatch):
    """The cold ``t.``: within ``ANSWER_WAIT_S`` the background load's columns are the answer (one round trip for
    the editor, not two); the request itself still makes no catalog call."""
    monkeypatch.setattr(completer, "ANSWER_WAIT_S", 60.0)   # a bound this catalog meets however loaded the machine
    handle, cache, ask = editor
    loads, waited = cache.request_loads, cache.answered_waiting
    first = ask("SELECT w. FROM an_orders w", 9)
    assert "loading" not in first
    assert set(first["candidates"]) == {"an_id", "an_amount", "an_ship"}
    assert cache.request_loads == loads and cache.answered_waiting == waited + 1


def test_an_expression_popup_answers_without_columns_still_loading(editor):
    """``SELECT o|`` with the table not known: functions, keywords and the alias now; the columns next time."""
    handle, cache, ask = editor
    ask("SELECT 1 + ")   # the session's functions (a first use, loaded once a session; the editor warms them)
    loads, waits = cache.request_loads, cache.request_waits
    first = ask("SELECT an FROM an_other x", 9)
    assert first["loading"] == ["an_other"]
    assert "an_other_col" not in first["candidates"] and "and" in [c.lower() for c in first["candidates"]]
    assert cache.request_loads == loads and cache.request_waits == waits
    assert cache.wait_prefetched(60)
    second = ask("SELECT an FROM an_other x", 9)
    assert "loading" not in second and second["candidates"][0] == "an_other_col"


def test_rest_requests_still_wait_for_the_columns(gateway, editor):
    handle, cache, _ = editor
    found = [c.value for c in gateway.complete_candidates(handle, "SELECT o. FROM an_orders o", 9)]
    assert set(found) == {"an_id", "an_amount", "an_ship"}
    assert cache.request_loads + cache.request_waits >= 1


def test_wait_must_be_true_or_false(editor):
    _, _, ask = editor
    with pytest.raises(InvalidRequestError, match="wait is true"):
        ask("SELECT ", wait="no")


def test_a_missing_table_costs_one_lookup(gateway, editor):
    handle, cache, _ = editor
    lookups = cache.column_lookups
    assert cache.column_infos("an_no_such_table") is None
    assert cache.column_lookups == lookups + 1
    # And the answer over it is still an answer (no columns), for REST as for the editor.
    found = gateway.complete_candidates(handle, "SELECT m. FROM an_no_such_table_2 m", 9)
    assert [c for c in found if c.kind == "column"] == []
    assert cache.column_lookups == lookups + 2


def test_a_table_made_by_ctas_in_the_session_has_its_columns_after_loading(gateway, editor):
    """A CTAS names no columns in its text: the first answer says it is loading, a later one has them."""
    handle, cache, ask = editor
    ctas = "CREATE TABLE an_ctas USING parquet AS SELECT 1 AS an_loaded_col, 'x' AS an_col2"
    for end in range(1, len(ctas) + 1):   # typed key by key first: the editor asks on the way
        ask(ctas[:end])
    assert cache.wait_prefetched(60)
    run_all(gateway, handle, ctas)
    statement = "SELECT u.FROM an_ctas u"   # the dot right before FROM, as typed after Home in the editor
    first = ask(statement, 9)
    assert first.get("loading") == ["an_ctas"], first
    assert cache.wait_prefetched(60)
    second = ask(statement, 9)
    assert set(second["candidates"]) == {"an_loaded_col", "an_col2"}, (second, cache._columns.get("an_ctas"))


def test_a_ctas_table_asked_for_while_the_ctas_runs_has_its_columns_once_it_ran(gateway, editor):
    """The editor asks on every keystroke and again while an answer is loading, so requests come while the CTAS
    runs (its table not there yet): no answer after the run may be a final "no columns"."""
    from gateway import OperationStatus
    handle, cache, ask = editor
    ctas = "CREATE TABLE an_ctas_during USING parquet AS SELECT 1 AS an_during_col, 'x' AS an_during_2"
    statement = "SELECT u. FROM an_ctas_during u"
    for end in range(1, len(ctas) + 1, 7):
        ask(ctas[:end])
    ask(statement, 9)
    assert cache.wait_prefetched(60)
    op = gateway.execute_statement(handle, ctas)
    asked = 0
    while gateway.get_operation_info(handle, op).status not in (OperationStatus.FINISHED, OperationStatus.ERROR):
        ask(ctas)
        ask(statement, 9)
        cache.wait_prefetched(60)
        asked += 1
    assert gateway.get_operation_info(handle, op).status == OperationStatus.FINISHED
    gateway.close_operation(handle, op)
    first = ask(statement, 9)
    assert first.get("loading") == ["an_ctas_during"] or \
        {"an_during_col", "an_during_2"} <= set(first["candidates"]), (asked, first, cache._columns.get("an_ctas_during"))
    assert cache.wait_prefetched(60)
    second = ask(statement, 9)
    assert {"an_during_col", "an_during_2"} <= set(second["candidates"]), second
