"""The editor and what its events do: run all, selection or statement at cursor, format, complete."""
from __future__ import annotations

import hashlib
import json
import functools
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Callable, Optional
from urllib.parse import urlsplit

import streamlit as st

from gateway import GatewayError

from . import completion_route, downloads, first_run, history, parameters, results, script_results, state, tabs
from .runs import DISPLAY_LIMITS, HistoryEntry, Run, spool_dir, start_run
from .sql_editor import sql_editor

log = logging.getLogger(__name__)

EDITOR_KEY = "sql_editor"
MAX_CANDIDATES = 3_000
QUICK_WAIT_S = 0.5   # a quick statement's result shows in the same rerun, without polling


def statement_at(gateway, text: str, cursor: int) -> tuple[str, int]:
    """The statement under the cursor (or the last one before it) and its offset in ``text``."""
    statements = gateway.split_statements(text)
    chosen = statements[0]
    for statement in statements:
        if statement.offset <= cursor:
            chosen = statement
    return chosen.text, chosen.offset


def markers_for(run: Optional[Run], text: str) -> list[dict]:
    """The error position of the last run, in editor rows and columns, while the text is unchanged."""
    if run is None or not run.error or run.error.get("line") is None or run.editor_text != text:
        return []
    before = text[:run.offset]
    base_row, base_col = before.count("\n"), run.offset - (before.rfind("\n") + 1)
    line, position = int(run.error["line"]), int(run.error.get("position") or 0)
    row = base_row + line - 1
    column = position + (base_col if line == 1 else 0)
    return [{"row": row, "column": column, "text": f"{run.error.get('error_class') or 'Error'}: "
                                                   f"{run.error.get('root_cause', '')[:300]}"}]


def launch(gateway, session, sql: str, offset: int, editor_text: str,
           meanwhile: Optional[Callable[[], None]] = None) -> Optional[Run]:
    """Run ``sql`` in the active tab (each tab has its own run; another tab's run goes on).

    The statement is submitted first; what a click on Run also does (closing the tab's last run, the history
    entry, the downloads' name, ``meanwhile``: the draft's save) happens while Spark runs it, before the short wait for its
    first page, not before the submit (a store write under load took 170-280 ms of click-to-row)."""
    tab_id = st.session_state.get(tabs.ACTIVE_KEY)
    current: Optional[Run] = tabs.runs().get(tab_id) if tab_id else st.session_state.get("current_run")
    if current is not None and not current.finished:
        st.toast("A statement is still running in this tab: wait for it, press Cancel, or open a new tab.",
                 icon=":material/hourglass_top:")
        return None
    if not sql.strip():
        st.toast("Nothing to run: type a statement, or select some text for Run selection.", icon=":material/edit:")
        return None
    limit = st.session_state.get("display_limit", DISPLAY_LIMITS[0])
    # A single statement without markers takes neither: the same one call as before.
    values = parameters.values_for(gateway, tab_id, sql)
    run = start_run(gateway, session, sql, offset, editor_text, limit, _spool_dir(gateway), parameters=values,
                    script=script_results.reader_for(gateway, sql, limit))
    if current is not None and current.spool is not None:
        current.spool.discard()   # the last run's operation and files, closed while Spark runs this one
    if meanwhile is not None:
        meanwhile()
    run.name = _download_name(gateway, tab_id, sql)
    entry = HistoryEntry(state.next_history_id(), sql, time.time(), parameters=values)
    run.history_id = entry.id
    state.history().append(entry)
    st.session_state.current_run = run
    if tab_id:
        tabs.set_run(tab_id, run)
    st.session_state.pop("grid_page", None)
    if run.spool is not None:
        run.spool.first_page.wait(QUICK_WAIT_S)
        if run.spool.first_page.is_set():
            run.spool.done.wait(0.3)
    return run


SPOOL_DIR_KEY = "ui_spool_dir"


def _spool_dir(gateway) -> Optional[str]:
    """Where this browser session's downloads go, looked up once (``spool_dir`` asks the gateway and makes it)."""
    if SPOOL_DIR_KEY not in st.session_state:
        st.session_state[SPOOL_DIR_KEY] = spool_dir(gateway)
    return st.session_state[SPOOL_DIR_KEY]


