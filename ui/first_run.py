"""First run: where am I, and what to do next (including a one-click sample database)."""
from __future__ import annotations

import streamlit as st

from gateway import GatewayError

from . import state

# Names qualified by the database: the sample database is current only in the session that made it, and
# the query (kept in the tab's draft) must work in every session, a new browser's too.
SAMPLE_QUERY = """-- Orders and revenue per country, from the sample database
SELECT c.country,
       count(DISTINCT o.id) AS orders,
       sum(i.quantity * p.price) AS revenue
FROM sample.orders o
JOIN sample.customers c ON o.customer_id = c.id
JOIN sample.order_items i ON i.order_id = o.id
JOIN sample.products p ON p.id = i.product_id
GROUP BY c.country
ORDER BY revenue DESC"""


def context_caption(gateway, session) -> None:
    """Where statements run: catalog.database, Spark version and master."""
    try:
        where = f"{gateway.get_current_catalog(session)}.{gateway.get_current_database(session)}"
    except GatewayError:
        where = "?"
    st.session_state[state.CAPTION_DATABASE_KEY] = where
    info = gateway.get_gateway_info()
    st.caption(f"Current database **{where}** · Spark {info['spark_version']} on `{info['master']}` · "
               f"session `{str(session)[:8]}`")


def sample_database_button(gateway, session, key: str, load_query: bool = True) -> bool:
    """Create the sample database in one click; the session then uses it."""
    if not st.button("Create the sample database", key=key, icon=":material/science:",
                     help="Creates database `sample` with customers, products, orders and order_items, "
                          "and makes it the current database."):
        return False
    with st.spinner("Creating tables customers, products, orders and order_items…"):
        try:
            tables = gateway.create_sample_database(session)
        except GatewayError as exc:
            st.error(f"The sample database could not be created: {exc.message}")
            return False
    if load_query:
        state.open_in_editor(SAMPLE_QUERY)
    st.toast(f"Database `sample` is ready: {', '.join(tables)}. It is now the current database.", icon=":material/science:")
    state.note_statements(None)     # new tables: the editor's completion dictionary reloads
    state.bump_schema_generation()  # reruns the page itself when the current database changed
    st.rerun()
    return True


def editor_welcome(gateway, session) -> None:
    """The editor's empty state."""
    st.info("**Write SQL above and run it.** *Run all* (Ctrl+Shift+Enter) runs the whole script; "
            "Ctrl+Enter runs the statement at the cursor, or the selection. Completion offers tables after "
            "`FROM`, columns after `alias.`, and functions with their signatures (Ctrl+Space).", icon=":material/lightbulb:")
    left, right = st.columns([1, 2], vertical_alignment="center")
    with left:
        sample_database_button(gateway, session, key="sample_db_editor")
    right.caption("No data yet? The sample database has four related tables (customers, products, orders, "
                  "order_items) to query right away. Or try `SHOW DATABASES`, `SELECT * FROM range(10)`.")
