"""fetch_pandas's conversion over real HTTP and Spark: distinct text is converted without pyarrow's
deduplication (hashing every value cost most of the conversion), repeated text keeps it (one shared
object per value), and either way the frame is the one pyarrow's deduplicating conversion gives."""
from __future__ import annotations

import pandas as pd

import workbench_client as dbapi
from workbench_client.decode import _repetitive_text
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
        assert not _repetitive_text(distinct) and _repetitive_text(whole)
        pd.testing.assert_frame_equal(cur.execute("SELECT CAST(id AS STRING) AS s, id FROM range(0, 5000, 1, 2)")
                                      .fetch_pandas(), distinct.to_pandas(deduplicate_objects=True))