def _download_name(gateway, tab_id: Optional[str], sql: str) -> str:
    """The downloads' name: the tab's saved query, else the tab's own title, else the statement's first words."""
    saved_name = title = None
    saved_id = st.session_state.get("tab_saved_query", {}).get(tab_id) if tab_id else None
    try:
        if saved_id:
            saved_name = gateway.get_saved_query(tabs.user(), saved_id).name
        if tab_id:
            title = next((t.title for t in gateway.list_tabs(tabs.user()) if t.tab_id == tab_id), None)
    except GatewayError:
        pass  # a deleted saved query or closed tab: the statement names the file
    return downloads.query_name(sql, title, saved_name)


def _handle(gateway, session, event: dict) -> Optional[dict]:
    """Act on one editor event; returns a completion answer for the component, if any."""
    action, text = event.get("action"), event.get("text", "")
    if action == "dictionary":
        return None  # the component holds the dictionary with this fingerprint (value["dict_fp"])
    if action == "columns":
        tables = [t for t in event.get("tables") or [] if isinstance(t, str)][:50]
        try:
            columns = gateway.completion_dictionary(session, tables)["columns"]
        except GatewayError:
            columns = {t: None for t in tables}
        st.session_state.columns_answer = {"id": event["id"], "columns": columns}
        return None
    if action == "complete":
        if event.get("direct_failed"):
            # The direct path refused or failed (the component says why in its toolbar and console): a fresh
            # credential goes with this rerun's render, in case the held one expired or is void.
            log.warning("SQL editor: direct completion failed (%s); answered through a rerun",
                        str(event["direct_failed"])[:300])
            st.session_state.pop(CREDENTIAL_KEY, None)
        try:
            found = gateway.complete_candidates(session, text, int(event.get("cursor", len(text))))
        except GatewayError:
            found = []
        return {"id": event["id"], "items": [c.to_json() for c in found[:MAX_CANDIDATES]]}
    active = st.session_state.get(tabs.ACTIVE_KEY)
    tab_id = event.get("tab") or active
    save_draft = functools.partial(tabs.save_text, gateway, tab_id, text)   # the draft, saved as the user types
    if action in ("change", "format") or (tab_id != active and action in RERUN_PAGE):
        save_draft()                            # a run's draft is saved once its statement is submitted
    if tab_id != active:
        return None                             # the last keystrokes of a tab no longer shown: saved only
    st.session_state.editor_text = text
    if action in RERUN_PAGE and not _launch_event(gateway, session, event, text, save_draft):
        save_draft()                            # nothing ran (a bad statement, one still running): saved now
    elif action == "format":
        try:
            formatted = gateway.format_statement(text)
            state.set_editor_text(formatted)
            tabs.save_text(gateway, tab_id, formatted)
        except GatewayError as exc:
            st.toast(f"Format SQL: {exc.message}", icon=":material/warning:")
    return None


def _launch_event(gateway, session, event: dict, text: str, save_draft: Callable[[], None]) -> Optional[Run]:
    """Start the run a click on Run (all, statement, selection) asks for; ``save_draft`` runs once it is submitted."""
    action = event.get("action")
    if action == "run_all":
        return launch(gateway, session, text, 0, text, meanwhile=save_draft)
    if action == "run_statement":
        try:
            sql, offset = statement_at(gateway, text, int(event.get("cursor", 0)))
        except GatewayError as exc:
            st.toast(exc.message, icon=":material/edit:")
            return None
        return launch(gateway, session, sql, offset, text, meanwhile=save_draft)
    start, end = sorted((int(event.get("selection_start", 0)), int(event.get("selection_end", 0))))
    return launch(gateway, session, text[start:end], start, text, meanwhile=save_draft)


def fresh_events(value) -> list[dict]:
    """Events of the editor's value not acted on yet, oldest first (nothing is marked seen)."""
    events = value.get("events", []) if isinstance(value, dict) else []
    seen = st.session_state.get("editor_events_seen", [])
    return [e for e in events if isinstance(e, dict) and e.get("id") and e["id"] not in seen]


