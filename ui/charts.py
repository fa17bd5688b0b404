"""The chart tab: the gateway aggregates the whole spooled result (``result_chart``) and sends at most
``MAX_POINTS`` points; Altair draws only those, so the browser never receives the raw rows.

Defaults come from the gateway's ``suggest_chart``: a category or a date on x, a measure on y, a colour only
for a column of at most 20 values."""
from __future__ import annotations

from typing import Optional

import altair as alt
import pandas as pd
import streamlit as st

from gateway import CHART_AGGREGATES, DATE_BUCKETS, ChartData, ChartSpec, GatewayError

NUMERIC = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL"}
TEMPORAL = {"DATE", "TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_NTZ"}
MARKS = ["bar", "line", "point", "area"]
NONE = "(none)"
COUNT = "(count of rows)"
MAX_POINTS = 1000     # what the browser draws at most (Vega-Lite stays quick; a 100,000-row chart blocked 31 s)
TOP = 20              # categories on x and colours, by the measure
AGGREGATE_LABELS = {"sum": "Sum", "avg": "Average", "count": "Count", "min": "Minimum", "max": "Maximum"}


def kind_of(column) -> str:
    name = column.type["type"]
    if name in NUMERIC:
        return "quantitative"
    if name in TEMPORAL:
        return "temporal"
    return "nominal"


def chart_frame(chart: ChartData) -> pd.DataFrame:
    return pd.DataFrame(chart.rows, columns=chart.columns)


def build_chart(chart: ChartData, kinds: dict, mark: str) -> alt.Chart:
    """Altair over the aggregated points: x (and colour) as the gateway grouped them, y the value it computed."""
    frame = chart_frame(chart)
    x_name, value_name = chart.columns[0], chart.columns[-1]
    color_name = chart.columns[1] if len(chart.columns) == 3 else None
    x_kind = kinds.get(x_name, "nominal")
    if x_kind == "temporal":
        frame[x_name] = pd.to_datetime(frame[x_name], errors="coerce", utc=True)
    frame[value_name] = pd.to_numeric(frame[value_name], errors="coerce")
    title = value_name[:1].upper() + value_name[1:]
    x = alt.X(x_name, type=x_kind, sort="-y" if x_kind == "nominal" else None)
    encoding = {"x": x, "y": alt.Y(value_name, type="quantitative", title=title,
                                   stack="zero" if mark in ("bar", "area") else None),
                "tooltip": [alt.Tooltip(c, type=kinds.get(c, "quantitative") if c != value_name else "quantitative")
                            for c in chart.columns]}
    if color_name:
        encoding["color"] = alt.Color(color_name, type="nominal")
    drawn = getattr(alt.Chart(frame), f"mark_{mark}")(**({"point": True} if mark == "line" else {}))
    return drawn.encode(**encoding).properties(height=380).interactive()


def _spec_from_controls(names: list[str], suggested: ChartSpec, run_key: str) -> tuple[ChartSpec, str]:
    a, b, agg, c, d, e = st.columns(6)
    x = a.selectbox("x", names, index=names.index(suggested.x) if suggested.x in names else 0, key=f"chart_x_{run_key}")
    y_options = [COUNT] + names
    y = b.selectbox("y", y_options, index=y_options.index(suggested.y) if suggested.y in y_options else 0,
                    key=f"chart_y_{run_key}")
    aggregate = agg.selectbox("combine rows by", list(CHART_AGGREGATES),
                              index=list(CHART_AGGREGATES).index(suggested.aggregate), key=f"chart_aggregate_{run_key}",
                              disabled=y == COUNT, help="How the rows of one x (and colour) make one value, "
                                                        "computed over the whole result in the gateway.")
    color_options = [NONE] + names
    color = c.selectbox("color", color_options, index=color_options.index(suggested.color or NONE), key=f"chart_color_{run_key}",
                        help=f"Only the top {TOP} values (by the measure) get a colour.")
    bucket = d.selectbox("dates by", list(DATE_BUCKETS), index=list(DATE_BUCKETS).index(suggested.bucket),
                         key=f"chart_bucket_{run_key}", help="The unit dates on x are grouped by (auto: at most "
                                                  f"{MAX_POINTS:,} points).")
    mark = e.selectbox("mark", MARKS, index=MARKS.index(suggested.mark) if suggested.mark in MARKS else 0,
                       key=f"chart_mark_{run_key}")
    spec = ChartSpec(x=x, y=None if y == COUNT else y, aggregate="count" if y == COUNT else aggregate,
                     color=None if color == NONE else color, bucket=bucket, mark=mark)
    return spec, mark


def render(gateway, session, run, names: list[str]) -> None:
    """Controls with the suggested defaults, then the gateway's aggregate of the whole result as a chart."""
    spool = run.spool
    suggested: Optional[ChartSpec] = getattr(spool, "suggested_chart", None)
    if suggested is None:
        try:
            suggested = gateway.suggest_chart(session, spool.operation)
        except GatewayError as exc:
            st.warning(f"No chart: {exc}", icon=":material/bar_chart:")
            return
        spool.suggested_chart = suggested
    spec, mark = _spec_from_controls(names, suggested, str(spool.operation))
    try:
        chart = gateway.result_chart(session, spool.operation, spec, max_points=MAX_POINTS, top=TOP)
    except GatewayError as exc:
        st.warning(f"This chart cannot be drawn: {exc}", icon=":material/bar_chart:")
        return
    kinds = {n: kind_of(c) for n, c in zip(names, spool.columns)}
    st.altair_chart(build_chart(chart, kinds, mark), width="stretch")
    covered = f"all {chart.spooled:,} rows" if chart.complete else f"the {chart.spooled:,} rows spooled so far"
    st.caption(f"Aggregated in the gateway over {covered}: {len(chart.rows):,} points"
               + (f" ({chart.note})" if chart.note else "") + ".")
