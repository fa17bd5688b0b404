"""The query profile of a run (issue 31 item 3): opened from the run's elapsed time.

The operator graph of each SQL execution (Graphviz), the operators slowest first with time, rows,
spill and peak memory, the stages with the tasks' run-time spread, and two runs of the tab side by
side. Also EXPLAIN's output as monospaced text. Everything comes from ``get_operation_profile``
(a plain value built by the gateway); this module only lays it out.
"""
from __future__ import annotations

import html
import time
from typing import Optional

import pandas as pd
import streamlit as st

from gateway import GatewayError

from . import tabs

RUNS_KEY = "profile_runs"       # the runs a profile can be opened for, newest last: {operation, sql, tab, label}
PROFILES_KEY = "profiles"       # ready profiles by operation handle (they do not change once built)
OPEN_KEY = "profile_open"       # the operation whose profile is shown under its run
KEPT_RUNS = 20                  # as many as the gateway keeps per session (operation.profiles_per_session)
SLOW_FILL = "#f4b183"


# -- values -------------------------------------------------------------------------------------

def profile_of(gateway, session, operation, wait_s: float = 0.0) -> Optional[dict]:
    """The run's profile (cached once ready); None when the gateway has none for it."""
    key = str(operation)
    cached = st.session_state.setdefault(PROFILES_KEY, {})
    if key in cached:
        return cached[key]
    try:
        profile = gateway.get_operation_profile(session, operation, timeout_s=wait_s)
    except GatewayError as exc:
        return {"ready": True, "available": False, "reason": str(exc), "executions": [], "stages": [], "slowest": []}
    if profile.get("ready"):
        cached[key] = profile
        while len(cached) > KEPT_RUNS:
            cached.pop(next(iter(cached)))
    return profile


def remember(run) -> None:
    """Keep a finished run as one a profile can be opened for, and compared (its tab's last ``KEPT_RUNS``)."""
    if run.operation is None:
        return
    runs = st.session_state.setdefault(RUNS_KEY, [])
    key = str(run.operation)
    if any(r["operation"] == key for r in runs):
        return
    runs.append({"operation": key, "sql": run.sql, "tab": st.session_state.get(tabs.ACTIVE_KEY),
                 "label": f"{time.strftime('%H:%M:%S', time.localtime(run.started_at))} · {run.elapsed_s:.2f} s · "
                          f"{' '.join(run.sql.split())[:60]}"})
    del runs[:-KEPT_RUNS]


def spark_ui_link(gateway, session, run) -> Optional[str]:
    """The page of the run's own SQL execution in Spark's UI, once its profile is known (else None)."""
    if run.operation is None:
        return None
    profile = profile_of(gateway, session, run.operation)
    return (profile or {}).get("spark_ui_url")


def explain_text(run) -> Optional[str]:
    """EXPLAIN's output of a finished run as one text (None if the run is no EXPLAIN)."""
    spool = run.spool
    if spool is None or "explain" not in run.sql.lower():
        return None  # no EXPLAIN in the text: the operation's info (two calls into the JVM) is not asked for
    info = spool.info
    if info is None or not info.statements or info.statements[-1].kind != "EXPLAIN" or not spool.rows:
        return None
    return "\n".join(str(row[0]) for row in spool.rows if row)


def render_explain(run) -> bool:
    """Show EXPLAIN's plan as monospaced text; False when the run is no EXPLAIN (the grid shows it)."""
    text = explain_text(run)
    if text is None:
        return False
    st.code(text, language="text", line_numbers=False)
    return True


# -- the graph ------------------------------------------------------------------------------------

def _ms(value) -> str:
    if value is None:
        return ""
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.0f} ms"


def _bytes(value) -> str:
    if not value:
        return ""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return ""


def profile_dot(execution: dict, slowest: tuple = ()) -> str:
    """An execution's operators as a Graphviz graph: rows flow upwards; codegen stages as clusters;
    the slowest operators filled."""
    slow = set(slowest)
    lines = ["digraph profile {", "  rankdir=BT;", '  node [shape=box, style="rounded,filled", fillcolor=white, '
             'fontname="monospace", fontsize=10];']
    operators = {o["id"]: o for o in execution["operators"]}

    def label(o: dict) -> str:
        parts = [html.escape(o["name"] or "")]
        figures = [f for f in (_ms(o.get("time_ms")), f"{o['rows']:,} rows" if o.get("rows") is not None else "",
                               f"spill {_bytes(o['spill_bytes'])}" if o.get("spill_bytes") else "",
                               f"mem {_bytes(o['peak_memory_bytes'])}" if o.get("peak_memory_bytes") else "") if f]
        if figures:
            parts.append(html.escape(" · ".join(figures)))
        return "<" + "<br/>".join(parts) + ">"

    def node(o: dict) -> str:
        fill = SLOW_FILL if o["id"] in slow else "white"
        return f'  n{o["id"]} [label={label(o)}, fillcolor="{fill}"];'

    for o in operators.values():
        if o["kind"] == "cluster":
            lines.append(f'  subgraph cluster_{o["id"]} {{')
            lines.append(f'    label={label(o)}; style="dashed"; color="#888888"; fontname="monospace"; fontsize=9;')
            lines += ["  " + node(operators[m]) for m in o.get("members", ()) if m in operators]
            lines.append("  }")
    for o in operators.values():
        if o["kind"] == "operator" and o.get("cluster") is None:
            lines.append(node(o))
    for child, parent in execution["edges"]:
        if child in operators and parent in operators:
            lines.append(f"  n{child} -> n{parent};")
    lines.append("}")
    return "\n".join(lines)


