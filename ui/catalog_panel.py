"""Catalog browser: catalogs > databases > tables and views, search, and a table's detail."""
from __future__ import annotations

from typing import Optional

import pandas as pd
import streamlit as st

from gateway import GatewayError, TableKind

from . import first_run, state
from .results import column_labels, frame_of

MAX_LISTED = 2_000
_KINDS = {"All": TableKind.ALL, "Tables": TableKind.TABLE, "Views": TableKind.VIEW}
_ICONS = {"table": "table", "view": "view", "temporary view": "temporary view"}


def tables(gateway, session, catalog: str, database: str) -> list:
    """The database's tables and views, listed once per catalog change (search filters in memory)."""
    key = (catalog, database, state.schema_generation())
    cached = st.session_state.get("catalog_tables")
    if not cached or cached[0] != key:
        cached = (key, gateway.list_tables(session, catalog, database))
        st.session_state.catalog_tables = cached
    return cached[1]


def kind_label(info) -> str:
    if info.is_temporary:
        return "temporary view"
    return "view" if info.kind == TableKind.VIEW else "table"


def filter_tables(infos: list, search: str, kind: TableKind) -> list:
    needle = search.strip().lower()
    return [t for t in infos if (kind == TableKind.ALL or t.kind == kind) and needle in t.name.lower()]


def render_tree(gateway, session) -> Optional[str]:
    """The left side; returns the identifier of the selected table or view."""
    catalogs = gateway.list_catalogs(session)
    current_catalog = gateway.get_current_catalog(session)
    catalog = st.selectbox("Catalog", catalogs, index=catalogs.index(current_catalog)
                           if current_catalog in catalogs else 0, key="catalog_catalog")
    databases = gateway.list_databases(session, catalog)
    current_db = gateway.get_current_database(session)
    if st.session_state.get("catalog_current_seen") != current_db and current_db in databases:
        # The session's database changed (USE, the sample database): show it, not the old pick.
        st.session_state.catalog_current_seen = current_db
        st.session_state.catalog_database = current_db
    database = st.selectbox("Database", databases, index=databases.index(current_db)
                            if current_db in databases else 0, key="catalog_database")
    kind = st.segmented_control("Kind", list(_KINDS), default="All", key="catalog_kind") or "All"
    search = st.text_input("Search", key="catalog_search", placeholder="part of a name, e.g. order",
                           help="Filters the tables and views of this database as you type.")
    infos = tables(gateway, session, catalog, database)
    found = filter_tables(infos, search, _KINDS[kind])
    if not infos:
        st.info(f"Database `{database}` has no tables or views yet. Create one in the SQL editor "
                f"(`CREATE TABLE t (id BIGINT) USING parquet`), or start with the sample database.")
        first_run.sample_database_button(gateway, session, key="sample_db_catalog", load_query=False)
        return None
    st.caption(f"{len(found):,} of {len(infos):,} in `{catalog}.{database}`"
               + (" · temporary views live in this session only" if any(t.is_temporary for t in found) else ""))
    if not found:
        st.info("Nothing matches: shorten the search or pick another kind.")
        return None
    shown = found[:MAX_LISTED]
    listing = pd.DataFrame({"name": [t.name for t in shown], "kind": [_ICONS[kind_label(t)] for t in shown]})
    # A click on a name (a cell) picks its table as the row's checkbox does.
    picked = st.dataframe(listing, hide_index=True, on_select="rerun", selection_mode=["single-row", "single-cell"],
                          key="catalog_list", width="stretch", height=min(36 * (len(shown) + 1) + 4, 560))
    selection = picked.selection if picked else None
    rows = list(selection.rows) if selection else []
    rows += [cell[0] for cell in (selection.get("cells", []) if selection else [])]
    rows = [row for row in rows if 0 <= row < len(shown)]
    if rows:
        st.session_state.selected_table = _identifier(shown[rows[0]], catalog, database)
    selected = st.session_state.get("selected_table")
    return selected


def _identifier(info, catalog: str, database: str) -> str:
    if info.is_temporary and not info.database:
        return info.name
    return ".".join([catalog, info.database or database, info.name])


