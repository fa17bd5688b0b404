"""The chart tab: Altair over the rows shown, with defaults picked from the column types."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import altair as alt
import pandas as pd
import streamlit as st

NUMERIC = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL"}
TEMPORAL = {"DATE", "TIMESTAMP", "TIMESTAMP_LTZ"}
MARKS = ["bar", "line", "point", "area"]
NONE = "(none)"
COUNT = "(count of rows)"
AGGREGATES = {"sum": "Sum", "mean": "Average", "min": "Minimum", "max": "Maximum", "none": "Each row's"}


@dataclass
class ChartSpec:
    x: str
    y: str
    color: Optional[str]
    mark: str
    aggregate: str = "sum"   # how rows with the same x (and colour) combine; its label names the y axis


def kind_of(column) -> str:
    name = column.type["type"]
    if name in NUMERIC:
        return "quantitative"
    if name in TEMPORAL:
        return "temporal"
    return "nominal"


def default_spec(columns, names) -> ChartSpec:
    """Time on x as a line; else a category on x as bars; two numbers as points; y the first measure."""
    kinds = {n: kind_of(c) for n, c in zip(names, columns)}
    temporal = [n for n in names if kinds[n] == "temporal"]
    nominal = [n for n in names if kinds[n] == "nominal"]
    numeric = [n for n in names if kinds[n] == "quantitative"]
    if temporal:
        x, mark = temporal[0], "line"
    elif nominal:
        x, mark = nominal[0], "bar"
    elif numeric:
        x, mark = numeric[0], "point" if len(numeric) > 1 else "bar"
    else:
        x, mark = names[0], "bar"
    measures = [n for n in numeric if n != x]
    y = measures[0] if measures else COUNT
    color = None
    if x in temporal and nominal:
        color = nominal[0]
    return ChartSpec(x, y, color, mark, "none" if mark == "point" else "sum")


def build_chart(frame: pd.DataFrame, columns, names, spec: ChartSpec) -> alt.Chart:
    kinds = {n: kind_of(c) for n, c in zip(names, columns)}
    data = frame.copy()
    for name in names:
        if kinds[name] == "temporal":
            data[name] = pd.to_datetime(data[name], errors="coerce", utc=True)
        elif kinds[name] == "quantitative":
            data[name] = pd.to_numeric(data[name], errors="coerce")
    x = alt.X(spec.x, type=kinds[spec.x], sort=None if kinds[spec.x] != "nominal" else "-y")
    if spec.y == COUNT:
        y = alt.Y("count()", title="Number of rows")
    elif spec.aggregate not in AGGREGATES:
        raise ValueError(f"unknown aggregate {spec.aggregate!r}: choose one of {', '.join(AGGREGATES)}")
    elif spec.aggregate == "none":
        # Each row its own mark: bars of one x stack (never hide one another), so the axis is what it shows.
        y = alt.Y(spec.y, type=kinds[spec.y], title=spec.y, stack="zero" if spec.mark in ("bar", "area") else None)
    else:
        # One value per x (and colour): the rows are combined by the aggregate the axis title names.
        y = alt.Y(spec.y, type=kinds[spec.y], aggregate=spec.aggregate,
                  title=f"{AGGREGATES[spec.aggregate]} of {spec.y}")
    encoding = {"x": x, "y": y, "tooltip": [alt.Tooltip(n, type=kinds[n]) for n in names[:8]]}
    if spec.color:
        encoding["color"] = alt.Color(spec.color, type=kinds[spec.color])
    chart = getattr(alt.Chart(data), f"mark_{spec.mark}")(**({"point": True} if spec.mark == "line" else {}))
    return chart.encode(**encoding).properties(height=380).interactive()


def render(frame: pd.DataFrame, columns, names, rows_shown: int) -> None:
    spec = default_spec(columns, names)
    a, b, agg, c, d = st.columns(5)
    x = a.selectbox("x", names, index=names.index(spec.x), key="chart_x")
    y_options = [COUNT] + [n for n in names]
    y = b.selectbox("y", y_options, index=y_options.index(spec.y), key="chart_y")
    aggregate = agg.selectbox("combine rows by", list(AGGREGATES), index=list(AGGREGATES).index(spec.aggregate),
                              format_func=lambda a: "each row (no aggregate)" if a == "none" else a,
                              key="chart_aggregate", disabled=y == COUNT,
                              help="How rows with the same x (and colour) make one value; the y axis says which.")
    color_options = [NONE] + names
    color = c.selectbox("color", color_options, index=color_options.index(spec.color or NONE), key="chart_color")
    mark = d.selectbox("mark", MARKS, index=MARKS.index(spec.mark), key="chart_mark")
    chosen = ChartSpec(x, y, None if color == NONE else color, mark, aggregate)
    st.altair_chart(build_chart(frame, columns, names, chosen), width="stretch")
    st.caption(f"Charting the {rows_shown:,} rows shown.")
