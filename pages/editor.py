"""SQL editor page (minimal): one SQL box, run, and the result or error."""
from __future__ import annotations

import streamlit as st

from ui.results import run_and_collect

gateway = st.session_state.gateway
handle = st.session_state.session_handle

st.title("SQL editor")
if notice := st.session_state.pop("session_notice", None):
    st.info(notice)
st.caption(f"Spark {gateway.get_gateway_info()['spark_version']} · session {handle[:8]}")

sql = st.text_area("SQL", value="SELECT 1 AS answer", height=160, key="sql_text",
                   help="One statement or a script separated by semicolons; the last result is shown.")
if st.button("Run", type="primary", key="run"):
    st.session_state.last_result = run_and_collect(gateway, handle, sql)

result = st.session_state.get("last_result")
if result is None:
    st.info("Type a statement and press Run. Try `SHOW DATABASES` or `SELECT * FROM range(10)`.")
elif result.error:
    st.error(f"**{result.error.get('error_class') or 'Error'}**: {result.error['root_cause']}")
else:
    st.dataframe(result.frame, use_container_width=True)
    cut = " (display limit reached)" if result.truncated else ""
    st.caption(f"{len(result.frame)} rows{cut} · {result.elapsed_s:.2f} s")
