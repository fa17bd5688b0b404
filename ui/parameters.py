"""The parameter form above the editor: one widget per ``:name`` marker of the tab's text.

The gateway finds the markers (its lexer: a ``:x`` in a string or comment is none) and the widget of
each (``statement_parameters``: a comment hint such as ``-- :country list from "Countries"``, ``-- :n
number``, ``-- :day date``, or a ``:from``/``:to`` pair for a date range). Values are kept per tab, in
this browser session and in the store with the tab (``save_tab_parameters``: a reload or another browser
of the user gets them back), and go with the run as ``parameters``: Spark binds them, never the text
(the gateway records them with the run's history entry).
"""
from __future__ import annotations

import datetime as dt
from typing import Optional

import streamlit as st

from gateway import GatewayError, ResultType

from . import tabs

VALUES_KEY = "tab_parameters"        # tab id -> {marker name: value}
STORED_KEY = "tab_parameters_stored"  # tab id -> the values as last kept in the store (JSON values)
CHOICES_KEY = "parameter_choices"    # saved query name -> (its text, the values of its first column)
MAX_CHOICES = 1_000


def fields_of(gateway, text: str) -> list[dict]:
    """The form's fields for ``text`` (none when it has no colon: no call for most statements)."""
    if ":" not in text:
        return []
    try:
        return gateway.statement_parameters(text)
    except GatewayError:
        return []


def tab_values(tab_id: Optional[str]) -> dict:
    return st.session_state.setdefault(VALUES_KEY, {}).setdefault(tab_id or "", {})


def stored_form(values: dict) -> dict:
    """The form's values as the store keeps them: dates as ISO text, pairs as lists, empty ones left out."""
    def plain(value):
        if isinstance(value, (dt.date, dt.datetime)):
            return value.isoformat()
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value
    return {name: plain(value) for name, value in values.items() if value is not None and value != ""}


def _restore(gateway, tab_id: str) -> None:
    """The tab's values from the store, once per browser session (a reload, another browser of the user)."""
    known = st.session_state.setdefault(VALUES_KEY, {})
    stored = st.session_state.setdefault(STORED_KEY, {})
    if tab_id in known or tab_id in stored or tab_id.startswith(tabs.OFFLINE_PREFIX):
        return
    try:
        tab = next((t for t in gateway.list_tabs(tabs.user()) if t.tab_id == tab_id), None)
    except GatewayError:
        return
    values = dict(getattr(tab, "parameter_values", None) or {})
    stored[tab_id] = values
    known[tab_id] = values


def _keep(gateway, tab_id: str) -> None:
    """Save the tab's values in the store when they changed (the form reruns on every widget change)."""
    if tab_id.startswith(tabs.OFFLINE_PREFIX):
        return
    current = stored_form(tab_values(tab_id))
    stored = st.session_state.setdefault(STORED_KEY, {})
    if stored.get(tab_id) == current:
        return
    try:
        gateway.save_tab_parameters(tabs.user(), tab_id, current)
        stored[tab_id] = current
    except GatewayError as exc:
        st.caption(f"The parameter values are kept in this browser session only: {exc.message}")


def _date(value) -> Optional[dt.date]:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def values_for(gateway, tab_id: Optional[str], sql: str) -> Optional[dict]:
    """The parameters of a run of ``sql`` (all the tab's text, a statement or a selection): a value for
    each of its markers that the form holds; None without markers. A marker left empty is not sent,
    so the gateway names it in its error."""
    fields = fields_of(gateway, sql)
    if not fields:
        return None
    kept = tab_values(tab_id)
    bound: dict = {}
    for field in fields:
        value = kept.get(field["name"])
        if field["kind"] == "date range":
            if isinstance(value, (list, tuple)):
                value = [_date(v) for v in value]   # kept in the store as ISO text
            if isinstance(value, (list, tuple)) and len(value) == 2 and all(value):
                if len(field["pair"]) == 2:
                    bound[field["pair"][0]], bound[field["pair"][1]] = value
                else:
                    bound[field["name"]] = list(value)
            continue
        if value is None or value == "":
            continue
        if field["kind"] == "date":
            value = _date(value)
            if value is None:
                continue
        if field["kind"] == "number" and isinstance(value, float) and value.is_integer():
            value = int(value)
        bound[field["name"]] = value
    return bound


def render_form(gateway, session, tab_id: str, text: str) -> None:
    """The form, when the text has markers; each widget writes the tab's kept value."""
    fields = fields_of(gateway, text)
    if not fields:
        return
    _restore(gateway, tab_id)
    kept = tab_values(tab_id)
    with st.container(border=True, key=f"parameters-{tab_id}"):
        st.caption("Parameters · bound by Spark as values (`-- :name number|date|date range|list from \"Saved "
                   "query\"` in a comment picks the widget)")
        columns = st.columns(min(len(fields), 4))
        for i, field in enumerate(fields):
            with columns[i % len(columns)]:
                kept[field["name"]] = _widget(gateway, session, tab_id, field, kept.get(field["name"]))
    _keep(gateway, tab_id)


def _widget(gateway, session, tab_id: str, field: dict, value):
    name, kind = field["name"], field["kind"]
    label = " – ".join(":" + n for n in field["pair"])
    key = f"param-{tab_id}-{name}-{kind}"
    if kind == "number":
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        return st.number_input(label, value=number, step=1.0, format="%g", key=key)
    if kind == "date":
        return st.date_input(label, value=_date(value), key=key)
    if kind == "date range":
        today = dt.date.today()
        given = tuple(_date(v) for v in value) if isinstance(value, (list, tuple)) and len(value) == 2 else ()
        pair = given if len(given) == 2 and all(given) else (today.replace(day=1), today)
        chosen = st.date_input(label, value=pair, key=key)
        return tuple(chosen) if isinstance(chosen, (list, tuple)) and len(chosen) == 2 else None
    if kind == "list":
        options = _choices(gateway, session, field.get("source") or "")
        if options is None:
            st.caption(f":{name}: no saved query named {field.get('source')!r}; save one whose first column "
                       f"lists the values")
            return st.text_input(label, value=value if isinstance(value, str) else "", key=key + "-text")
        index = options.index(value) if value in options else None
        return st.selectbox(label, options, index=index, key=key, placeholder="Choose a value")
    return st.text_input(label, value=value if isinstance(value, str) else "", key=key)


def _choices(gateway, session, source: str) -> Optional[list]:
    """The first column of the saved query named ``source`` (run once per browser session and text)."""
    try:
        saved = next((q for q in gateway.list_saved_queries(tabs.user(), source) if q.name == source), None)
    except GatewayError:
        return None
    if saved is None:
        return None
    cache = st.session_state.setdefault(CHOICES_KEY, {})
    if source in cache and cache[source][0] == saved.text:
        return cache[source][1]
    values: list = []
    try:
        operation = gateway.execute_statement(session, saved.text)
        try:
            for page in gateway.iter_results(session, operation, MAX_CHOICES, timeout_s=60):
                if page.result_type is ResultType.ERROR:
                    break
                values.extend(row[0] for row in page.rows if row)
                if len(values) >= MAX_CHOICES:
                    break
        finally:
            gateway.close_operation(session, operation)
    except GatewayError:
        return None
    values = list(dict.fromkeys(v for v in values[:MAX_CHOICES] if v is not None))
    cache[source] = (saved.text, values)
    return values