def operators_frame(profile: dict) -> pd.DataFrame:
    """Every operator of every execution, slowest first."""
    rows = [{"operator": o["name"], "kind": o["kind"], "time": o.get("time_ms"), "rows": o.get("rows"),
             "spill": o.get("spill_bytes"), "peak memory": o.get("peak_memory_bytes"), "execution": e["id"],
             "node": o["id"], "detail": (o.get("description") or "")[:200]}
            for e in profile["executions"] for o in e["operators"]]
    frame = pd.DataFrame(rows, columns=["operator", "kind", "time", "rows", "spill", "peak memory", "execution",
                                        "node", "detail"])
    return frame.sort_values("time", ascending=False, na_position="last", kind="stable").reset_index(drop=True)


def stages_frame(profile: dict) -> pd.DataFrame:
    rows = []
    for s in profile["stages"]:
        spread = s.get("task_time_ms") or {}
        rows.append({"stage": s["id"], "status": s["status"], "tasks": s["tasks"], "task min": spread.get("min"),
                     "task median": spread.get("median"), "task max": spread.get("max"),
                     "skew (max / median)": s.get("skew"), "spill": s.get("spill_bytes"),
                     "peak memory": s.get("peak_memory_bytes"), "name": s["name"]})
    return pd.DataFrame(rows)


# -- panels ---------------------------------------------------------------------------------------

def render_entry(gateway, session, run) -> None:
    """The run's elapsed time as the button that opens its profile, and the profile under it when open."""
    if run.operation is None or run.submit_error is not None:
        return
    remember(run)
    key = str(run.operation)
    is_open = st.session_state.get(OPEN_KEY) == key
    if st.button(f"{run.elapsed_s:.2f} s · {'hide' if is_open else 'query profile'}", key=f"profile_{key}",
                 type="tertiary", icon=":material/timer:",
                 help="Where the time went: Spark's operators with time, rows, spill and memory, and the stages"):
        st.session_state[OPEN_KEY] = None if is_open else key
        is_open = not is_open
    if is_open:
        with st.container(border=True):
            render_profile(profile_of(gateway, session, run.operation, wait_s=10.0))
            render_compare(gateway, session)


def render_profile(profile: Optional[dict]) -> None:
    if profile is None or not profile.get("ready"):
        st.info((profile or {}).get("reason") or "The profile is being read from Spark; open it again in a moment.",
                icon=":material/hourglass_top:")
        return
    if not profile.get("available"):
        st.info(f"No query profile: {profile.get('reason')}", icon=":material/info:")
        return
    slowest = profile.get("slowest") or []
    if slowest:
        st.markdown("**Slowest:** " + " · ".join(f"{o['name']} {_ms(o['time_ms'])}" for o in slowest[:3]))
    for execution in profile["executions"]:
        link = f" · [Spark UI]({execution['url']})" if execution.get("url") else ""
        st.caption(f"SQL execution {execution['id']} · {execution['status']} · "
                   f"{_ms(execution.get('duration_ms'))}{link}")
        ids = tuple(o["id"] for o in slowest[:3] if o["execution"] == execution["id"])
        st.graphviz_chart(profile_dot(execution, ids), width="stretch")
    frame = operators_frame(profile)
    st.dataframe(frame, hide_index=True, width="stretch", column_config={
        "time": st.column_config.NumberColumn("time (ms)", format="%.0f"),
        "spill": st.column_config.NumberColumn("spill (bytes)"),
        "peak memory": st.column_config.NumberColumn("peak memory (bytes)")})
    if profile["stages"]:
        st.markdown("**Stages** (task run time in ms; skew = slowest task over the median)")
        st.dataframe(stages_frame(profile), hide_index=True, width="stretch")


def render_compare(gateway, session) -> None:
    """Two runs of this tab side by side (the same statement first)."""
    tab = st.session_state.get(tabs.ACTIVE_KEY)
    runs = [r for r in st.session_state.get(RUNS_KEY, []) if r["tab"] == tab]
    if len(runs) < 2:
        return
    with st.expander("Compare two runs"):
        labels = {r["operation"]: r["label"] for r in reversed(runs)}
        newest = runs[-1]
        same = [r["operation"] for r in reversed(runs[:-1]) if r["sql"].strip() == newest["sql"].strip()]
        options = list(labels)
        left_col, right_col = st.columns(2)
        left = left_col.selectbox("Run", options, index=0, format_func=labels.get, key="profile_compare_left")
        default = options.index(same[0]) if same else min(1, len(options) - 1)
        right = right_col.selectbox("Run", options, index=default, format_func=labels.get, key="profile_compare_right")
        for column, operation in ((left_col, left), (right_col, right)):
            with column:
                profile = profile_of(gateway, session, operation, wait_s=5.0)
                if not profile or not profile.get("available"):
                    st.info((profile or {}).get("reason") or "no profile")
                    continue
                total = sum(e.get("duration_ms") or 0 for e in profile["executions"])
                st.metric("Spark time", _ms(total))
                st.dataframe(operators_frame(profile)[["operator", "time", "rows", "spill", "peak memory"]],
                             hide_index=True, width="stretch")
