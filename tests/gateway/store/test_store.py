"""The workbench store on SQLite and on PostgreSQL (Debian's server, started by the tests): migrations
from empty, tabs, saved queries, the history's paging and search, concurrent writers from two
processes, and a store that is down. No Spark here: the store works without it."""
from __future__ import annotations

import datetime as dt
import itertools
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from gateway import (LOCAL_USER, ConfigurationError, InvalidRequestError, ObjectNotFoundError,
                     StoreUnavailableError)
from gateway.store import WorkbenchStore, default_url
from gateway.store.engine import make_engine
from gateway.store.migrate import current_revision, head_revision, upgrade
from gateway.store.schema import metadata
from gateway.store.store import RETRY_START_S
from postgres_server import free_port

ROOT = Path(__file__).resolve().parents[3]
_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """An empty database of each kind, new for each test."""
    if request.param == "sqlite":
        return default_url(tmp_path)
    return request.getfixturevalue("postgres_server").create_database(f"store_test_{next(_names)}")


@pytest.fixture
def store(store_url):
    opened = WorkbenchStore(store_url)
    yield opened
    opened.close()


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


# -- migrations ---------------------------------------------------------------------------------------

def test_migrations_build_the_schema_from_empty_and_match_the_tables_the_code_uses(store_url):
    assert _tables(store_url) == set()
    engine = make_engine(store_url)
    try:
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        assert {"users", "editor_tabs", "saved_queries", "query_history", "alembic_version"} <= \
            set(sa.inspect(engine).get_table_names())
        with engine.connect() as connection:  # what the migrations built is what schema.py declares
            differences = compare_metadata(MigrationContext.configure(connection), metadata)
        assert differences == [], differences
        upgrade(engine)  # at its head already: nothing to do, no error
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_two_processes_migrating_at_once_both_start(store_url):
    errors = []

    def start():
        try:
            WorkbenchStore(store_url).close()
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(2)]  # two engines, two connection pools
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    engine = make_engine(store_url)
    try:
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


# -- tabs -----------------------------------------------------------------------------------------------

def test_tabs_open_in_order_with_default_titles_and_keep_their_drafts(store, store_url):
    first = store.open_tab(LOCAL_USER)
    second = store.open_tab(LOCAL_USER, text="SELECT 1")
    named = store.open_tab(LOCAL_USER, title="  Revenue  ")
    assert [(t.title, t.position) for t in (first, second, named)] == [("Query 1", 0), ("Query 2", 1), ("Revenue", 2)]
    assert first.updated_at.tzinfo is not None
    saved = store.save_tab_text(LOCAL_USER, first.tab_id, "SELECT *\n-- a comment\nFROM t")
    assert saved.text == "SELECT *\n-- a comment\nFROM t" and saved.updated_at >= first.updated_at
    assert store.rename_tab(LOCAL_USER, second.tab_id, "Counts").title == "Counts"
    store.close()
    reopened = WorkbenchStore(store_url)  # a restart of the workbench: the drafts are still there
    try:
        tabs = reopened.list_tabs(LOCAL_USER)
        assert [(t.title, t.text, t.position) for t in tabs] == [
            ("Query 1", "SELECT *\n-- a comment\nFROM t", 0), ("Counts", "SELECT 1", 1), ("Revenue", "", 2)]
        assert reopened.open_tab(LOCAL_USER).title == "Query 2"  # one more than the highest "Query N" open
        assert reopened.list_tabs("someone else") == []
    finally:
        reopened.close()


def test_moving_and_closing_tabs_keeps_positions_contiguous(store):
    tabs = [store.open_tab(LOCAL_USER, title=name) for name in "ABCD"]
    order = store.move_tab(LOCAL_USER, tabs[3].tab_id, 0)
    assert [(t.title, t.position) for t in order] == [("D", 0), ("A", 1), ("B", 2), ("C", 3)]
    order = store.move_tab(LOCAL_USER, tabs[3].tab_id, 3)
    assert [t.title for t in order] == ["A", "B", "C", "D"]
    store.close_tab(LOCAL_USER, tabs[1].tab_id)
    assert [(t.title, t.position) for t in store.list_tabs(LOCAL_USER)] == [("A", 0), ("C", 1), ("D", 2)]
    assert store.open_tab(LOCAL_USER, title="E").position == 3


