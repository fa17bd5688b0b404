"""Spark failures mapped once (gateway/spark/errors.py), through the gateway's execute/fetch path
on a real local Spark: Spark's error class and the real root cause, never ``Py4JJavaError``."""
from __future__ import annotations

from pathlib import Path

import pytest
from py4j.protocol import Py4JJavaError
from pyspark.errors import AnalysisException, ParseException

from conftest import run_all
from gateway.errors import GatewayError, InternalError, InvalidRequestError
from gateway.spark.errors import describe_failure, is_engine_failure
from gateway.core.serialization import error_json

PYTHON_UDFS = b'''
def refuse(x):
    raise ValueError("refused value %s" % x)


def needs_a_module(x):
    import workbench_no_such_module_on_executors
    return x
'''


def failure(gateway, session, statement) -> dict:
    page = run_all(gateway, session, statement)[2]
    assert page.exception is not None, f"{statement} did not fail"
    return page.exception


def spark_of(gateway, session):
    return gateway.sessions.get(session).spark


# -- a table whose files were deleted behind Spark's back -----------------------------------------

@pytest.fixture
def table_without_files(gateway, session):
    spark = spark_of(gateway, session)
    spark.sql("DROP TABLE IF EXISTS errors_gone")
    spark.sql("CREATE TABLE errors_gone USING parquet AS SELECT id FROM range(100)")
    assert run_all(gateway, session, "SELECT count(*) FROM errors_gone")[1] == [[100]]  # Spark lists the files
    location = spark.sql("DESCRIBE TABLE EXTENDED errors_gone").where("col_name = 'Location'").first()[1]
    deleted = [f.unlink() for f in Path(location.removeprefix("file:")).glob("*.parquet")]
    assert deleted
    yield "errors_gone"
    spark.sql("DROP TABLE IF EXISTS errors_gone")


@pytest.mark.parametrize("statement", ["SELECT * FROM errors_gone", "SELECT count(*) FROM errors_gone"],
                         ids=["streamed", "collected"])
def test_a_read_of_deleted_files_reports_sparks_error_class(gateway, session, table_without_files, statement):
    error = failure(gateway, session, statement)
    assert error["error_class"] == "FAILED_READ_FILE.FILE_NOT_EXIST", error["root_cause"][:300]
    assert error["sqlstate"] == "KD001"
    assert error["root_cause"].startswith("[FAILED_READ_FILE.FILE_NOT_EXIST] Encountered error while reading file")
    assert "REFRESH TABLE" in error["root_cause"]
    for wrapper in ("Py4JJavaError", "An error occurred while calling", "awaitResult", "\tat "):
        assert wrapper not in error["root_cause"]
    assert "path" in error["message_parameters"]
    assert "FileNotFoundException" in error["exception_stack"]  # the whole story is still there


def test_the_raw_py4j_error_of_a_streamed_read_unwraps_to_the_spark_error(gateway, session, table_without_files):
    from gateway.spark.arrow_stream import ArrowBatchStream

    df = spark_of(gateway, session).sql("SELECT * FROM errors_gone")
    with pytest.raises(Py4JJavaError) as raised:
        list(ArrowBatchStream(df, df.schema, "UTC").start())
    assert "awaitResult" in str(raised.value)  # what pyspark hands over
    error = describe_failure(raised.value)
    assert (error["error_class"], error["sqlstate"]) == ("FAILED_READ_FILE.FILE_NOT_EXIST", "KD001")
    assert is_engine_failure(raised.value)


# -- syntax and analysis errors keep their position ------------------------------------------------

def test_a_syntax_error_keeps_line_and_position(gateway, session):
    error = failure(gateway, session, "SELECT 1;\nSELECT 2;\nSELECT 1 +")
    assert (error["error_class"], error["sqlstate"]) == ("PARSE_SYNTAX_ERROR", "42601")
    assert (error["line"], error["position"], error["statement_index"]) == (3, 10, 2)


