"""SQL editor: write, complete, run, and see rows, charts, errors and history."""
import streamlit as st

from ui import editor_panel, first_run, history, results, saved_queries, state
from ui.runs import DISPLAY_LIMITS

gateway, session = state.gateway(), state.handle()

st.title("SQL editor")
state.show_session_notice()
first_run.context_caption(gateway, session)
with st.sidebar:
    st.selectbox("Rows per page", DISPLAY_LIMITS, key="display_limit", format_func=lambda n: f"{n:,}",
                 help="Rows of a grid page; sort, filter, search, chart and downloads act on the whole result.")

# The result area sits below the editor but is drawn first (see editor_panel.render): from a click on
# Run until Python has seen it the editor hides this area, and it must show the new run by then.
# Everything above them keeps its place from run to run (the session notice has a slot of its own): a
# container whose place changed between two runs is rebuilt by the browser, the editor's frame with it.
editor_area, result_area = st.container(key="editor_area"), st.container(key="editor_result")


def show_result() -> None:
    with result_area:
        editor_panel.result_view(gateway, session)


with editor_area:
    editor_panel.render(gateway, session, before_editor=show_result)

st.divider()
history_tab, saved_tab = st.tabs(["History", "Saved queries"])
with history_tab:
    history.render(gateway, session)
with saved_tab:
    saved_queries.render(gateway)
