"""fetch_pandas's decimals are made from each value's unscaled integer (``decimal_objects``), not by
pyarrow (which formats each value as text and parses it back): the same ``Decimal`` value for value,
exponent and sign included, None for nulls; for Spark's decimals over real HTTP and for every
precision and scale Arrow holds (38 digits, negative scales, values past 64 bits, sliced pages)."""
from __future__ import annotations

import decimal
import random

import pyarrow as pa
import pytest

import workbench_client as dbapi
from workbench_client.decode import decimal_objects, pages_to_pandas, to_pandas
from rest_support import server  # noqa: F401 - fixture

EXACT = decimal.Context(prec=80)


def _same(ours, theirs) -> None:
    """Equal as text and as (sign, digits, exponent): ``Decimal('1.50') == Decimal('1.5')``, so == alone is not enough."""
    assert len(ours) == len(theirs)
    assert [None if v is None else (str(v), v.as_tuple()) for v in ours] == \
        [None if v is None else (str(v), v.as_tuple()) for v in theirs]


# precision, scale: Spark's defaults, 18/19 digits (the 64-bit edge), 38 digits at scales 0, 10 and 38,
# and a negative scale (Arrow allows it; Spark with spark.sql.legacy.allowNegativeScaleOfDecimal)
@pytest.mark.parametrize("precision,scale", [(1, 0), (5, 2), (18, 3), (19, 0), (23, 1), (38, 0), (38, 10),
                                             (38, 38), (20, -3)])
def test_every_precision_and_scale_equals_pyarrows_decimals_across_sliced_chunks(precision, scale):
    rng = random.Random(precision * 100 + scale)
    values = []
    for _ in range(3000):
        digits = rng.randint(1, precision)
        unscaled = rng.randint(-(10 ** digits - 1), 10 ** digits - 1)
        values.append(None if rng.random() < 0.1 else EXACT.scaleb(decimal.Decimal(unscaled), -scale))
    largest = EXACT.scaleb(decimal.Decimal(10 ** precision - 1), -scale)
    values += [largest, EXACT.minus(largest), decimal.Decimal(0).scaleb(-scale), None]
    array = pa.array(values, pa.decimal128(precision, scale))
    # pages as the client holds them: slices of one buffer (offsets), an empty page, then a slice of the whole
    column = pa.chunked_array([array.slice(0, 1000), array.slice(1000, 7), pa.array([], array.type),
                               array.slice(1007)]).slice(3)
    ours = decimal_objects(column)
    _same(list(ours), column.to_pandas().tolist())
    _same(list(ours), column.to_pylist())
    assert ours[-1] is None and str(ours[-4]) == str(largest)


def test_a_frame_with_decimals_beside_other_columns_keeps_each_column_in_place():
    table = pa.table({"d": pa.array([decimal.Decimal("1.5"), None, decimal.Decimal("-0.5")], pa.decimal128(23, 1)),
                      "s": ["a", "b", None], "e": pa.array([decimal.Decimal("7")] * 3, pa.decimal128(38, 0)),
                      "k": ["x", "x", "x"]})
    frame = to_pandas(table)
    expected = table.to_pandas()
    assert list(frame.columns) == ["d", "s", "e", "k"] and list(frame.dtypes) == list(expected.dtypes)
    for name in frame.columns:
        assert frame[name].tolist() == expected[name].tolist()
    _same(frame["d"].tolist(), expected["d"].tolist())
    assert frame["d"].iloc[1] is None


