"""The editor in Streamlit's AppTest: one result per statement of a script (status, rows, error at its
line) and the parameter form above the editor whose values Spark binds (issue 31, items 1-2)."""
from conftest import event, open_app, rerun_until_ended


def test_a_script_shows_one_result_per_statement(fresh_tabs):
    at = open_app()
    tab = at.session_state["active_tab"]
    script = "SELECT id FROM range(2);\nSELECT nope FROM range(1);\nSELECT 3 AS three"
    event(at, action="run_all", text=script, tab=tab)
    rerun_until_ended(at)
    run = at.session_state["current_run"]
    assert run.script is not None and run.script.done.is_set()
    views = run.script.views
    assert [(v.index, v.line, v.status) for v in views] == [(0, 1, "FINISHED"), (1, 2, "ERROR"), (2, 3, "NOT RUN")]
    assert views[0].shown == [[0], [1]] and views[0].rows == 2
    assert views[1].error["line"] == 2
    labels = [e.label for e in at.expander]
    assert any(label.startswith("Statement 1 · line 1 · QUERY · finished · 2 rows") for label in labels), labels
    assert any("Statement 2 · line 2" in e.value and "nope" in e.value for e in at.error)


def test_the_parameter_form_binds_values_and_names_a_missing_one(fresh_tabs):
    at = open_app()
    tab = at.session_state["active_tab"]
    text = "-- :id number\nSELECT id, ':id' AS kept FROM range(10) WHERE id = :id"
    event(at, action="change", text=text, tab=tab)
    key = f"param-{tab}-id-number"
    assert [n.key for n in at.number_input] == [key]
    event(at, action="run_all", text=text, tab=tab)  # nothing filled in yet: the gateway names the marker
    rerun_until_ended(at)
    run = at.session_state["current_run"]
    assert run.error["error_class"] == "UNBOUND_SQL_PARAMETER" and ":id" in run.error["root_cause"]
    at.number_input(key=key).set_value(7).run()
    assert not at.exception, at.exception
    event(at, action="run_all", text=text, tab=tab)
    rerun_until_ended(at)
    run = at.session_state["current_run"]
    assert run.error is None and run.parameters == {"id": 7}
    assert run.spool.rows == [[7, ":id"]]
    assert at.session_state["tab_parameters"][tab] == {"id": 7.0}


def test_a_from_to_pair_is_one_date_range(fresh_tabs):
    at = open_app()
    tab = at.session_state["active_tab"]
    event(at, action="change", text="SELECT :from AS a, :to AS b", tab=tab)
    assert [d.key for d in at.date_input] == [f"param-{tab}-from-date range"]