def unseen_events(value) -> list[dict]:
    """Events of the editor's value not acted on yet, oldest first; only the newest completion request.

    Each is marked seen before it is acted on, so a run starts once even if the rerun is cut short.
    """
    fresh = fresh_events(value)
    seen = st.session_state.setdefault("editor_events_seen", [])
    completes = [e for e in fresh if e.get("action") == "complete"]
    fresh = [e for e in fresh if e.get("action") != "complete" or e is completes[-1]]
    seen.extend(e["id"] for e in fresh)
    del seen[:-50]
    return fresh


CREDENTIAL_KEY = "completion_credential"
_told_rerun_path = False


def page_origin() -> Optional[str]:
    """The origin of the page the user has open (``scheme://host[:port]``): the one the REST API lets call
    complete-statement across origins with the editor's credential. None outside a served page (AppTest)."""
    try:
        parts = urlsplit(st.context.url or "")
    except Exception:  # noqa: BLE001 - no page context (a bare script run)
        return None
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme in ("http", "https") and parts.netloc else None


def browser_address(url: str) -> str:
    """The REST API's address as the browser reaches it: a wildcard bind (``0.0.0.0``, ``::``) is no address
    a browser can call, so the host the page came from stands in for it."""
    parts = urlsplit(url)
    page = urlsplit(page_origin() or "")
    if parts.hostname in ("0.0.0.0", "::") and page.hostname:
        host = f"[{page.hostname}]" if ":" in page.hostname else page.hostname
        return f"{parts.scheme}://{host}:{parts.port}"
    return url


def direct_completion(gateway, session) -> dict:
    """How the editor asks the completion engine itself, without a Streamlit rerun per completion context
    (150-330 ms each at 10,000 tables): ``route``, the same-origin route on Streamlit's own server
    (ui/completion_route.py, there by default), and ``url``, the REST API of this process (rest.enabled),
    with ``session`` and ``token``, a credential that allows completion of this session only, renewed with a
    render once half its life has passed. The editor takes ``route`` when there is one, else ``url``; with
    neither, ``reason`` says why completion goes through reruns (the toolbar shows it, the log says it once)."""
    global _told_rerun_path
    held = st.session_state.get(CREDENTIAL_KEY)
    now = time.monotonic()
    if held is not None and held["session"] == str(session) and now < held["renew_at"]:
        return held["api"]
    try:
        found = gateway.completion_credential(session, page_origin())
    except GatewayError as exc:
        log.warning("SQL editor: no completion credential (%s); completion goes through reruns", exc.message)
        return {"reason": f"no completion credential ({exc.message})"}
    route = completion_route.route_path(found["session"]) if _route_installed(gateway) else None
    url = browser_address(found["url"]) if found.get("url") else None
    api = {"route": route, "url": url, "session": found["session"], "token": found["token"], "reason": None}
    if route is None and url is None:
        api = {"reason": "this page's server has no completion route (see the server log) and rest.enabled is off"}
        if not _told_rerun_path:
            _told_rerun_path = True
            log.warning("SQL editor: completion that needs the engine goes through Streamlit reruns (150-330 ms per "
                        "context): the completion route could not be added to Streamlit's server and rest.enabled "
                        "is off (docs/ui.md)")
    st.session_state[CREDENTIAL_KEY] = {"session": str(session), "api": api,
                                        "renew_at": now + float(found["expires_in_s"]) / 2}
    return api


_told_no_route = False


def _route_installed(gateway) -> bool:
    """The completion route on this page's Streamlit server (none in AppTest); a failure is logged once."""
    global _told_no_route
    from .login import served
    if not served():
        return False
    if completion_route.install_route(gateway):
        return True
    if not _told_no_route:
        _told_no_route = True
        log.warning("SQL editor: the completion route could not be added to Streamlit's server (its internals "
                    "moved?); the editor completes through REST when rest.enabled is on, else through reruns")
    return False


_DICTIONARY_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ui-completion-dictionary")
DICTIONARY_WAIT_S = 0.3    # a render waits this long for a dictionary the component lacks; the next one ships it
DICTIONARY_MAX_AGE_S = 60  # another session's DDL reaches this one's editor within this (this session's at once)
DICTIONARY_KEY = "dictionary_job"
PAGE_RUN_KEY = "dictionary_page_run"   # set by a run of the whole page (``render``)


