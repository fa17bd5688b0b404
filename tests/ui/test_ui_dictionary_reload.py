"""The editor's completion dictionary is loaded again only when the catalog may have changed (issue 31's
everyday loop): not on every render of the editor (a click on Run, a completion request, a draft), as it was.

The renders are ``editor_panel.completion_dictionary`` in Streamlit's AppTest over the real gateway; the value
of the component (which fingerprint it holds) is what the browser would send."""
from streamlit.testing.v1 import AppTest

from conftest import run_all, wait_for
from gateway import LOCAL_PRINCIPAL


def editor_render(gateway, session) -> None:
    """One render of the editor's dictionary, as the editor fragment does it."""
    import streamlit as st
    from ui import editor_panel, state

    if st.session_state.pop("ran_kinds", None) is not None:
        state.note_statements(st.session_state.ran_kinds_value)
    if st.session_state.pop("page_run", False):
        st.session_state[editor_panel.PAGE_RUN_KEY] = True
    st.session_state.shipped = editor_panel.completion_dictionary(gateway, session, st.session_state.get("value"))


def render(at, value=None, **flags):
    at.session_state["value"] = value
    for name, flag in flags.items():
        at.session_state[name] = flag
    at.run()
    assert not at.exception, at.exception
    return at.session_state["shipped"]


def loaded(at, value=None):
    """Renders until the load in progress has ended; the (dictionary, fingerprint) of the last render."""
    shipped = []

    def done() -> bool:
        shipped[:] = [render(at, value)]
        return shipped[0][1] is not None

    wait_for(done, timeout_s=60, interval=0.1)
    return shipped[0]


def names(dictionary) -> set:
    return {r["value"] for r in dictionary["relations"]}


def test_renders_reuse_the_dictionary_until_a_run_may_have_changed_the_catalog(gateway, session):
    user_gateway = gateway.as_user(LOCAL_PRINCIPAL)
    at = AppTest.from_function(editor_render, args=(user_gateway, session), default_timeout=60)
    dictionary, fingerprint = loaded(at)
    assert dictionary is not None and dictionary["keywords"], "a component without one gets the dictionary"
    job = at.session_state["dictionary_job"]
    held = {"dict_fp": fingerprint}

    for _ in range(3):   # a click on Run, a completion request, a draft: no new load, nothing shipped again
        assert render(at, held) == (None, fingerprint)
        assert at.session_state["dictionary_job"] is job
    assert render(at) == (dictionary, fingerprint) and at.session_state["dictionary_job"] is job, \
        "a component that lost it (a reload) gets the same dictionary, without a new load"

    at.session_state["ran_kinds_value"] = ["QUERY", "SHOW", "DESCRIBE", "EXPLAIN"]
    render(at, held, ran_kinds=True)     # reads only: the catalog is as it was
    assert at.session_state["dictionary_job"] is job

    statement = "CREATE TABLE dictionary_reload_t (a INT) USING parquet"
    run_all(gateway, session, statement)
    try:
        at.session_state["ran_kinds_value"] = [s.kind for s in gateway.split_statements(statement)]
        shipped = render(at, held, ran_kinds=True)
        assert at.session_state["dictionary_job"] is not job, "a CREATE loads the dictionary again"
        # The component keeps completing from the one it holds meanwhile; the new one ships once loaded.
        assert shipped[0] is None or "dictionary_reload_t" in names(shipped[0])
        new_dictionary, new_fingerprint = loaded(at, held)
        assert new_fingerprint != fingerprint and "dictionary_reload_t" in names(new_dictionary)
        job = at.session_state["dictionary_job"]

        render(at, {"dict_fp": new_fingerprint}, page_run=True)  # a run of the whole page: another page's DDL
        assert at.session_state["dictionary_job"] is not job
    finally:
        run_all(gateway, session, "DROP TABLE IF EXISTS dictionary_reload_t")
