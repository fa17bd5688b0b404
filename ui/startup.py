"""Start-up: the editor takes typing while Spark starts (issue 14, item 8).

A cold Spark and metastore take 10-30 s. Instead of a spinner over an empty page, the process's
gateway is built in a thread (``GatewayStarter``) and the page draws the editor at once, completing
keywords from ``startup_completion_dictionary`` (no Spark needed). What is typed is kept in this
browser session; a Run pressed meanwhile is remembered, and as soon as the gateway is up the text goes
into the user's tab (``state.open_in_editor``, which never overwrites a draft) and runs.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional

import streamlit as st

from gateway import GatewayContract, startup_completion_dictionary

from . import state
from .sql_editor import sql_editor

STARTUP_EDITOR_KEY = "startup_editor"
TEXT_KEY = "startup_text"
RUN_KEY = "startup_run"
RUN_ACTIONS = ("run_all", "run_statement", "run_selection")
POLL_S = 0.5


class GatewayStarter:
    """Builds the process's gateway once, in a thread, so that pages can draw while Spark starts."""

    def __init__(self, build: Callable[[], GatewayContract]) -> None:
        self.started_at = time.monotonic()
        self.gateway: Optional[GatewayContract] = None
        self.error: Optional[BaseException] = None
        self._done = threading.Event()
        threading.Thread(target=self._build, args=(build,), name="gateway-starter", daemon=True).start()

    def _build(self, build: Callable[[], GatewayContract]) -> None:
        try:
            self.gateway = build()
        except BaseException as exc:  # noqa: BLE001 - shown on the page, which offers to try again
            self.error = exc
        finally:
            self._done.set()

    def wait(self, timeout_s: float) -> bool:
        """True once the build has ended (with the gateway or an error)."""
        return self._done.wait(timeout_s)

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started_at


def _workbench() -> None:
    """The one page of the navigation while no page can run yet (see ``no_navigation``)."""


def no_navigation() -> None:
    """While no page can run (Spark starting, the login form, a failed start): a hidden navigation of one
    page, so the sidebar lists no pages. Without it the browser kept the last navigation it was sent, which
    for a first visit was Streamlit's automatic one over the files in pages/ (``app, account, admin, …``)."""
    st.navigation([st.Page(_workbench, title="Spark SQL Workbench", default=True)], position="hidden")


def hand_over() -> None:
    """Once the gateway is up: what was typed during start-up goes to the editor (and runs if asked)."""
    text = st.session_state.pop(TEXT_KEY, None)
    run = st.session_state.pop(RUN_KEY, False)
    if text is not None and text.strip():
        state.open_in_editor(text, run=run)


def starting_page(starter: GatewayStarter) -> None:
    """The editor while Spark starts, as the one page of a hidden navigation (so the sidebar lists no pages);
    reruns the app when the gateway is up. Ends the script run."""
    def starting() -> None:
        _starting_editor(starter)
    st.navigation([st.Page(starting, title="SQL editor", default=True)], position="hidden").run()
    st.stop()


def _starting_editor(starter: GatewayStarter) -> None:
    st.title("SQL editor")
    value = st.session_state.get(STARTUP_EDITOR_KEY)
    seen = st.session_state.setdefault("startup_events_seen", [])
    for event in value.get("events", []) if isinstance(value, dict) else []:
        if not isinstance(event, dict) or event.get("id") in seen:
            continue
        seen.append(event.get("id"))
        if event.get("action") in ("change", "format", *RUN_ACTIONS) and isinstance(event.get("text"), str):
            st.session_state[TEXT_KEY] = event["text"]
        if event.get("action") in RUN_ACTIONS:
            st.session_state[RUN_KEY] = True
    del seen[:-50]
    waiting_run = st.session_state.get(RUN_KEY, False)
    st.info(f"Spark is starting ({starter.elapsed_s():.0f} s)… Type away: keywords complete now, tables and "
            f"functions once Spark is up. "
            + ("Your statement runs as soon as Spark is up." if waiting_run else "Run waits for Spark and starts then."),
            icon=":material/hourglass_top:")
    dictionary = startup_completion_dictionary()
    sql_editor(st.session_state.get(TEXT_KEY, state.DEFAULT_SQL), 0, dictionary=dictionary, dict_fp="startup",
               running=waiting_run, seen=seen[-10:], key=STARTUP_EDITOR_KEY)
    _wait_for_gateway(starter)


@st.fragment(run_every=POLL_S)
def _wait_for_gateway(starter: GatewayStarter) -> None:
    if starter.wait(0):
        st.rerun(scope="app")