def test_pages_converted_as_they_come_give_the_frame_of_the_whole_table():
    """pages_to_pandas converts each page's decimals as it arrives: the joined frame is the whole table's."""
    whole = pa.table({"id": list(range(10)), "d": pa.array([decimal.Decimal(i).scaleb(-2) if i % 4 else None
                                                             for i in range(10)], pa.decimal128(10, 2)),
                      "big": pa.array([decimal.Decimal(10 ** 37 + i) for i in range(10)], pa.decimal128(38, 0)),
                      "s": [str(i) for i in range(10)]})
    pages = [whole.slice(0, 4), whole.slice(4, 0), whole.slice(4, 5), whole.slice(9)]
    frame = pages_to_pandas(iter(pages))
    expected = whole.to_pandas()
    assert list(frame.columns) == ["id", "d", "big", "s"] and list(frame.dtypes) == list(expected.dtypes)
    for name in ("d", "big"):
        _same(frame[name].tolist(), expected[name].tolist())
    assert frame["id"].tolist() == list(range(10)) and frame["s"].tolist() == expected["s"].tolist()
    assert pages_to_pandas(iter([])) is None


# Spark's own decimals: its default DECIMAL(23, 1) of id * 1.5 (the benchmark's column), 38 digits at
# scales 10 and 0 (values past 64 bits), a division's scale, negative values and nulls, over 4 pages
SPARK_DECIMALS = ("SELECT IF(id % 3 = 0, NULL, id * 1.5) AS d, (id - 4500) * 1.5 AS neg, "
                  "CAST(id AS DECIMAL(38, 10)) / 7 AS q, CAST(id AS DECIMAL(38, 0)) * 100000000000000000000 AS wide, "
                  "CAST(id - 4500 AS DECIMAL(38, 0)) * -9999999999999999999999999999999999 AS edge, "
                  "CAST(id / 10000 AS DECIMAL(5, 5)) AS tiny FROM range(0, 9000, 1, 3)")


def test_sparks_decimals_through_fetch_pandas_equal_pyarrows_and_the_rows_values(server):
    with dbapi.connect(server.url, page_rows=2500) as conn:
        cur = conn.cursor()
        whole = cur.execute(SPARK_DECIMALS).fetch_arrow_table()
        frame = cur.execute(SPARK_DECIMALS).fetch_pandas()
        rows = cur.execute(SPARK_DECIMALS).fetchall()
    expected = whole.to_pandas()
    assert [str(t) for t in whole.schema.types][:2] == ["decimal128(23, 1)", "decimal128(23, 1)"]
    for position, name in enumerate(frame.columns):
        assert frame[name].dtype == object
        _same(frame[name].tolist(), expected[name].tolist())
        _same(frame[name].tolist(), [row[position] for row in rows])
    assert frame["d"].isna().sum() == 3000 and str(frame["d"].iloc[1]) == "1.5"
    assert str(frame["neg"].iloc[0]) == "-6750.0" and max(map(abs, frame["edge"])) > 2 ** 64


def test_the_pyarrow_dtype_backend_is_asked_for_and_a_wrong_one_is_refused_before_fetching(server):
    """dtype_backend="pyarrow": ArrowDtype columns over the pages' own data (values as pyarrow holds them);
    the default stays Spark's toPandas() types; a backend the client has not is refused, the result kept."""
    import pandas as pd

    with dbapi.connect(server.url, page_rows=2500) as conn:
        cur = conn.cursor()
        whole = cur.execute(SPARK_DECIMALS).fetch_arrow_table()
        arrow_frame = cur.execute(SPARK_DECIMALS).fetch_pandas(dtype_backend="pyarrow")
        cur.execute(SPARK_DECIMALS)
        with pytest.raises(dbapi.ProgrammingError, match="dtype_backend='numpy'.*'pyarrow'"):
            cur.fetch_pandas(dtype_backend="numpy")
        default = cur.fetch_pandas()  # the refusal fetched nothing: every row is still there
    pd.testing.assert_frame_equal(arrow_frame, whole.to_pandas(types_mapper=pd.ArrowDtype))
    assert all(isinstance(dtype, pd.ArrowDtype) for dtype in arrow_frame.dtypes)
    assert arrow_frame["d"].isna().sum() == 3000 and arrow_frame["d"].iloc[1] == decimal.Decimal("1.5")
    assert len(default) == 9000 and all(dtype == object for dtype in default.dtypes)
    assert arrow_frame["q"].tolist() == default["q"].tolist()
