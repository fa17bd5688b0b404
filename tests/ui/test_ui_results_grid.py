"""The grid and the chart in Streamlit's AppTest: sort, search and filter ask the gateway for a page of the
whole result and say so; the chart draws the gateway's aggregate, at most a capped number of points."""
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import rerun_until_ended
from gateway import LOCAL_USER, ChartData, ChartSpec
from ui.charts import MAX_POINTS, build_chart, chart_image

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SQL = ("SELECT id, concat('k', CAST(id % 3 AS STRING)) AS kind, "
       "date_add(DATE'2024-01-01', CAST(id % 400 AS INT)) AS day FROM range(100000)")


def texts(elements):
    return " ".join(str(e.value) for e in elements)


@pytest.fixture()
def ran(gateway):
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.session_state["editor_request"] = {"action": "run_all", "text": SQL}
    at.run()
    rerun_until_ended(at, timeout_s=180)
    assert not at.exception, at.exception
    run = at.session_state["current_run"]
    assert run.status == "FINISHED", run.error
    yield at, str(run.operation)
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)


def widget(at, kind, key):
    return next(w for w in at.get(kind) if w.key == key)


def test_sort_search_and_filter_act_on_the_whole_result(ran):
    at, op = ran
    assert at.dataframe[0].value["id"].tolist()[:2] == [0, 1]
    assert "100,000 rows" in texts(at.caption)
    widget(at, "multiselect", f"grid_sort_{op}").select("id ↓").run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value["id"].tolist()[:3] == [99999, 99998, 99997]   # not 999: the whole result
    assert "sorted by id ↓ over all 100,000 rows" in texts(at.caption)
    widget(at, "text_input", f"grid_search_{op}").input("k2").run()
    assert "33,333 of 100,000 rows match" in texts(at.caption)
    assert set(at.dataframe[0].value["kind"]) == {"k2"} and at.dataframe[0].value["id"].iloc[0] == 99998
    widget(at, "text_input", f"grid_search_{op}").input("").run()
    widget(at, "selectbox", f"grid_filter_column_{op}").select("id").run()
    widget(at, "selectbox", f"grid_filter_op_{op}").select(">=").run()
    widget(at, "text_input", f"grid_filter_value_{op}").input("99990").run()
    assert at.dataframe[0].value["id"].tolist() == list(range(99999, 99989, -1))
    assert "10 of 100,000 rows match" in texts(at.caption)
    widget(at, "text_input", f"grid_filter_value_{op}").input("lots").run()
    assert not at.exception and "'lots' is not a value of its type int64; give a number" in texts(at.warning)
    assert {b.proto.id.split("-")[-1] for b in at.get("download_button")} >= {"download_csv", "download_parquet",
                                                                             "download_jsonl"}


def test_the_chart_is_built_only_while_its_tab_is_open(ran):
    """A hidden chart was aggregated, sent and laid out by Vega again on every rerun of the grid."""
    at, op = ran
    assert not any(w.key == f"chart_x_{op}" for w in at.selectbox) and not at.get("image") and not at.get("vega_lite_chart")
    at.session_state[f"result_view_{op}"] = "Chart"
    at.run()
    assert not at.exception, at.exception
    assert any(w.key == f"chart_x_{op}" for w in at.selectbox) and not at.dataframe   # the grid waits now


def test_chart_draws_the_gateways_aggregate_with_sensible_defaults(ran):
    at, op = ran
    at.session_state[f"result_view_{op}"] = "Chart"
    at.run()
    assert widget(at, "selectbox", f"chart_x_{op}").value == "day"      # a date on x
    assert widget(at, "selectbox", f"chart_y_{op}").value == "id"       # a measure on y
    assert widget(at, "selectbox", f"chart_color_{op}").value == "kind"  # three values: a colour
    caption = texts(at.caption)
    assert "Aggregated in the gateway over all 100,000 rows" in caption and "day by" in caption
    widget(at, "selectbox", f"chart_x_{op}").select("id").run()
    widget(at, "selectbox", f"chart_color_{op}").select("(none)").run()
    assert not at.exception, at.exception
    assert f"{MAX_POINTS:,} bins" in texts(at.caption)


def test_chart_is_a_picture_unless_asked_to_be_interactive(ran):
    """The first Vega chart of a page blocked the browser's main thread for 546 ms (issue 31): the chart comes as
    an SVG that Vega drew in the workbench; "Interactive" hands it to Vega in the browser."""
    at, op = ran
    at.session_state[f"result_view_{op}"] = "Chart"
    at.run()
    assert not at.exception, at.exception
    assert not at.get("vega_lite_chart")
    pictures = [image.url for element in at.get("image") for image in element.proto.imgs]
    assert len(pictures) == 1 and pictures[0].startswith("data:image/svg+xml")
    assert "Aggregated in the gateway" in texts(at.caption)
    widget(at, "toggle", f"chart_interactive_{op}").set_value(True).run()
    assert not at.exception, at.exception
    assert len(at.get("vega_lite_chart")) == 1 and not at.get("image")


def test_chart_picture_draws_every_aggregated_point():
    data = ChartData(ChartSpec("kind", "amount", "sum"), ["kind", "sum of amount"],
                     [["a", 3.0], ["b", 4.5], ["c", 1.0]], 3, 10, True)
    svg = chart_image(build_chart(data, {"kind": "nominal"}, "bar", interactive=False))
    assert svg.startswith("<svg") and svg.count('aria-roledescription="bar"') == 3
    assert "Sum of amount" in svg


def test_built_chart_encodes_the_aggregated_points():
    data = ChartData(ChartSpec("day", "amount", "sum", "kind"), ["day", "kind", "sum of amount"],
                     [["2024-01-01", "a", 3.0], ["2024-02-01", "b", 4.5]], 2, 10, True)
    spec = build_chart(data, {"day": "temporal", "kind": "nominal"}, "line").to_dict()
    assert spec["mark"]["type"] == "line" and spec["encoding"]["x"]["type"] == "temporal"
    assert spec["encoding"]["y"]["title"] == "Sum of amount" and "aggregate" not in spec["encoding"]["y"]
    assert spec["encoding"]["color"]["field"] == "kind"
    assert len(next(iter(spec["datasets"].values()))) == 2
