"""Editor tabs in Streamlit's AppTest over the workbench store: drafts saved as typed, restored after a
reload, each tab with its own run (which goes on while another tab is shown), rename, move, close."""
from conftest import event, open_app, rerun_until_ended
from gateway import LOCAL_USER


def button(at, key):
    return next(b for b in at.button if b.key == key)


def wait_run(at, timeout_s=90):
    rerun_until_ended(at, timeout_s=timeout_s)


def test_a_draft_is_saved_as_typed_and_comes_back_after_a_reload(fresh_tabs):
    gateway = fresh_tabs
    at = open_app()
    tabs = gateway.list_tabs(LOCAL_USER)
    assert len(tabs) == 1 and at.session_state["active_tab"] == tabs[0].tab_id
    assert at.query_params["tab"] == [tabs[0].tab_id] or at.query_params["tab"] == tabs[0].tab_id
    event(at, action="change", text="SELECT 'typed, never run'", tab=tabs[0].tab_id)
    assert gateway.list_tabs(LOCAL_USER)[0].text == "SELECT 'typed, never run'"
    # A reload is a new browser session with the same URL: the draft is the editor's text again.
    again = open_app({"session": at.session_state["session_handle"], "tab": tabs[0].tab_id})
    assert again.session_state["editor_text"] == "SELECT 'typed, never run'"
    # Keystrokes of a tab that is no longer shown are saved to that tab, not to the one shown now.
    button(again, "tab_new").click().run()
    second = gateway.list_tabs(LOCAL_USER)[1]
    assert again.session_state["active_tab"] == second.tab_id and again.session_state["editor_text"] == ""
    event(again, action="change", text="SELECT 'late keystrokes'", tab=tabs[0].tab_id)
    assert gateway.list_tabs(LOCAL_USER)[0].text == "SELECT 'late keystrokes'"
    assert again.session_state["editor_text"] == ""


def test_each_tab_has_its_own_run_which_goes_on_while_another_is_shown(fresh_tabs):
    gateway = fresh_tabs
    at = open_app()
    first = at.session_state["active_tab"]
    event(at, action="run_all", text="SELECT count(*) AS n FROM range(0, 20000000, 1, 2)", tab=first)
    slow = at.session_state["current_run"]
    button(at, "tab_new").click().run()
    assert at.session_state["current_run"] is None             # the new tab shows no result of the other
    event(at, action="run_all", text="SELECT 42 AS answer", tab=at.session_state["active_tab"])
    wait_run(at)
    assert at.dataframe[0].value["answer"].tolist() == [42]
    at.session_state["tab_strip"] = first                       # a click on the first tab
    at.run()
    assert at.session_state["active_tab"] == first and at.session_state["current_run"] is slow
    wait_run(at)
    assert at.dataframe[0].value["n"].tolist() == [20000000]


def test_rename_move_and_close(fresh_tabs):
    gateway = fresh_tabs
    at = open_app()
    button(at, "tab_new").click().run()
    button(at, "tab_new").click().run()
    one, two, three = gateway.list_tabs(LOCAL_USER)
    assert at.session_state["active_tab"] == three.tab_id
    at.text_input(key=f"tab_title_{three.tab_id}").set_value("Revenue")
    button(at, "tab_rename").click().run()
    assert [t.title for t in gateway.list_tabs(LOCAL_USER)] == [one.title, two.title, "Revenue"]
    button(at, "tab_left").click().run()
    assert [t.title for t in gateway.list_tabs(LOCAL_USER)] == [one.title, "Revenue", two.title]
    button(at, "tab_close").click().run()
    assert [t.title for t in gateway.list_tabs(LOCAL_USER)] == [one.title, two.title]
    assert at.session_state["active_tab"] == two.tab_id        # the tab that took its place
    # "Open in editor" never overwrites a draft: it opens a new tab.
    event(at, action="change", text="SELECT 'my draft'", tab=two.tab_id)
    at.session_state["editor_request"] = {"action": "load", "text": "SELECT * FROM range(3)"}
    at.run()
    tabs = gateway.list_tabs(LOCAL_USER)
    assert [t.text for t in tabs][-2:] == ["SELECT 'my draft'", "SELECT * FROM range(3)"]
    assert at.session_state["active_tab"] == tabs[-1].tab_id


def test_saved_queries_save_search_open_update_delete(fresh_tabs):
    gateway = fresh_tabs
    for query in gateway.list_saved_queries(LOCAL_USER):
        gateway.delete_saved_query(LOCAL_USER, query.query_id)
    at = open_app()
    tab = at.session_state["active_tab"]
    event(at, action="change", text="SELECT 'revenue' AS what", tab=tab)
    at.text_input(key=f"save_name_{tab}").set_value("Revenue $per$ country")
    at.text_area(key=f"save_description_{tab}").set_value("for the weekly report")
    button(at, "save_new").click().run()
    saved = gateway.list_saved_queries(LOCAL_USER, "weekly")
    assert [(q.name, q.text) for q in saved] == [("Revenue $per$ country", "SELECT 'revenue' AS what")]
    # The tab is linked to it now: Update replaces its text.
    event(at, action="change", text="SELECT 'revenue, v2' AS what", tab=tab)
    button(at, "save_update").click().run()
    assert gateway.get_saved_query(LOCAL_USER, saved[0].query_id).text == "SELECT 'revenue, v2' AS what"
    # Search, then open it: into a new tab, as the tab shown holds a draft.
    event(at, action="change", text="SELECT 'another draft'", tab=tab)
    at.text_input(key="saved_search").set_value("v2").run()
    button(at, f"saved_open_{saved[0].query_id}").click().run()
    assert at.session_state["editor_text"] == "SELECT 'revenue, v2' AS what"
    assert [t.title for t in gateway.list_tabs(LOCAL_USER)][-1] == "Revenue $per$ country"
    assert len(gateway.list_tabs(LOCAL_USER)) == 2
    button(at, f"saved_delete_{saved[0].query_id}").click().run()
    assert gateway.list_saved_queries(LOCAL_USER)                  # not before it is confirmed
    button(at, f"saved_delete_yes_{saved[0].query_id}").click().run()
    assert gateway.list_saved_queries(LOCAL_USER) == []
    assert not at.exception


def test_history_is_searchable_and_opens_in_a_tab(fresh_tabs):
    from conftest import wait_for
    gateway = fresh_tabs
    at = open_app()
    event(at, action="run_all", text="SELECT 'history needle' AS h", tab=at.session_state["active_tab"])
    wait_run(at)
    entry = wait_for(lambda: [e for e in gateway.list_history(LOCAL_USER, search="history needle", limit=5)
                              if e.status == "FINISHED"], 20)[0]
    assert entry.rows == 1
    at.text_input(key="history_search").set_value("HISTORY NEEDLE").run()
    assert "1 row" in " ".join(str(m.value) for m in at.markdown)
    assert any("history needle" in str(t.value) for t in at.text)
    button(at, f"history_open_{entry.entry_id}").click().run()
    assert at.session_state["editor_text"] == "SELECT 'history needle' AS h"
