import datetime as dt

import pyarrow as pa
from pyspark.sql import types as T

from gateway.serialization import arrow_rows, type_json, type_name


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
