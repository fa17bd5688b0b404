"""The chart tab: the gateway aggregates the whole spooled result (``result_chart``) and sends at most
``MAX_POINTS`` points; Altair describes only those, so the browser never receives the raw rows.

The chart reaches the browser as a picture (SVG) that Vega drew in this process (vl-convert): the first Vega
chart of a page took the browser's main thread 300-550 ms (loading and compiling Vega, then laying it out in
one React task: 546 ms on a 100,000-row result), a picture of at most MAX_POINTS marks a fraction of it. (A PNG
took vl-convert three times as long to rasterise, and was five times the size.) "Interactive" draws the same chart
with Vega in the browser for tooltips, zoom and pan, by choice.

Defaults come from the gateway's ``suggest_chart``: a category or a date on x, a measure on y, a colour only
for a column of at most 20 values."""
from __future__ import annotations

import functools
import logging
import threading
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
IMAGE_WIDTH_PX = 1100  # the picture's width (an SVG: shown stretched to the page, sharp at any size)

log = logging.getLogger(__name__)


def kind_of(column) -> str:
    name = column.type["type"]
    if name in NUMERIC:
        return "quantitative"
    if name in TEMPORAL:
        return "temporal"
    return "nominal"


def chart_frame(chart: ChartData) -> pd.DataFrame:
    return pd.DataFrame(chart.rows, columns=chart.columns)


def build_chart(chart: ChartData, kinds: dict, mark: str, interactive: bool = True) -> alt.Chart:
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
    built = drawn.encode(**encoding).properties(height=380)
    return built.interactive() if interactive else built


@functools.lru_cache(maxsize=16)
def _svg_of(vega_lite_json: str) -> str:
    import vl_convert

    return vl_convert.vegalite_to_svg(vega_lite_json)


def chart_image(chart: alt.Chart) -> str:
    """The chart as an SVG drawn by Vega in this process; the same chart again (a rerun) is not drawn twice."""
    return _svg_of(chart.properties(width=IMAGE_WIDTH_PX).to_json())


_warm_up_started = threading.Event()


def warm_up() -> None:
    """vl-convert starts its JavaScript engine on its first call (seconds on a loaded machine): started in the
    background (once per process) when a result with rows is shown, so that its first chart does not wait."""
    if _warm_up_started.is_set():
        return
    _warm_up_started.set()

    def draw_a_point() -> None:
        try:
            import vl_convert

            vl_convert.vegalite_to_svg({"mark": "point", "data": {"values": [{"a": 1}]},
                                        "encoding": {"x": {"field": "a", "type": "quantitative"}}})
        except Exception as exc:  # noqa: BLE001 - said again, with what to do, when a chart is drawn
            log.info("chart pictures unavailable: %s: %s", type(exc).__name__, exc)

    threading.Thread(target=draw_a_point, name="chart-picture-warm-up", daemon=True).start()


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
    interactive = st.toggle("Interactive", key=f"chart_interactive_{spool.operation}",
                            help="Tooltips, zoom and pan: Vega draws the chart in the browser, which blocks the page for "
                                 "about half a second at its first chart. Off: a picture drawn in the workbench.")
    _draw(build_chart(chart, kinds, mark, interactive=interactive), interactive)
    covered = f"all {chart.spooled:,} rows" if chart.complete else f"the {chart.spooled:,} rows spooled so far"
    st.caption(f"Aggregated in the gateway over {covered}: {len(chart.rows):,} points"
               + (f" ({chart.note})" if chart.note else "") + ".")


def _draw(chart: alt.Chart, interactive: bool) -> None:
    if not interactive:
        try:
            st.image(chart_image(chart), width="stretch")
            return
        except Exception as exc:  # noqa: BLE001 - vl-convert missing or failing: Vega in the browser still draws it
            log.warning("chart picture failed (%s: %s); drawn by Vega in the browser instead", type(exc).__name__, exc)
            st.caption("The chart picture could not be drawn here (see the workbench log; `pip install -r "
                       "requirements.txt` installs vl-convert-python): Vega draws it in the browser instead.")
    st.altair_chart(chart, width="stretch")
