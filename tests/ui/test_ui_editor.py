"""Editor helpers without a browser: statement at the cursor, Format SQL, error marks (chart: test_ui_charts.py)."""
import pytest

from gateway import Column, GatewayError
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


def test_duplicate_result_column_names_stay_apart():
    frame = frame_of([col("x", "BIGINT"), col("x", "BIGINT")], [[1, 2]])
    assert list(frame.columns) == ["x", "x_2"]


def test_function_description_splits_into_arguments_examples_and_since():
    from ui.functions_panel import sections
    parts = sections("\n    Arguments:\n      * a - x\n    Examples:\n      > SELECT f(1);\n       2\n    Since: 1.5.0\n")
    assert parts == {"Arguments": "      * a - x", "Examples": "      > SELECT f(1);\n       2", "Since": "1.5.0"}


def test_error_text_is_plain_with_class_and_sqlstate_once():
    from ui.results import error_message
    error = {"error_class": "TABLE_OR_VIEW_NOT_FOUND", "sqlstate": "42P01",
             "root_cause": "[TABLE_OR_VIEW_NOT_FOUND] The table or view `x` cannot be found. SQLSTATE: 42P01; "
                           "line 1 pos 14;\n'Project [$anonfun$apply$1]"}
    message = error_message(error)
    assert message.startswith("The table or view `x` cannot be found.") and "42P01" not in message
    assert "TABLE_OR_VIEW_NOT_FOUND" not in message and "$anonfun$apply$1" in message
    assert error_message({"root_cause": "plain"}) == "plain"


def test_number_columns_are_right_aligned_and_one_row_is_singular():
    from ui.results import column_labels, rows_label
    labels = column_labels([col("n", "BIGINT"), col("s", "STRING"), col("d", "DOUBLE")], ["n", "s", "d"])
    assert labels["n"]["alignment"] == "right" and labels["d"]["alignment"] == "right"
    assert labels["s"].get("alignment") is None
    assert [rows_label(n) for n in (0, 1, 2, 1234)] == ["0 rows", "1 row", "2 rows", "1,234 rows"]
