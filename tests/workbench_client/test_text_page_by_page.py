"""fetch_pandas converts distinct text (and binary) page by page as pages arrive, as it does decimals, when the
first page holds the rows ``_repetitive`` samples; otherwise at the end as before. Either way the frame is
the one pyarrow gives for the whole result: every column kind, nulls, Unicode, the rows in order across pages."""
from __future__ import annotations

import pandas as pd
import pyarrow as pa

import workbench_client as dbapi
from workbench_client.decode import DEDUPLICATE_SAMPLE_ROWS, _page_by_page, pages_to_pandas
from rest_support import server  # noqa: F401 - fixture

# distinct Unicode text with nulls, distinct binary, repeated text, a decimal, a date, a timestamp, a double,
# over 3 partitions read in pages of 2,500 rows (4 pages, the first holding the sample's 2,048 rows)
QUERY = ("SELECT id, IF(id % 11 = 0, NULL, concat('ü€😀-', id)) AS s, CAST(CAST(id AS STRING) AS BINARY) AS b, "
         "IF(id % 7 = 0, NULL, concat('k', id % 3)) AS k, id * 1.5 AS d, date_add(DATE'2020-01-01', CAST(id % 1000 AS INT)) "
         "AS day, TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 86400) AS ts, id / 3 AS x "
         "FROM range(0, 9000, 1, 3)")


def test_text_converted_page_by_page_equals_the_whole_results_conversion_in_row_order(server):
    with dbapi.connect(server.url, page_rows=2500) as conn:
        cur = conn.cursor()
        whole = cur.execute(QUERY).fetch_arrow_table()
        frame = cur.execute(QUERY).fetch_pandas()
    pd.testing.assert_frame_equal(frame, whole.to_pandas(date_as_object=True))
    assert frame["id"].tolist() == list(range(9000))  # the pages' rows in order
    assert frame["s"].iloc[1] == "ü€😀-1" and frame["s"].iloc[8999] == "ü€😀-8999"
    assert frame["s"].isna().sum() == 9000 // 11 + 1 and frame["b"].iloc[2501] == b"2501"
    assert len({id(value) for value in frame["k"].dropna()}) == 3  # repeated text still shared, across pages
    first = whole.slice(0, 2500)
    assert [_page_by_page(column) for column in first.columns] == [False, True, True, False, True, False, False, False]


def test_which_columns_go_page_by_page_is_told_from_the_first_pages_sample():
    rows = DEDUPLICATE_SAMPLE_ROWS
    distinct = pa.chunked_array([pa.array([f"v{i}" for i in range(rows)])])
    assert _page_by_page(distinct)
    assert not _page_by_page(distinct.slice(0, rows - 1))  # fewer rows than the sample: text at the end
    assert not _page_by_page(pa.chunked_array([pa.array(["a", "b"] * rows)]))  # repeated: deduplicated at the end
    assert not _page_by_page(pa.chunked_array([pa.array(range(rows))]))
    assert _page_by_page(pa.chunked_array([pa.array([1] * 3, pa.decimal128(5, 1))]))  # decimals: always


def test_pages_of_uneven_sizes_with_an_empty_one_give_the_whole_tables_frame():
    count = 3 * DEDUPLICATE_SAMPLE_ROWS
    whole = pa.table({"s": [None if i % 5 == 0 else f"é{i}" for i in range(count)],
                      "b": [str(i).encode() for i in range(count)], "n": list(range(count))})
    cut = DEDUPLICATE_SAMPLE_ROWS + 1
    pages = [whole.slice(0, cut), whole.slice(cut, 0), whole.slice(cut, 7), whole.slice(cut + 7)]
    frame = pages_to_pandas(iter(pages))
    pd.testing.assert_frame_equal(frame, whole.to_pandas())
    assert frame["s"].iloc[cut + 3] == f"é{cut + 3}" and frame["s"].iloc[0] is None
    assert pages_to_pandas(iter([whole.slice(0, 0)])).shape == (0, 3)
