"""Editor helpers without a browser: statement at the cursor, Format SQL, error marks, chart defaults."""
import pytest

from gateway import Column, GatewayError
from ui.charts import COUNT, ChartSpec, build_chart, default_spec
from ui.editor_panel import markers_for, statement_at
from ui.results import frame_of
from ui.runs import Run

SCRIPT = "SELECT 1 AS a;\n\nSELECT *\nFROM range(3);\nSELECT 'x;y' AS s"


@pytest.mark.parametrize("cursor, expected", [
    (0, "SELECT 1 AS a"), (5, "SELECT 1 AS a"), (14, "SELECT 1 AS a"),
    (20, "SELECT *\nFROM range(3)"), (len(SCRIPT), "SELECT 'x;y' AS s"),
])
def test_statement_at_cursor(gateway, cursor, expected):
    text, offset = statement_at(gateway, SCRIPT, cursor)
    assert text == expected and SCRIPT[offset:offset + len(text)] == text


def test_format_sql_keeps_statements_and_rejects_what_it_cannot_parse(gateway):
    formatted = gateway.format_statement("select a,b from t where a>1; select 2")
    assert formatted.startswith("SELECT\n  a,\n  b\nFROM t\nWHERE\n  a > 1;") and formatted.endswith("SELECT\n  2;")
    with pytest.raises(GatewayError):
        gateway.format_statement("SELECT (((")


def test_error_mark_maps_the_statement_position_into_the_editor():
    text = "SELECT 1;\nSELECT x FROM\n  t WHERE )"
    offset = text.index("SELECT x")
    run = Run(text[offset:], offset, text, None, None,
              submit_error={"error_class": "PARSE_SYNTAX_ERROR", "root_cause": "near ')'", "line": 2,
                            "position": 10})
    assert markers_for(run, text) == [{"row": 2, "column": 10, "text": "PARSE_SYNTAX_ERROR: near ')'"}]
    first_line = Run("x FROM", offset + 7, text, None, None,
                     submit_error={"error_class": "E", "root_cause": "r", "line": 1, "position": 2})
    assert markers_for(first_line, text)[0] == {"row": 1, "column": 9, "text": "E: r"}


def col(name, kind):
    return Column(name, {"type": kind, "nullable": True})


def test_chart_defaults_follow_column_types():
    day, country, amount, n = col("day", "DATE"), col("country", "VARCHAR"), col("amount", "DECIMAL"), col("n", "BIGINT")
    spec = default_spec([day, country, amount], ["day", "country", "amount"])
    assert (spec.x, spec.y, spec.color, spec.mark) == ("day", "amount", "country", "line")
    spec = default_spec([country, n], ["country", "n"])
    assert (spec.x, spec.y, spec.mark) == ("country", "n", "bar")
    assert default_spec([country], ["country"]).y == COUNT
    assert default_spec([n, amount], ["n", "amount"]).mark == "point"
    frame = frame_of([day, country, amount], [["2024-01-01", "DE", 1.5], ["2024-01-02", "FR", 2.0]])
    names = ["day", "country", "amount"]
    bars = build_chart(frame, [day, country, amount], names, ChartSpec("country", "amount", None, "bar")).to_dict()
    assert bars["mark"]["type"] == "bar" and bars["encoding"]["y"]["aggregate"] == "sum"
    line = build_chart(frame, [day, country, amount], names, default_spec([day, country, amount], names)).to_dict()
    assert line["mark"]["type"] == "line" and line["encoding"]["x"]["type"] == "temporal"
    assert line["encoding"]["color"]["field"] == "country"


def test_duplicate_result_column_names_stay_apart():
    frame = frame_of([col("x", "BIGINT"), col("x", "BIGINT")], [[1, 2]])
    assert list(frame.columns) == ["x", "x_2"]


def test_function_description_splits_into_arguments_examples_and_since():
    from ui.functions_panel import sections
    parts = sections("\n    Arguments:\n      * a - x\n    Examples:\n      > SELECT f(1);\n       2\n    Since: 1.5.0\n")
    assert parts == {"Arguments": "      * a - x", "Examples": "      > SELECT f(1);\n       2", "Since": "1.5.0"}