def _sample_rows(gateway, session, name: str, limit: int = 20) -> tuple[list, list, Optional[dict]]:
    columns, rows, error = [], [], None
    try:
        operation = gateway.preview_table(session, name, limit)
    except GatewayError as exc:
        return columns, rows, exc.to_json()
    try:
        for page in gateway.iter_results(session, operation, timeout_s=120):
            columns = page.columns or columns
            if page.exception:
                error = page.exception
                break
            rows.extend(page.rows)
    except GatewayError as exc:
        error = exc.to_json()
    finally:
        try:
            gateway.close_operation(session, operation)
        except GatewayError:
            pass
    return columns, rows, error


def render_detail(gateway, session, name: str) -> None:
    try:
        detail = gateway.get_table(session, name)
    except GatewayError as exc:
        st.warning(f"`{name}` cannot be shown: {exc.message}. It may have been dropped; pick another one.")
        st.session_state.pop("selected_table", None)
        return
    badge = "temporary view" if detail.is_temporary else detail.kind.value.lower()
    st.subheader(f"{detail.name}")
    st.caption(f"{badge} · `{name}`" + (f" · {detail.provider}" if detail.provider else "")
               + (f" · {detail.comment}" if detail.comment else ""))
    if st.button("Open `SELECT … LIMIT 100` in the editor", key="open_select", icon=":material/edit_note:", type="primary"):
        state.open_in_editor(gateway.preview_statement(session, name, 100))
        st.switch_page("pages/editor.py")
    columns_tab, partitions_tab, properties_tab, ddl_tab, sample_tab, stats_tab = st.tabs(
        ["Columns", "Partitioning", "Properties", "CREATE statement", "Sample rows", "Statistics"])
    with columns_tab:
        st.dataframe(pd.DataFrame([{"column": c.name, "type": c.type_name,
                                    "nullable": c.type.get("nullable", True), "comment": c.comment or "",
                                    "partition": c.name in detail.partition_columns} for c in detail.columns]),
                     hide_index=True, width="stretch")
    with partitions_tab:
        if detail.partition_columns:
            st.write("Partitioned by " + ", ".join(f"`{c}`" for c in detail.partition_columns))
        else:
            st.info("Not partitioned. `PARTITIONED BY (col)` in CREATE TABLE splits a table by a column's values.")
    with properties_tab:
        facts = {"type": detail.table_type, "provider": detail.provider, "location": detail.location,
                 **{k: v for k, v in detail.extended.items() if k in ("Owner", "Created Time", "Last Access",
                                                                       "Created By", "View Text", "Serde Library")}}
        st.dataframe(pd.DataFrame([{"property": k, "value": str(v)} for k, v in facts.items() if v]),
                     hide_index=True, width="stretch")
        if detail.properties:
            st.markdown("**Table properties**")
            st.dataframe(pd.DataFrame([{"key": k, "value": v} for k, v in detail.properties.items()]),
                         hide_index=True, width="stretch")
    with ddl_tab:
        try:
            st.code(gateway.get_table_ddl(session, name), language="sql")
        except GatewayError as exc:
            st.info(f"No CREATE statement: {exc.message}")
    with sample_tab:
        columns, rows, error = _sample_rows(gateway, session, name)
        if error:
            st.error(f"**{error.get('error_class') or 'Error'}**: {error.get('root_cause')}")
        elif not rows:
            st.info("The table is empty. Add rows with `INSERT INTO … VALUES (…)` in the SQL editor.")
        else:
            frame = frame_of(columns, rows)
            st.dataframe(frame, hide_index=True, column_config=column_labels(columns, frame.columns),
                         width="stretch")
            st.caption(f"The first {len(rows)} rows.")
    with stats_tab:
        if detail.statistics:
            st.write(f"**{detail.statistics}**")
        elif detail.is_temporary or detail.kind == TableKind.VIEW:
            st.info("Views have no statistics of their own.")
        else:
            st.info("No statistics yet. Computing them scans the table once and helps Spark plan joins.")
        if not detail.is_temporary and detail.kind == TableKind.TABLE:
            if st.button("Compute statistics (ANALYZE TABLE)", key="analyze"):
                try:
                    with st.spinner("Scanning the table…"):
                        gateway.analyze_table(session, name)
                except GatewayError as exc:
                    st.error(f"Statistics could not be computed: {exc.message}")
                else:
                    st.rerun()