def test_tab_calls_refuse_unknown_ids_and_bad_values_and_change_nothing(store):
    tab = store.open_tab(LOCAL_USER, text="keep me")
    other = store.open_tab("bob")
    for call in (lambda: store.save_tab_text(LOCAL_USER, "no-such-tab", "x"),
                 lambda: store.rename_tab(LOCAL_USER, other.tab_id, "mine now"),  # another user's tab
                 lambda: store.move_tab(LOCAL_USER, "no-such-tab", 0),
                 lambda: store.close_tab(LOCAL_USER, other.tab_id)):
        with pytest.raises(ObjectNotFoundError, match="does not exist for user 'local'") as caught:
            call()
        assert caught.value.http_status == 404
    bad = {
        "tab title is empty": lambda: store.rename_tab(LOCAL_USER, tab.tab_id, "   "),
        "more than the 200 allowed": lambda: store.open_tab(LOCAL_USER, title="t" * 201),
        "more than the 1,000,000 allowed": lambda: store.save_tab_text(LOCAL_USER, tab.tab_id, "x" * 1_000_001),
        "NUL character": lambda: store.save_tab_text(LOCAL_USER, tab.tab_id, "SELECT '\x00'"),
        "tab id contains a NUL": lambda: store.close_tab(LOCAL_USER, "a\x00b"),
        "lone surrogate": lambda: store.open_tab(LOCAL_USER, text="SELECT '\ud800'"),
        "must be text": lambda: store.save_tab_text(LOCAL_USER, tab.tab_id, None),
        "give 0 to 0": lambda: store.move_tab(LOCAL_USER, tab.tab_id, 1),
        "whole number": lambda: store.move_tab(LOCAL_USER, tab.tab_id, True),
        "user name is empty": lambda: store.list_tabs(""),
    }
    for message, call in bad.items():
        with pytest.raises(InvalidRequestError, match=message) as caught:
            call()
        assert caught.value.http_status == 400
    assert [(t.tab_id, t.text, t.title) for t in store.list_tabs(LOCAL_USER)] == [(tab.tab_id, "keep me", "Query 1")]
    assert [t.tab_id for t in store.list_tabs("bob")] == [other.tab_id]


_OPEN_TABS_ELSEWHERE = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from gateway.store import WorkbenchStore
    store = WorkbenchStore({url!r})
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range({count}):
        store.open_tab("local", title=f"other {{i}}")
    store.close()
