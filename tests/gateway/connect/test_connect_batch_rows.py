"""A gateway session on Connect asks the server for Arrow batches of the result buffer's rows (the session's
spark.sql.execution.arrow.maxRecordsPerBatch, gateway/spark/connect.py ``session_defaults``) unless its opener set
that key; the values, their nulls and their order are the server's own, page after page."""
from __future__ import annotations

import time

import pyarrow as pa

from gateway.models import ResultType
from gateway.spark.connect import BATCH_ROWS_CONF

# every column kind the workbench shows, nulls in some, text beyond ASCII; more rows than two pages
QUERY = ("SELECT id, CASE WHEN id % 7 = 0 THEN NULL ELSE id * 1.5 END AS d, CAST(id AS DOUBLE) / 3 AS x, "
         "CASE WHEN id % 11 = 0 THEN NULL ELSE concat('ünï-', CAST(id AS STRING), '-✓ 日本') END AS s, "
         "id % 2 = 0 AS b, date_add(DATE'2020-01-01', CAST(id % 1000 AS INT)) AS day, "
         "TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 86400) AS ts, "
         "CAST(CAST(id AS STRING) AS BINARY) AS bin, array(id, NULL, id + 1) AS arr, map('k', id) AS m, "
         "named_struct('a', id, 'b', CAST(id AS STRING)) AS st FROM range(50000)")


def _pages(gateway, session, operation) -> list:
    token, tables = 0, []
    deadline = time.monotonic() + 180
    while token is not None:
        assert time.monotonic() < deadline, "no end of the result in time"
        page = gateway.fetch_results(session, operation, token, max_rows=100_000)
        if page.result_type is ResultType.NOT_READY:
            continue  # the fetch itself waited (result.fetch_wait_ms) for rows
        assert page.result_type in (ResultType.PAYLOAD, ResultType.EOS), page.exception
        tables.append(page.arrow)
        token = page.next_token
    return tables


def test_a_connect_session_asks_for_batches_of_the_buffers_rows(connect_gateway, connect_session):
    bound = connect_gateway.config["result.buffer_max_rows"]  # 20,000 in the connect tests (connect_support)
    assert connect_gateway.get_session_config(connect_session)[BATCH_ROWS_CONF] == str(bound)


def test_a_value_given_at_open_wins(connect_gateway):
    handle = connect_gateway.open_session({BATCH_ROWS_CONF: "1234"}, name="own-batches")
    try:
        assert connect_gateway.get_session_config(handle)[BATCH_ROWS_CONF] == "1234"
    finally:
        connect_gateway.close_session(handle)


def test_pages_of_big_batches_hold_the_servers_values_in_order(connect_gateway, connect_session, connect_server):
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    operation = connect_gateway.execute_statement(connect_session, QUERY)
    tables = _pages(connect_gateway, connect_session, operation)
    bound = connect_gateway.config["result.buffer_max_rows"]
    sizes = [t.num_rows for t in tables]  # two partitions of 25,000: a batch of the bound and the rest, twice
    assert max(sizes) == bound and sum(sizes) == 50_000 and len(sizes) <= 4, sizes
    ours = pa.concat_tables(tables)
    spark = ConnectSession.builder.remote(connect_server.url).create()  # pyspark's own client, 10,000-row batches
    try:
        theirs = spark.sql(QUERY).toArrow()
    finally:
        spark.stop()
    assert ours.column_names == theirs.column_names
    for name in ours.column_names:
        mine, server = ours.column(name).combine_chunks(), theirs.column(name).combine_chunks()
        if name == "ts":  # the same instants, labelled with each session's time zone (the gateway's: Etc/UTC)
            server = server.cast(mine.type)
        assert mine.type == server.type and mine.equals(server), name
    assert ours.column("id").to_pylist() == list(range(50_000))  # the order across pages and batches
    assert ours.column("s").null_count == len(range(0, 50_000, 11))
    assert ours.column("s")[1].as_py() == "ünï-1-✓ 日本"


def test_short_batches_at_partition_ends_are_topped_up_and_whole_batches_not_copied():
    from gateway.spark.connect import _combined

    def batch(start: int, rows: int) -> pa.RecordBatch:
        return pa.record_batch({"id": pa.array(range(start, start + rows), pa.int64()),
                                "s": pa.array([f"ü{i}" for i in range(start, start + rows)])})

    # two partitions of 25,000 rows in batches of the bound (20,000), each ending with a short one
    batches = [batch(0, 20_000), batch(20_000, 5_000), batch(25_000, 20_000), batch(45_000, 5_000)]
    pages = list(_combined(iter(batches), 20_000, 8 << 20))
    assert [p.num_rows for p in pages] == [20_000, 20_000, 10_000]
    assert pages[0] is batches[0]  # a batch of the bound goes on as it is: no copy
    assert pa.Table.from_batches(pages).column("id").to_pylist() == list(range(50_000))
    assert pa.Table.from_batches(pages).column("s").to_pylist()[20_000:20_002] == ["ü20000", "ü20001"]
    # the byte bound still starts a new group before a batch that would pass it
    assert [p.num_rows for p in _combined(iter(batches), 20_000, batches[1].nbytes + 1)] == \
        [20_000, 5_000, 20_000, 5_000]