def test_an_analysis_error_points_at_the_unresolved_name(gateway, session):
    statement = "SELECT 1 AS one,\n       nope + 1 FROM range(2)"
    with pytest.raises(AnalysisException) as raised:
        spark_of(gateway, session).sql(statement)
    error = describe_failure(raised.value, statement, line_offset=4, statement_index=1)
    assert error["error_class"].startswith("UNRESOLVED_COLUMN.") and error["sqlstate"] == "42703"
    assert (error["line"], error["position"], error["statement_index"]) == (6, 7, 1)
    assert error["message_parameters"]["objectName"] == "`nope`"


def test_pysparks_own_parse_error_keeps_its_condition(gateway, session):
    with pytest.raises(ParseException) as raised:
        spark_of(gateway, session).sql("SELEC 1")
    error = describe_failure(raised.value, "SELEC 1")
    assert (error["error_class"], error["sqlstate"], error["line"], error["position"]) == \
        ("PARSE_SYNTAX_ERROR", "42601", 1, 0)


# -- Python UDFs failing inside an executor -------------------------------------------------------

@pytest.fixture
def python_udfs(gateway, session):
    info = gateway.upload_jar(session, "errors_udfs.py", PYTHON_UDFS)
    for name, target in (("refuse", "refuse"), ("needs_a_module", "needs_a_module")):
        gateway.configure_session(session, f"CREATE TEMPORARY FUNCTION {name} AS 'errors_udfs.{target}' "
                                           f"LANGUAGE PYTHON USING JAR '{info.path}'")
    return session


@pytest.mark.parametrize("statement", ["SELECT refuse(id) FROM range(3000)", "SELECT refuse(id) FROM range(3) LIMIT 1"],
                         ids=["streamed", "collected"])
def test_a_python_udf_error_reads_as_the_python_exception(gateway, python_udfs, statement):
    error = failure(gateway, python_udfs, statement)
    assert error["root_cause"].startswith("ValueError: refused value "), error["root_cause"][:300]
    assert (error["error_class"], error["python_error"]) == ("PYTHON_EXCEPTION", "ValueError")
    assert error["exception_stack"].startswith("Python worker traceback:\nTraceback (most recent call last):")
    assert 'raise ValueError("refused value %s" % x)' in error["exception_stack"]


@pytest.mark.parametrize("statement", ["SELECT needs_a_module(id) FROM range(3000)",
                                       "SELECT needs_a_module(id) FROM range(3) LIMIT 1"],
                         ids=["streamed", "collected"])
def test_a_module_missing_on_the_executors_reads_as_that(gateway, python_udfs, statement):
    error = failure(gateway, python_udfs, statement)
    assert error["root_cause"] == "ModuleNotFoundError: No module named 'workbench_no_such_module_on_executors'"
    assert error["python_error"] == "ModuleNotFoundError"


def test_a_script_names_the_failing_statement_before_the_python_error(gateway, python_udfs):
    error = failure(gateway, python_udfs, "SELECT 1;\nSELECT refuse(id) FROM range(3000)")
    assert error["root_cause"].startswith("statement 2 of 2 (line 2) failed: ValueError: refused value ")


# -- engine failures and bugs of ours --------------------------------------------------------------

def test_engine_failures_are_told_from_bugs(gateway, session):
    with pytest.raises(AnalysisException) as analysis:
        spark_of(gateway, session).sql("SELECT * FROM errors_no_such_table")
    assert is_engine_failure(analysis.value)
    for bug in (KeyError("k"), TypeError("unsupported operand"), AttributeError("x"), InternalError("bug")):
        assert not is_engine_failure(bug)
    bug = describe_failure(KeyError("statement_index"))
    assert (bug["error_class"], bug["root_cause"], bug["sqlstate"]) == ("KeyError", "'statement_index'", None)
    assert InternalError("x").http_status == 500 and issubclass(InternalError, GatewayError)


def test_a_gateway_error_keeps_its_own_json():
    error = error_json(InvalidRequestError("position must be an integer"))
    assert (error["error_class"], error["root_cause"]) == ("InvalidRequestError", "position must be an integer")
