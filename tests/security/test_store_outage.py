"""Issue 27 item 6: a PostgreSQL store outage loses no draft in the UI. Text typed while the store is down
stays in the browser session, with a warning, and is saved once it is back; a reload meanwhile shows a
clear message, not a traceback. A real PostgreSQL, stopped and started by the test; Streamlit AppTest."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import event
from gateway import GatewayService, LOCAL_USER
from gateway.rest.server import process_gateway
from gateway.store import WorkbenchStore
from postgres_server import PostgresServer

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def postgres():
    server = PostgresServer().start()
    yield server
    if server.pid is None:
        server.resume()
    server.stop()


@pytest.fixture
def app_gateway(gateway, config, postgres):
    """The process's gateway (the one app.py uses), its drafts in the PostgreSQL store for this test."""
    service = process_gateway(lambda: GatewayService(config))
    original = service.store
    service.store = WorkbenchStore(postgres.create_database(f"outage_{time.monotonic_ns()}"),
                                   config["store.max_text_chars"])
    yield service
    if postgres.pid is None:
        postgres.resume()
    service.store.close()
    service.store = original


def _warnings(at) -> str:
    return " ".join(str(w.value) for w in at.warning)


def _saved_text(service, tab_id: str) -> str:
    return next(t.text for t in service.list_tabs(LOCAL_USER) if t.tab_id == tab_id)


def test_a_draft_typed_during_an_outage_is_kept_and_saved_when_the_store_is_back(app_gateway, postgres):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    tab_id = at.session_state["active_tab"]
    event(at, action="change", text="SELECT 'before the outage'", tab=tab_id)
    assert _saved_text(app_gateway, tab_id) == "SELECT 'before the outage'"

    postgres.pause()
    typed = "SELECT 'typed while the store was down'"
    event(at, action="change", text=typed, tab=tab_id)
    assert at.session_state["unsaved_drafts"] == {tab_id: typed}
    assert "kept in this browser tab" in _warnings(at), _warnings(at)
    assert at.session_state["editor_text"] == typed

    # A reload meanwhile (a new browser session): a clear message, no traceback.
    reloaded = AppTest.from_file(APP, default_timeout=180)
    reloaded.query_params["tab"] = tab_id
    reloaded.run()
    assert not reloaded.exception, reloaded.exception
    assert "unavailable" in _warnings(reloaded) and "keep this tab open" in _warnings(reloaded), _warnings(reloaded)

    postgres.resume()
    at.run()   # the next rerun (any click or keystroke) saves what was kept
    assert not at.exception, at.exception
    assert _saved_text(app_gateway, tab_id) == typed
    assert at.session_state["unsaved_drafts"] == {}
    assert "kept in this browser tab" not in _warnings(at)


def test_a_draft_typed_after_a_reload_during_the_outage_becomes_a_tab(app_gateway, postgres):
    postgres.pause()
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    stand_in = at.session_state["active_tab"]
    event(at, action="change", text="SELECT 'written offline'", tab=stand_in)
    postgres.resume()
    at.run()
    assert not at.exception, at.exception
    texts = [t.text for t in app_gateway.list_tabs(LOCAL_USER)]
    assert "SELECT 'written offline'" in texts
    assert at.session_state["active_tab"] != stand_in
    assert at.session_state["editor_text"] == "SELECT 'written offline'"
