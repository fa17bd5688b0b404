"""Compiled plans (FLIP-190): compile a statement, see its plan as a graph, compare two plans,
check a plan file against the session."""
from __future__ import annotations


import pandas as pd
import streamlit as st

from gateway import GatewayError

from . import downloads

COMPILED_HERE = "(compiled on this page)"
LEFT_COLOR, RIGHT_COLOR = "#ffd6d6", "#d6f5d6"


def show_error(exc: GatewayError) -> None:
    st.error(f"**{type(exc).__name__}**: {exc.message}")


def plan_graph(gateway, plan: dict, which: str, highlight=(), color: str = LEFT_COLOR) -> None:
    st.graphviz_chart(gateway.plan_graph(plan, which, tuple(highlight), highlight_color=color),
                      width="stretch")


def plan_summary(gateway, plan: dict) -> None:
    statement = plan["statement"]
    st.caption(f"{statement['kind']} · compiled on Spark {plan['spark_version']} (accepts {plan['accepts_spark']}) · "
               f"workbench {plan.get('workbench_version')} · format v{plan['format_version']} · "
               f"database {statement['current_catalog']}.{statement['current_database']}")
    graph_tab, deps_tab, text_tab, json_tab = st.tabs(["Graph", "Tables and functions", "Text", "JSON"])
    with graph_tab:
        which = st.radio("Plan", ["optimized", "analyzed"], horizontal=True, key="plan_which")
        plan_graph(gateway, plan, which)
    with deps_tab:
        tables = [{"table": t["name"], "role": t["role"], "kind": t["kind"],
                   "columns": ", ".join(f"{c['name']} {c['type']}" for c in t["columns"] or [])}
                  for t in plan["tables"]]
        st.dataframe(pd.DataFrame(tables), width="stretch", hide_index=True)
        st.dataframe(pd.DataFrame(plan["functions"]), width="stretch", hide_index=True)
        if plan["config"]:
            st.dataframe(pd.DataFrame(list(plan["config"].items()), columns=["setting", "value"]),
                         width="stretch", hide_index=True)
    with text_tab:
        st.code(gateway.plan_text(plan, "analyzed"), language="text")
        st.code(gateway.plan_text(plan, "optimized"), language="text")
    with json_tab:
        st.json(plan, expanded=False)


def render_compile(gateway, session):
    """The statement (from the SQL editor), an optional plan file, Compile; returns the plan compiled here."""
    default_sql = st.session_state.get("editor_text") or st.session_state.get("editor_sql") or "SELECT 1 AS answer"
    sql = st.text_area("Statement (SELECT, INSERT or CREATE TABLE … AS SELECT)", value=default_sql, height=120,
                       key="plan_sql")
    name_column, overwrite_column, button_column = st.columns([3, 1, 1], vertical_alignment="bottom")
    file_name = name_column.text_input("Save as plan file (optional)", key="plan_file", placeholder="daily_report.json")
    overwrite = overwrite_column.checkbox("Overwrite", key="plan_overwrite")
    if button_column.button("Compile", type="primary", key="plan_compile"):
        try:
            st.session_state.plan_current = gateway.compile_plan(session, sql, file_name.strip() or None,
                                                                 overwrite=overwrite)
            if file_name.strip():
                st.toast(f"Saved {file_name.strip()}")
        except GatewayError as exc:
            show_error(exc)
    current = st.session_state.get("plan_current")
    if current is None:
        st.info("Compile a statement to see its plan. The statement comes from the SQL editor.")
    else:
        plan_summary(gateway, current)
    return current


def plan_files(gateway) -> list[str]:
    try:
        return gateway.list_plans()
    except GatewayError as exc:
        show_error(exc)
        return []


