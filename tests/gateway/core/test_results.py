"""ResultFetcher on its own: the token protocol and the bounded buffer, with real Arrow batches."""
import threading

import pyarrow as pa
import pytest

from gateway.errors import InvalidTokenError, OperationStateError
from gateway.models import Column, ResultType
from gateway.core.results import ResultFetcher


def batch(start, n):
    return pa.record_batch({"id": pa.array(range(start, start + n), pa.int64())})


def fetcher(max_rows=100, page_rows=10):
    f = ResultFetcher(max_rows=max_rows, max_bytes=1 << 30, page_rows=page_rows, fetch_wait_s=0.0)
    f.set_columns([Column("id", {"type": "BIGINT", "nullable": False})])
    return f


def test_pages_follow_tokens_and_replay():
    f = fetcher()
    f.put(batch(0, 25))
    f.finish()
    first = f.fetch(0)
    assert first.result_type == ResultType.PAYLOAD and first.next_token == 1
    assert [r[0] for r in first.rows] == list(range(10))
    assert f.fetch(0) is first  # a retry gets the same page
    second = f.fetch(1)
    assert [r[0] for r in second.rows] == list(range(10, 20))
    assert f.fetch(1).rows == second.rows
    last = f.fetch(2)
    assert last.result_type == ResultType.EOS and last.next_token is None
    assert [r[0] for r in last.rows] == list(range(20, 25))


def test_the_last_batch_ends_the_result_in_the_same_page():
    f = fetcher(page_rows=10)
    f.put(batch(0, 10))
    f.put(batch(10, 5), last=True)
    first, second = f.fetch(0), f.fetch(1)
    assert first.result_type == ResultType.PAYLOAD and len(first.rows) == 10
    assert second.result_type == ResultType.EOS and second.next_token is None
    assert [r[0] for r in second.rows] == list(range(10, 15))
    small = fetcher(page_rows=10)
    small.put(batch(0, 3), last=True)
    only = small.fetch(0)
    assert only.result_type == ResultType.EOS and [r[0] for r in only.rows] == [0, 1, 2]


def test_an_empty_last_batch_still_ends_the_result():
    f = fetcher()
    f.put(batch(0, 4))
    f.put(batch(4, 0), last=True)
    page = f.fetch(0)
    assert page.result_type == ResultType.EOS and len(page.rows) == 4


def test_not_ready_does_not_consume_the_token():
    f = fetcher()
    page = f.fetch(0)
    assert page.result_type == ResultType.NOT_READY and page.next_token == 0
    f.put(batch(0, 3))
    f.finish()
    assert f.fetch(0).rows == [[0], [1], [2]]


def test_producer_waits_while_the_buffer_is_full():
    f = fetcher(max_rows=30, page_rows=10)
    produced = []

    def produce():
        for i in range(10):
            if not f.put(batch(i * 10, 10)):
                return
            produced.append(i)
        f.finish()

    thread = threading.Thread(target=produce, daemon=True)
    thread.start()
    assert f.producer_waiting.wait(10), "the producer never reached the bound"
    assert len(produced) == 3 and f.buffered_rows == 30  # blocked at the bound
    token, seen = 0, []
    while True:
        page = f.fetch(token, wait_s=2)
        seen += [r[0] for r in page.rows]
        if page.result_type == ResultType.EOS:
            break
        token = page.next_token
    thread.join(5)
    assert seen == list(range(100))
    assert f.peak_rows <= 30


def test_close_frees_the_buffer_and_wakes_the_producer():
    f = fetcher(max_rows=10)
    f.put(batch(0, 10))
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("put", f.put(batch(10, 10))), daemon=True)
    thread.start()
    assert f.producer_waiting.wait(10), "the second put never waited for room"
    f.close("operation x is closed")
    thread.join(2)
    assert result["put"] is False and f.buffered_rows == 0 and f.buffered_bytes == 0
    with pytest.raises(OperationStateError, match="operation x is closed"):
        f.fetch(0)


def test_error_page():
    f = fetcher()
    f.fail({"root_cause": "boom", "exception_stack": ""})
    page = f.fetch(0)
    assert page.result_type == ResultType.ERROR and page.exception["root_cause"] == "boom"


# -- negative cases ---------------------------------------------------------------------------

def test_wrong_tokens_name_what_was_expected():
    f = fetcher()
    f.put(batch(0, 25))
    f.finish()
    with pytest.raises(InvalidTokenError, match="expected 0"):
        f.fetch(1)
    f.fetch(0)
    f.fetch(1)
    with pytest.raises(InvalidTokenError, match=r"expected 2 \(next page\) or 1 \(repeat"):
        f.fetch(0)  # pages before the current one are dropped
    with pytest.raises(InvalidTokenError):
        f.fetch(5)
    f.fetch(2)
    with pytest.raises(InvalidTokenError, match="ended at token 2"):
        f.fetch(3)


@pytest.mark.parametrize("token", [-1, "0", 1.5, None, True])
def test_token_must_be_a_whole_number(token):
    with pytest.raises(InvalidTokenError, match="whole number"):
        fetcher().fetch(token)
