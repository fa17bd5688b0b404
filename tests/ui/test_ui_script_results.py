"""The editor in Streamlit's AppTest: one result per statement of a script (status, rows, error at its
line) and the parameter form above the editor whose values Spark binds (issue 31, items 1-2)."""
from conftest import event, open_app, rerun_until_ended

from ui.script_results import ScriptReader


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


def test_statement_results_that_cannot_be_read_say_so(fresh_tabs):
    """A failure to read the statements' results is an error on the page, never an empty list that looks
    like nothing ran (a whole run once waited 60 s for "Statement 2 · line 2" that never came)."""
    at = open_app()
    tab = at.session_state["active_tab"]
    event(at, action="run_all", text="SELECT 1 AS a;\nSELECT 2 AS b", tab=tab)
    rerun_until_ended(at)
    run = at.session_state["current_run"]
    assert [v.line for v in run.script.views] == [1, 2] and run.script.error is None
    # The same run drawn again with a reader that has not read yet, after its operation was closed elsewhere.
    run.script = ScriptReader(run.script.statements, run.script.display_limit)
    run.spool.gateway.close_operation(run.spool.session, run.spool.operation)
    at.run()
    assert run.script.done.is_set() and run.script.views == []
    assert run.script.error["error_class"], run.script.error
    shown = [e.value for e in at.error if "could not be read" in e.value]
    assert shown and "2 statements ran" in shown[0] and "does not exist" in shown[0], [e.value for e in at.error]


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
