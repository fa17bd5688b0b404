import datetime as dt
import gc

import pyarrow as pa
from pyspark.sql import types as T

from gateway.core.serialization import arrow_rows, type_json, type_name


def test_type_json_follows_the_seed_appendix():
    assert type_json(T.LongType(), False) == {"type": "BIGINT", "nullable": False}
    assert type_json(T.VarcharType(10)) == {"type": "VARCHAR", "nullable": True, "length": 10}
    assert type_json(T.CharType(3)) == {"type": "CHAR", "nullable": True, "length": 3}
    assert type_json(T.DecimalType(12, 3)) == {"type": "DECIMAL", "nullable": True, "precision": 12, "scale": 3}
    assert type_json(T.TimestampType())["type"] == "TIMESTAMP_LTZ"
    assert type_json(T.TimestampNTZType()) == {"type": "TIMESTAMP", "nullable": True, "precision": 6}
    nested = type_json(T.StructType([T.StructField("a", T.ArrayType(T.IntegerType(), False), False),
                                     T.StructField("m", T.MapType(T.StringType(), T.DoubleType()))]))
    assert nested["type"] == "ROW"
    assert nested["fields"][0] == {"name": "a", "fieldType": {
        "type": "ARRAY", "nullable": False, "elementType": {"type": "INTEGER", "nullable": False}}}
    assert nested["fields"][1]["fieldType"]["keyType"]["type"] == "VARCHAR"
    assert type_name(nested) == "ROW<a ARRAY<INTEGER>, m MAP<STRING, DOUBLE>>"


def test_rows_are_json_ready():
    table = pa.table({
        "i": pa.array([1, None], pa.int64()),
        "d": pa.array([dt.date(2020, 1, 2), None]),
        "ts": pa.array([dt.datetime(2020, 1, 1, 10, 0, 0), None], pa.timestamp("us", tz="UTC")),
        "ntz": pa.array([dt.datetime(2020, 1, 1, 10, 0, 0), None], pa.timestamp("us")),
        "b": pa.array([b"ab", None], pa.binary()),
        "dec": pa.array([1, None], pa.decimal128(4, 2)),
        "big": pa.array([12345678901234567890, None], pa.decimal128(38, 0)),
        "f": pa.array([float("nan"), 1.5]),
        "m": pa.array([[("k", 1)], None], pa.map_(pa.string(), pa.int32())),
        "s": pa.array([{"x": dt.date(2021, 5, 6)}, None], pa.struct([("x", pa.date32())])),
    })
    first, second = arrow_rows(table)
    assert first == [1, "2020-01-02", "2020-01-01T10:00:00.000000Z", "2020-01-01T10:00:00.000000", "YWI=",
                     1.0, "12345678901234567890", "nan", {"k": 1}, {"x": "2021-05-06"}]
    assert second == [None, None, None, None, None, None, None, 1.5, None, None]


def test_timestamps_have_one_text_form_top_level_and_nested():
    instant = dt.datetime(2020, 1, 1, 10, 0, 0)
    with_micros = dt.datetime(2020, 1, 1, 10, 0, 0, 1500)
    ltz, ntz = pa.timestamp("us", tz="UTC"), pa.timestamp("us")
    table = pa.table({
        "ltz": pa.array([instant, with_micros], ltz),
        "ntz": pa.array([instant, with_micros], ntz),
        "ltz_list": pa.array([[instant], [with_micros]], pa.list_(ltz)),
        "ntz_struct": pa.array([{"t": instant}, {"t": with_micros}], pa.struct([("t", ntz)])),
        "ltz_map": pa.array([[("k", instant)], [("k", with_micros)]], pa.map_(pa.string(), ltz)),
    })
    first, second = arrow_rows(table)
    assert first == ["2020-01-01T10:00:00.000000Z", "2020-01-01T10:00:00.000000",
                     ["2020-01-01T10:00:00.000000Z"], {"t": "2020-01-01T10:00:00.000000"},
                     {"k": "2020-01-01T10:00:00.000000Z"}]
    assert second == ["2020-01-01T10:00:00.001500Z", "2020-01-01T10:00:00.001500",
                      ["2020-01-01T10:00:00.001500Z"], {"t": "2020-01-01T10:00:00.001500"},
                      {"k": "2020-01-01T10:00:00.001500Z"}]


def test_zoned_timestamps_are_written_in_utc():
    utc = pa.array([dt.datetime(2020, 7, 1, 12, 0, 0), None], pa.timestamp("us", tz="UTC"))
    new_york = utc.cast(pa.timestamp("us", tz="America/New_York"))
    nested = pa.array([[v] for v in new_york.to_pylist()], pa.list_(new_york.type))
    rows = arrow_rows(pa.table({"ts": new_york, "nested": nested}))
    assert rows == [["2020-07-01T12:00:00.000000Z", ["2020-07-01T12:00:00.000000Z"]], [None, [None]]]


def test_floats_are_numbers_unless_not_finite():
    finite = pa.array([1.5, None, -0.25], pa.float64())
    mixed = pa.array([1.5, float("inf"), float("-inf"), None], pa.float32())
    assert [r[0] for r in arrow_rows(pa.table({"f": finite}))] == [1.5, None, -0.25]
    assert [r[0] for r in arrow_rows(pa.table({"f": mixed}))] == [1.5, "inf", "-inf", None]
    assert arrow_rows(pa.table({"f": pa.array([None, None], pa.float64())})) == [[None], [None]]


def test_row_building_leaves_the_cycle_collector_as_it_was():
    table = pa.table({"i": pa.array(range(5000), pa.int64())})
    assert gc.isenabled()
    assert len(arrow_rows(table)) == 5000
    assert gc.isenabled()
    gc.disable()
    try:
        arrow_rows(table)
        assert not gc.isenabled()  # turned off by someone else: it stays off
    finally:
        gc.enable()
