"""A big result on the connect engine, page by page: the server's Arrow batches (as long as the buffer's bound,
short at a partition's end) are combined up to the result buffer's bounds and no further, so the buffer holds at
most its bound and each full page holds the buffer's rows (a batch combined past the bound came out as two uneven
pages); the token protocol is unchanged (the same token replays its page, the end comes with the last rows)."""
from __future__ import annotations

import time

import pyarrow as pa

from gateway.models import ResultType

QUERY = "SELECT id, CAST(id AS STRING) AS s, date_add(DATE'2020-01-01', CAST(id % 500 AS INT)) AS day FROM range(100000)"


def test_pages_hold_the_buffers_rows_and_the_buffer_its_bound(connect_gateway, connect_session):
    bound = connect_gateway.config["result.buffer_max_rows"]  # 20,000 in the connect tests (connect_support)
    operation = connect_gateway.execute_statement(connect_session, QUERY)
    token, sizes, tables = 0, [], []
    deadline = time.monotonic() + 180
    while token is not None:
        assert time.monotonic() < deadline, "no end of the result in time"
        page = connect_gateway.fetch_results(connect_session, operation, token, max_rows=10 * bound)
        if page.result_type is ResultType.NOT_READY:
            continue  # the fetch itself waited (result.fetch_wait_ms) for rows
        assert page.result_type in (ResultType.PAYLOAD, ResultType.EOS), page.exception
        again = connect_gateway.fetch_results(connect_session, operation, token, max_rows=10 * bound)
        assert again.arrow.equals(page.arrow) and again.next_token == page.next_token  # a retry replays it
        sizes.append(page.arrow.num_rows)
        tables.append(page.arrow)
        token = page.next_token
    fetcher = connect_gateway.operation_fetcher(connect_session, operation)
    assert sizes == [bound] * (100_000 // bound), sizes  # the last rows came with EOS, no empty page after
    assert fetcher.peak_rows <= bound
    whole = pa.concat_tables(tables)
    assert whole.column("id").to_pylist() == list(range(100_000))
    assert whole.column("s").to_pylist()[99_999] == "99999"
    assert whole.column("day").to_pylist()[501].isoformat() == "2020-01-02"