""")


def test_two_processes_opening_tabs_at_once_get_distinct_contiguous_positions(store_url):
    here = WorkbenchStore(store_url)
    count = 25
    script = _OPEN_TABS_ELSEWHERE.format(root=str(ROOT), url=store_url, count=count)
    child = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        child.stdin.write("go\n")
        child.stdin.flush()
        for i in range(count):
            here.open_tab(LOCAL_USER, title=f"here {i}")
        assert child.wait(120) == 0, child.stderr.read()
        tabs = here.list_tabs(LOCAL_USER)
        assert [t.position for t in tabs] == list(range(2 * count))
        assert len({t.tab_id for t in tabs}) == 2 * count
        assert sum(t.title.startswith("other") for t in tabs) == count
        # each process's own tabs stay in the order it opened them
        assert [t.title for t in tabs if t.title.startswith("here")] == [f"here {i}" for i in range(count)]
    finally:
        if child.poll() is None:
            child.kill()
        here.close()


# -- saved queries -------------------------------------------------------------------------------------

def test_saved_queries_are_created_updated_searched_and_deleted(store):
    revenue = store.save_query(LOCAL_USER, "Revenue by country", "SELECT country, sum(amount) FROM orders GROUP BY 1",
                               "monthly report")
    store.save_query(LOCAL_USER, "active users", "SELECT count(*) FROM users WHERE active", "")
    store.save_query(LOCAL_USER, "Percent", "SELECT 100 * a / b AS pct_done FROM progress", "50% done")
    store.save_query("bob", "Bob's revenue", "SELECT 1", "")
    assert [q.name for q in store.list_saved_queries(LOCAL_USER)] == ["active users", "Percent", "Revenue by country"]
    assert [q.name for q in store.list_saved_queries(LOCAL_USER, "REVENUE")] == ["Revenue by country"]  # name
    assert [q.name for q in store.list_saved_queries(LOCAL_USER, "Monthly")] == ["Revenue by country"]  # description
    assert [q.name for q in store.list_saved_queries(LOCAL_USER, "where ACTIVE")] == ["active users"]  # text
    assert [q.name for q in store.list_saved_queries(LOCAL_USER, "50%")] == ["Percent"]  # % is a character
    assert [q.name for q in store.list_saved_queries(LOCAL_USER, "y_c")] == []  # _ too: "by country" has no y_c
    assert [q.name for q in store.list_saved_queries(LOCAL_USER, "pct_done")] == ["Percent"]

    updated = store.save_query(LOCAL_USER, "Revenue", "SELECT 2", "changed", query_id=revenue.query_id)
    assert (updated.query_id, updated.name, updated.text, updated.description) == \
        (revenue.query_id, "Revenue", "SELECT 2", "changed")
    assert updated.created_at == revenue.created_at and updated.updated_at >= revenue.updated_at
    assert store.get_saved_query(LOCAL_USER, revenue.query_id) == updated

    store.delete_saved_query(LOCAL_USER, revenue.query_id)
    for call in (lambda: store.get_saved_query(LOCAL_USER, revenue.query_id),
                 lambda: store.delete_saved_query(LOCAL_USER, revenue.query_id),
                 lambda: store.save_query(LOCAL_USER, "x", "SELECT 1", query_id=revenue.query_id)):
        with pytest.raises(ObjectNotFoundError, match="saved query .* does not exist for user 'local'"):
            call()
    bob = store.list_saved_queries("bob")[0]
    with pytest.raises(ObjectNotFoundError):  # another user's query is not ours to read
        store.get_saved_query(LOCAL_USER, bob.query_id)
    with pytest.raises(InvalidRequestError, match="query name is empty"):
        store.save_query(LOCAL_USER, " ", "SELECT 1")
    with pytest.raises(InvalidRequestError, match="query text has 1,000,001 characters"):
        store.save_query(LOCAL_USER, "big", "x" * 1_000_001)
    assert len(store.list_saved_queries(LOCAL_USER)) == 2


# -- history ------------------------------------------------------------------------------------------------

def _record(store, count: int, user: str = LOCAL_USER) -> None:
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    for i in range(count):
        key = object()
        store.recorder.started(key, user, "session-1", f"op-{i}", f"SELECT {i} AS n{'_even' if i % 2 == 0 else ''}",
                               start + dt.timedelta(seconds=i))
        store.recorder.ended(key, "FINISHED", 10 + i, None)
        store.recorder.through(key, {"rows": 1})
    assert store.recorder.flush(30)


def test_history_pages_back_from_the_newest_and_searches_the_statement(store):
    _record(store, 25)
    _record(store, 3, user="bob")
    first = store.list_history(LOCAL_USER, limit=10)
    assert [e.statement.split()[1] for e in first] == [str(i) for i in range(24, 14, -1)]
    assert first[0].status == "FINISHED" and first[0].rows == 1 and first[0].duration_ms == 34
    assert first[0].started_at == dt.datetime(2026, 1, 1, 0, 0, 24, tzinfo=dt.timezone.utc)
    pages, before = [first], first[-1].entry_id
    while True:
        page = store.list_history(LOCAL_USER, limit=10, before_id=before)
        if not page:
            break
        pages.append(page)
        before = page[-1].entry_id
    assert [len(p) for p in pages] == [10, 10, 5]
    ids = [e.entry_id for p in pages for e in p]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 25
    assert {e.user for p in pages for e in p} == {LOCAL_USER}
    even = store.list_history(LOCAL_USER, search="N_EVEN", limit=100)
    assert len(even) == 13 and all(e.statement.endswith("_even") for e in even)
    for bad, message in (({"limit": 0}, "limit must be a whole number from 1 to 1000"),
                         ({"limit": 1001}, "from 1 to 1000"), ({"before_id": "x"}, "before_id must be"),
                         ({"before_id": 2 ** 63}, "before_id must be")):
        with pytest.raises(InvalidRequestError, match=message):
            store.list_history(LOCAL_USER, **bad)


# -- a store that is down ---------------------------------------------------------------------------------

def test_a_store_that_cannot_be_reached_says_so_and_does_not_stop_the_start(caplog):
    url = f"postgresql+psycopg://nobody@127.0.0.1:{free_port()}/nothing"  # nothing listens there
    with caplog.at_level("ERROR", logger="gateway.store.store"):
        store = WorkbenchStore(url)
    try:
        assert store.status()["state"].startswith("unavailable: OperationalError")
        assert any("is unavailable" in r.getMessage() for r in caplog.records)
        with pytest.raises(StoreUnavailableError, match=r"workbench store at postgresql\+psycopg://nobody@127") as caught:
            store.list_tabs(LOCAL_USER)
        assert caught.value.http_status == 503
        key = object()
        store.recorder.started(key, LOCAL_USER, "s", "o", "SELECT 1", dt.datetime.now(dt.timezone.utc))
        assert store.recorder.flush(60)
        assert store.status()["history_lost"] == 1  # counted, not hidden
    finally:
        store.close()


def test_a_store_that_was_down_at_start_is_used_once_it_is_back(postgres_server):
    url = postgres_server.url("created_later")  # the server runs, the database is not there yet
    store = WorkbenchStore(url)
    try:
        with pytest.raises(StoreUnavailableError, match="created_later"):
            store.open_tab(LOCAL_USER)
        postgres_server.create_database("created_later")
        store._last_attempt -= RETRY_START_S  # as if the retry pause had passed
        assert store.open_tab(LOCAL_USER).title == "Query 1"  # migrated on this call, then written
        assert store.status()["state"] == "available"
    finally:
        store.close()


@pytest.mark.parametrize("url, message", [
    ("not a url", "is not a database URL"),
    ("mysql://u@127.0.0.1/db", "runs on SQLite or PostgreSQL, not mysql"),
    ("sqlite://", "in-memory SQLite store would lose every draft"),
])
def test_a_wrong_store_url_stops_the_start_with_what_to_do(url, message):
    with pytest.raises(ConfigurationError, match=message):
        make_engine(url)