@dataclass
class DictionaryJob:
    """One load of the session's completion dictionary, and the catalog state it stands for."""

    session: str
    generation: int                     # ``state.dictionary_generation()`` when it started
    future: Future
    started: float = field(default_factory=time.monotonic)
    fingerprint: Optional[str] = None   # once loaded
    found: Optional[dict] = None


def completion_dictionary(gateway, session, value) -> tuple[Optional[dict], Optional[str]]:
    """The session's completion dictionary and its fingerprint; the dictionary only when the component
    does not hold this fingerprint yet (a new page, a reload, a catalog change), else None.

    A dictionary is loaded (in a thread) only when the catalog may have changed: a new session, a run of
    this session that was not only reads, a run of the whole page (another page's DDL, a module loaded, a
    tab switched), or ``DICTIONARY_MAX_AGE_S`` passed (another session's DDL); not for the fragment reruns of
    a click on Run, a completion request or a draft.
    Every render used to build and hash it anew (tens of ms, seconds at 10,000 tables), and the render that
    answers a click on Run waited for that. A cold session's first listing can take seconds and the editor
    must show at once: until the dictionary is there the component completes from the one it holds (or asks
    Python per context), and asks again (action "dictionary") so a later render ships it.
    """
    held = value.get("dict_fp") if isinstance(value, dict) else None
    job: Optional[DictionaryJob] = st.session_state.get(DICTIONARY_KEY)
    generation = state.dictionary_generation()
    loaded = job is not None and job.fingerprint is not None
    page_run = st.session_state.pop(PAGE_RUN_KEY, False)
    if job is None or job.session != str(session) or job.generation != generation \
            or (loaded and (page_run or time.monotonic() - job.started > DICTIONARY_MAX_AGE_S)):
        job = DictionaryJob(str(session), generation, _DICTIONARY_POOL.submit(gateway.completion_dictionary, session))
        st.session_state[DICTIONARY_KEY] = job
    if job.fingerprint is None:
        # Waited for only in the page's first render and in the rerun the component asks for it with: never in
        # the render that answers a click on Run (300 ms of a cold session's click-to-row, profiled) or a draft.
        events = value.get("events") if isinstance(value, dict) else None
        asked = not events or (isinstance(events[-1], dict) and events[-1].get("action") == "dictionary")
        try:
            found = job.future.result(timeout=DICTIONARY_WAIT_S if asked and not held else 0)
        except FutureTimeout:
            return None, None
        except GatewayError:
            st.session_state.pop(DICTIONARY_KEY, None)
            return None, None
        job.found = found
        job.fingerprint = hashlib.sha1(json.dumps(found, sort_keys=True).encode()).hexdigest()[:16]
    return (None if held == job.fingerprint else job.found), job.fingerprint


def render(gateway, session, before_editor: Optional[Callable[[], None]] = None) -> None:
    """Handle a pending request or editor event, then draw the editor.

    ``before_editor`` draws the result area (in its own container, below the editor on the page) before
    the editor component: the component stops hiding the last result (see editor.js) when it hears
    that Python saw the click, and by then the area must already show the new run."""
    st.session_state[PAGE_RUN_KEY] = True
    tab = tabs.render_bar(gateway)
    request = state.pop_editor_request()
    if request:
        # Into the active tab while it holds nothing of the user's, else into a new tab: never over a draft.
        if tab.text.strip() and tab.text.strip() != state.DEFAULT_SQL and tab.text != request["text"]:
            tab = tabs.open_new(gateway, request["text"], request.get("title"))
        else:
            state.set_editor_text(request["text"])
            tabs.save_text(gateway, tab.tab_id, request["text"])
            if request.get("title"):
                try:
                    tab = gateway.rename_tab(tabs.user(), tab.tab_id, request["title"])
                except GatewayError:
                    pass
        if request.get("saved_id"):
            st.session_state.setdefault("tab_saved_query", {})[tab.tab_id] = request["saved_id"]
        if request.get("action") == "run_all":
            launch(gateway, session, request["text"], 0, request["text"])
    if before_editor is not None:
        before_editor()
    editor(gateway, session, tab.tab_id)


RERUN_PAGE = ("run_all", "run_statement", "run_selection")
EDITOR_FRAGMENT = "sql_editor_fragment"
RESULT_FRAGMENT = "editor_result_view"
HISTORY_FRAGMENT = history.FRAGMENT


