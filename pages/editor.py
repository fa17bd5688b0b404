"""SQL editor: write, complete, run, and see rows, charts, errors and history."""
import streamlit as st

from ui import editor_panel, first_run, history, results, saved_queries, state
from ui.runs import DISPLAY_LIMITS

gateway, session = state.gateway(), state.handle()

st.title("SQL editor")
state.show_session_notice()
first_run.context_caption(gateway, session)
with st.sidebar:
    st.selectbox("Rows to show", DISPLAY_LIMITS, key="display_limit", format_func=lambda n: f"{n:,}",
                 help="The grid and chart show this many rows; the CSV and Parquet downloads always hold the full result.")

editor_panel.render(gateway, session)

run = st.session_state.get("current_run")
if run is None:
    first_run.editor_welcome(gateway, session)
else:
    results.render_run(gateway, session, run)

st.divider()
history_tab, saved_tab = st.tabs(["History", "Saved queries"])
with history_tab:
    history.render(gateway, session)
with saved_tab:
    saved_queries.render(gateway)
