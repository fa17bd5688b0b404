"""The first-run path (issue 31, item 5): the "Current database" caption follows a USE at once, and the
sample query works in a session that did not create the sample database (a new browser's)."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_all
from ui.first_run import SAMPLE_QUERY

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _caption(at) -> str:
    return next((str(c.value) for c in at.caption if "Current database" in str(c.value)), "")


def _page_where_a_use_ends_after_the_caption():
    """The editor page's order in one script run: the caption, then a statement (here a USE) that ends
    while its result is drawn, which then tells the state that a statement ended (as results.py does)."""
    import streamlit as st
    from ui import first_run, state

    first_run.context_caption(state.gateway(), state.handle())
    if not st.session_state.get("used"):
        st.session_state.used = True
        state.gateway().execute_statement(state.handle(), "USE polish_caption_db")
        import time
        deadline = time.monotonic() + 60
        while state.gateway().get_current_database(state.handle()) != "polish_caption_db" and time.monotonic() < deadline:
            time.sleep(0.05)
    state.bump_schema_generation()


def test_current_database_caption_follows_a_use_that_ends_after_it_was_drawn(gateway, session):
    run_all(gateway, session, "CREATE DATABASE IF NOT EXISTS polish_caption_db")
    page_session = gateway.open_session(name="caption")
    try:
        at = AppTest.from_function(_page_where_a_use_ends_after_the_caption, default_timeout=120)
        at.session_state["gateway"] = gateway
        at.session_state["session_handle"] = str(page_session)
        at.run()
        assert not at.exception, at.exception
        assert gateway.get_current_database(page_session) == "polish_caption_db"
        assert "polish_caption_db" in _caption(at), _caption(at)
    finally:
        gateway.close_session(page_session)


def test_sample_query_works_in_a_session_that_did_not_create_the_sample_database(gateway, session):
    gateway.create_sample_database(session)
    other = gateway.open_session(name="another browser")
    try:
        assert gateway.get_current_database(other) != "sample"
        columns, rows, page = run_all(gateway, other, SAMPLE_QUERY)
        assert page.exception is None, page.exception
        assert [c.name for c in columns] == ["country", "orders", "revenue"]
        assert sorted(row[0] for row in rows) == ["BR", "DE", "FR", "JP", "US"]
    finally:
        gateway.close_session(other)
