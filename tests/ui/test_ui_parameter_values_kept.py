"""Issue 31: the parameter form's values are kept with the tab in the workbench store, so that a new browser
session of the same user (a reload, another browser) gets them back, and each run's history entry holds
the values it bound. Streamlit's AppTest over this run's Spark and store."""
import datetime as dt

from conftest import event, open_app, rerun_until_ended, wait_for
from gateway import LOCAL_USER

TEXT = "-- :n number\nSELECT id, :from AS a, :to AS b FROM range(10) WHERE id = :n"


def test_values_come_back_in_a_new_browser_session_and_go_into_history(fresh_tabs, gateway):
    first = open_app()
    tab = first.session_state["active_tab"]
    event(first, action="change", text=TEXT, tab=tab)
    first.number_input(key=f"param-{tab}-n-number").set_value(3).run()
    first.date_input(key=f"param-{tab}-from-date range").set_value((dt.date(2024, 1, 2), dt.date(2024, 2, 3))).run()
    assert not first.exception, first.exception
    kept = next(t for t in gateway.list_tabs(LOCAL_USER) if t.tab_id == tab).parameter_values
    assert kept == {"n": 3.0, "from": ["2024-01-02", "2024-02-03"]}

    second = open_app()    # a reload: a new browser session, nothing of the first one's state
    assert second.session_state["active_tab"] == tab
    assert second.number_input(key=f"param-{tab}-n-number").value == 3
    assert second.date_input(key=f"param-{tab}-from-date range").value == (dt.date(2024, 1, 2), dt.date(2024, 2, 3))
    event(second, action="run_all", text=TEXT, tab=tab)
    rerun_until_ended(second)
    run = second.session_state["current_run"]
    assert run.error is None and run.parameters == {"n": 3, "from": dt.date(2024, 1, 2), "to": dt.date(2024, 2, 3)}
    assert run.spool.rows == [[3, "2024-01-02", "2024-02-03"]]

    def recorded():
        gateway.store.recorder.flush(30)
        entry = next((e for e in gateway.list_history(LOCAL_USER, limit=20)
                      if e.operation_handle == str(run.operation)), None)
        return entry.parameters if entry is not None else None
    assert wait_for(recorded, timeout_s=30) == {"n": 3, "from": "2024-01-02", "to": "2024-02-03"}