def render_compare(gateway, current, files: list[str]) -> None:
    """Two plans side by side: the changes, both graphs with one-sided nodes coloured, the text diff."""
    options = ([COMPILED_HERE] if current is not None else []) + files
    if len(options) < 2:
        st.info("Compare needs two plans: compile one here and save one or more as plan files.")
        return
    left_column, right_column = st.columns(2)
    left = left_column.selectbox("Left", options, index=0, key="plan_left")
    right = right_column.selectbox("Right", options, index=1, key="plan_right")
    if st.button("Compare", key="plan_compare"):
        try:
            pick = lambda choice: current if choice == COMPILED_HERE else choice  # noqa: E731
            st.session_state.plan_diff = (left, right, gateway.diff_plans(pick(left), pick(right)),
                                          pick(left) if left == COMPILED_HERE else gateway.load_plan(left),
                                          pick(right) if right == COMPILED_HERE else gateway.load_plan(right))
        except GatewayError as exc:
            show_error(exc)
    if not st.session_state.get("plan_diff"):
        return
    left_name, right_name, diff, left_plan, right_plan = st.session_state.plan_diff
    if diff["same"]:
        st.success(f"{left_name} and {right_name} are the same plan.")
        return
    if diff["changes"]:
        st.dataframe(pd.DataFrame(diff["changes"]), width="stretch", hide_index=True)
    which = st.radio("Plan", ["optimized", "analyzed"], horizontal=True, key="plan_compare_which")
    left_graph, right_graph = st.columns(2)
    with left_graph:
        st.markdown(f"**{left_name}** — nodes only here in red")
        plan_graph(gateway, left_plan, which, diff["only_left"][which], LEFT_COLOR)
    with right_graph:
        st.markdown(f"**{right_name}** — nodes only here in green")
        plan_graph(gateway, right_plan, which, diff["only_right"][which], RIGHT_COLOR)
    if diff[f"{which}_diff"]:
        st.code("\n".join(diff[f"{which}_diff"]), language="diff")


def render_check(gateway, session, files: list[str]) -> None:
    """Would EXECUTE PLAN run this file in this session, or what changed? And run it, its result below."""
    chosen = st.selectbox("Plan file", files, key="plan_check_file")
    check_column, execute_column = st.columns([1, 1])
    if execute_column.button("Execute", key="plan_execute", type="primary", icon=":material/play_arrow:",
                             help="Run the plan as EXECUTE PLAN does: only if nothing it depends on changed"):
        execute(gateway, session, chosen)
    if check_column.button("Check against this session", key="plan_check"):
        try:
            differences = gateway.explain_plan(session, chosen)["differences"]
            if differences:
                st.warning("It would not run here, EXECUTE PLAN refuses it:\n\n"
                           + "\n".join(f"- {d['message']}" for d in differences))
            else:
                st.success(f"No differences: EXECUTE PLAN '{chosen}' would run it.")
        except GatewayError as exc:
            show_error(exc)
    run = st.session_state.get("plan_run")
    if run is not None:
        from .results import render_run
        st.subheader(f"Result of {run.sql}")
        render_run(gateway, session, run)


def execute(gateway, session, plan_file: str) -> None:
    """Start the plan file's run (``execute_plan``), its result spooled like the editor's."""
    from .runs import DISPLAY_LIMITS, ResultSpool, Run, spool_dir
    previous = st.session_state.get("plan_run")
    if previous is not None and not previous.finished:
        st.toast("A plan is still running: wait for it or press Cancel.", icon=":material/hourglass_top:")
        return
    if previous is not None and previous.spool is not None:
        previous.spool.discard()
    name = downloads.slug(plan_file.rsplit(".", 1)[0]) or "plan"
    try:
        operation = gateway.execute_plan(session, plan_file)
    except GatewayError as exc:
        run = Run(plan_file, 0, "", None, None, submit_error=exc.to_json(), name=name)
    else:
        limit = st.session_state.get("display_limit", DISPLAY_LIMITS[0])
        run = Run(plan_file, 0, "", operation, ResultSpool(gateway, session, operation, limit, spool_dir(gateway)),
                  name=name)
        run.spool.first_page.wait(0.5)   # a quick plan's rows show in this rerun
    st.session_state.plan_run = run