@st.fragment(key=RESULT_FRAGMENT)
def result_view(gateway, session) -> None:
    """The active tab's run (or the welcome), as a fragment: a click on Run redraws this and the editor,
    not the page (its tab strip, sidebar and History cost a page rerun 100 ms and more on a loaded machine)."""
    run = st.session_state.get("current_run")
    if run is not None and not run.result_shown:
        run.result_draws += 1           # tests read it: a quick statement's rows come with the click's own rerun
        run.result_shown = run.finished
    with results.area_for(results.view_of(run)):   # a new view never shows beside the last one's elements
        if run is None:
            first_run.editor_welcome(gateway, session)
        else:
            if run.finished:
                script_results.render(run)
            results.render_run(gateway, session, run)


def _act(gateway, session, events: list[dict]) -> bool:
    """Act on the editor's events (completion requests last); True if one of them started a run."""
    started = False
    for event in (e for e in events if e.get("action") not in ("complete", "dictionary", "columns", "ran")):
        st.session_state.pop("completion_answer", None)
        _handle(gateway, session, event)
        started = started or event.get("action") in RERUN_PAGE
    for event in (e for e in events if e.get("action") == "columns"):
        _handle(gateway, session, event)
    for event in (e for e in events if e.get("action") == "complete"):
        # Kept until the next event: a rerun that overtakes this one still delivers the answer.
        st.session_state.completion_answer = _handle(gateway, session, event)
    return started


def _on_editor_event(gateway, session) -> None:
    """A click on Run (all, statement, selection) is acted on here, before any redraw, and then only the
    result and the editor rerun, in that order: the result area shows the new run by the time the editor
    hears that Python saw the click (editor.js hides the area until then). Once it has heard, the editor
    sends "ran" and History reruns, after the row is on screen. Other events (completion, a draft,
    Format) return to the editor fragment's own rerun."""
    value = st.session_state.get(EDITOR_KEY)
    actions = {e.get("action") for e in fresh_events(value)}
    if actions & set(RERUN_PAGE):
        targets = [RESULT_FRAGMENT, EDITOR_FRAGMENT]
    elif "ran" in actions:
        targets = ([EDITOR_FRAGMENT] if actions - {"ran"} else []) + [HISTORY_FRAGMENT]
    else:
        return
    _act(gateway, session, unseen_events(value))
    st.rerun(targets)


@st.fragment(key=EDITOR_FRAGMENT)
def editor(gateway, session, tab_id: str) -> None:
    """The editor and its events, as a fragment: what the component sends (completion, columns, the
    dictionary, a draft, Format) reruns only this, not the page; a run reruns this, the result and
    History (see ``_on_editor_event``). Fewer page reruns also mean a button clicked meanwhile is never
    lost to a rerun that overtook it."""
    # Events the callback did not take (a full-page run that carries them, e.g. in AppTest) start
    # their run here, and the page reruns to draw it.
    if _act(gateway, session, unseen_events(st.session_state.get(EDITOR_KEY))):
        st.rerun()
    current = tabs.runs().get(tab_id)
    st.session_state.current_run = current
    if tab_id in tabs.unsaved() and not tab_id.startswith(tabs.OFFLINE_PREFIX):   # the bar said so for those
        st.warning("The workbench store is unavailable: this draft is kept in this browser tab only, and saved "
                   "as soon as the store is back. Keep this tab open until then.", icon=":material/cloud_off:")
    dictionary, fingerprint = completion_dictionary(gateway, session, st.session_state.get(EDITOR_KEY))
    completion_api = direct_completion(gateway, session)
    text = state.editor_text()
    parameters.render_form(gateway, session, tab_id, text)
    sql_editor(text, state.editor_version(), completions=st.session_state.get("completion_answer"),
               columns=st.session_state.get("columns_answer"), dictionary=dictionary, dict_fp=fingerprint,
               completion_api=completion_api,
               markers=markers_for(current, text), running=current is not None and not current.finished,
               tab=tab_id, seen=st.session_state.get("editor_events_seen", [])[-10:], key=EDITOR_KEY,
               on_change=functools.partial(_on_editor_event, gateway, session))
