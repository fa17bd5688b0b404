"""fetch_pandas's conversion over real HTTP and Spark: distinct text is converted without pyarrow's
deduplication (hashing every value cost most of the conversion), repeated text and dates over a short
span keep it (one shared object per value), each column as suits it, and either way the frame is the
one pyarrow's deduplicating conversion gives."""
from __future__ import annotations

import pandas as pd

import workbench_client as dbapi
from workbench_client.decode import _repetitive
from rest_support import server  # noqa: F401 - fixture

QUERY = ("SELECT id, CAST(id AS STRING) AS s, IF(id % 7 = 0, NULL, concat('k', id % 3)) AS k, "
         "IF(id % 5 = 0, NULL, CAST(CAST(id AS STRING) AS BINARY)) AS b, date_add(DATE'2020-01-01', CAST(id % 9 AS INT)) AS day "
         "FROM range(0, 9000, 1, 3)")


def test_frames_equal_the_deduplicating_conversion_and_repeated_text_is_shared(server):
    with dbapi.connect(server.url, page_rows=2000) as conn:
        cur = conn.cursor()
        whole = cur.execute(QUERY).fetch_arrow_table()
        expected = whole.to_pandas(date_as_object=True, deduplicate_objects=True)
        frame = cur.execute(QUERY).fetch_pandas()
        pd.testing.assert_frame_equal(frame, expected)
        assert frame["k"].isna().sum() == 9000 // 7 + 1 and frame["b"].iloc[1] == b"1"
        # repeated text: each page's equal values are one object (memory), as pyarrow deduplicates
        first_page = frame["k"].iloc[:2000].dropna()
        assert len({id(v) for v in first_page}) == 3
        distinct = cur.execute("SELECT CAST(id AS STRING) AS s, id FROM range(0, 5000, 1, 2)").fetch_arrow_table()
        assert not any(map(_repetitive, distinct.columns)) and _repetitive(whole.column("k"))
        pd.testing.assert_frame_equal(cur.execute("SELECT CAST(id AS STRING) AS s, id FROM range(0, 5000, 1, 2)")
                                      .fetch_pandas(), distinct.to_pandas(deduplicate_objects=True))


# distinct text beside dates over 9 days (with nulls), a column name twice, a date column over many days
MIXED = ("SELECT id, CAST(id AS STRING) AS s, IF(id % 4 = 0, NULL, date_add(DATE'2020-01-01', CAST(id % 9 AS INT))) "
         "AS day, date_add(DATE'1900-01-01', CAST(id AS INT)) AS wide, CAST(id * 2 AS STRING) AS s "
         "FROM range(0, 9000, 1, 3)")


def test_dates_over_a_short_span_are_shared_beside_distinct_text_and_the_frame_is_unchanged(server):
    with dbapi.connect(server.url, page_rows=2000) as conn:
        cur = conn.cursor()
        whole = cur.execute(MIXED).fetch_arrow_table()
        frame = cur.execute(MIXED).fetch_pandas()
    assert [_repetitive(column) for column in whole.columns] == [False, False, True, False, False]
    pd.testing.assert_frame_equal(frame, whole.to_pandas(date_as_object=True, deduplicate_objects=True))
    pd.testing.assert_frame_equal(frame, whole.to_pandas(date_as_object=True, deduplicate_objects=False))
    assert list(frame.columns) == ["id", "s", "day", "wide", "s"]
    assert frame.iloc[:, 4].iloc[3] == "6" and frame.iloc[:, 1].iloc[3] == "3"  # each "s" in its own place
    days = frame["day"].dropna()
    assert frame["day"].isna().sum() == 9000 // 4 and len(set(days)) == 9
    assert len({id(value) for value in days}) == 9  # one object per distinct date


# decimals (with nulls, and one of precision 38), text with nulls, binary, a nested column, over 5 pages
OBJECTS = ("SELECT id, IF(id % 3 = 0, NULL, id * 1.5) AS d, CAST(id AS DECIMAL(38, 10)) / 7 AS big, "
           "IF(id % 5 = 0, NULL, CAST(id AS STRING)) AS s, CAST(CAST(id AS STRING) AS BINARY) AS b, "
           "array(id, id + 1) AS a, date_add(DATE'2020-01-01', CAST(id AS INT)) AS day FROM range(0, 9000, 1, 3)")


def test_every_kind_of_column_equals_pyarrows_conversion_also_from_a_read_position(server):
    with dbapi.connect(server.url, page_rows=2000) as conn:
        cur = conn.cursor()
        whole = cur.execute(OBJECTS).fetch_arrow_table()
        frame = cur.execute(OBJECTS).fetch_pandas()
        tail = cur.execute(OBJECTS + " ORDER BY id")
        first = tail.fetchmany(2500)  # fetch_pandas goes on from the read position, inside a page
        rest = tail.fetch_pandas()
    pd.testing.assert_frame_equal(frame, whole.to_pandas(date_as_object=True))
    assert frame["d"].isna().sum() == 3000 and str(frame["d"].iloc[1]) == "1.5"
    assert str(frame["big"].iloc[7]) == str(whole.column("big")[7].as_py())
    assert frame["a"].iloc[2].tolist() == [2, 3] and frame["b"].iloc[4] == b"4"
    assert len(first) == 2500 and len(rest) == 6500 and rest["id"].iloc[0] == 2500
    pd.testing.assert_frame_equal(rest, whole.slice(2500).to_pandas(date_as_object=True))
