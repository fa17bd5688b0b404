"""ResultFetcher: a bounded buffer between a Spark producer and a token-paging client.

The producer (the operation's thread) puts Arrow batches and waits while the buffer holds
``max_rows`` rows or ``max_bytes`` bytes; the client takes pages by token (FLIP-91): the
current token again replays the last page, token + 1 takes the next one, anything else is
an error that names the tokens expected. Pages stay Arrow until they are handed out.
"""
from __future__ import annotations

import collections
import threading
import time
from typing import Optional

import pyarrow as pa

from gateway.errors import InvalidTokenError, OperationStateError
from gateway.models import Column, ResultSet, ResultType
from gateway.core.serialization import arrow_rows


class ResultFetcher:
    def __init__(self, max_rows: int, max_bytes: int, page_rows: int, fetch_wait_s: float) -> None:
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.page_rows = page_rows
        self.fetch_wait_s = fetch_wait_s
        self.columns: Optional[list[Column]] = None
        self.arrow_schema: Optional[pa.Schema] = None  # of the first batch put, for empty Arrow pages
        self._batches: collections.deque[pa.RecordBatch] = collections.deque()
        self._cond = threading.Condition()
        self._done = False
        self._error: Optional[dict] = None
        self._closed_reason: Optional[str] = None
        self._next_token = 0
        self._last: Optional[tuple[int, ResultSet]] = None
        # Accounting, read by tests and the UI.
        self.buffered_rows = 0
        self.buffered_bytes = 0
        self.peak_rows = 0
        self.peak_bytes = 0
        self.rows_produced = 0
        self.rows_fetched = 0
        # Set while the producer waits for room (the buffer is at its bound): what a test waits on.
        self.producer_waiting = threading.Event()

    # -- producer side ------------------------------------------------------------------------

    def set_columns(self, columns: list[Column]) -> None:
        with self._cond:
            self.columns = columns
            self._cond.notify_all()

    def put(self, batch: pa.RecordBatch, last: bool = False) -> bool:
        """Add a batch, waiting while the buffer is full; False once the consumer is gone.

        ``last`` ends the result in the same step, so the page with the last rows is the EOS page.
        """
        if self.arrow_schema is None:
            self.arrow_schema = batch.schema
        if batch.num_rows == 0:
            if last:
                self.finish()
            return self._closed_reason is None
        size = batch.nbytes
        with self._cond:
            while self._closed_reason is None and self.buffered_rows > 0 and (
                    self.buffered_rows + batch.num_rows > self.max_rows
                    or self.buffered_bytes + size > self.max_bytes):
                self.producer_waiting.set()
                self._cond.wait()
            self.producer_waiting.clear()
            if self._closed_reason is not None:
                return False
            self._batches.append(batch)
            self.buffered_rows += batch.num_rows
            self.buffered_bytes += size
            self.rows_produced += batch.num_rows
            self.peak_rows = max(self.peak_rows, self.buffered_rows)
            self.peak_bytes = max(self.peak_bytes, self.buffered_bytes)
            if last:
                self._mark_done()
            self._cond.notify_all()
            return True

    def finish(self) -> None:
        with self._cond:
            self._mark_done()
            self._cond.notify_all()

    def _mark_done(self) -> None:
        self._done = True
        if self.columns is None:
            self.columns = []

    def fail(self, error: dict) -> None:
        with self._cond:
            self._error = error
            self._done = True
            self._drop_buffer()
            self._cond.notify_all()

    def close(self, reason: str) -> None:
        """Free the buffer and wake the producer so it stops; later fetches fail with ``reason``."""
        with self._cond:
            if self._closed_reason is None:
                self._closed_reason = reason
            self._drop_buffer()
            self._last = None
            self._cond.notify_all()

    @property
    def is_closed(self) -> bool:
        return self._closed_reason is not None

    @property
    def ended(self) -> bool:
        """The producer is through (all rows put, or failed): it starts no more Spark work."""
        return self._done

    def _drop_buffer(self) -> None:
        self._batches.clear()
        self.buffered_rows = 0
        self.buffered_bytes = 0

    # -- consumer side ------------------------------------------------------------------------

    def fetch(self, token: int, max_rows: Optional[int] = None, wait_s: Optional[float] = None) -> ResultSet:
        if isinstance(token, bool) or not isinstance(token, int) or token < 0:
            raise InvalidTokenError(f"token must be a whole number >= 0, got {token!r}")
        if max_rows is not None and (not isinstance(max_rows, int) or max_rows <= 0):
            raise InvalidTokenError(f"max_rows must be a positive whole number, got {max_rows!r}")
        limit = max_rows or self.page_rows
        wait_s = self.fetch_wait_s if wait_s is None else wait_s
        with self._cond:
            if self._closed_reason is not None:
                raise OperationStateError(f"cannot fetch results: {self._closed_reason}")
            if self._last is not None and token == self._last[0]:
                return self._last[1]
            ended = self._last is not None and self._last[1].next_token is None
            if token != self._next_token or ended:
                raise InvalidTokenError(self._token_message(token), ended_at=self._last[0] if ended else None)
            deadline = time.monotonic() + wait_s
            while not self._batches and not self._done and self._closed_reason is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            if self._closed_reason is not None:
                raise OperationStateError(f"cannot fetch results: {self._closed_reason}")
            if self._error is not None:
                page = ResultSet(ResultType.ERROR, None, self.columns or [], [], self._error)
                self._remember(token, page)
                return page
            if not self._batches and not self._done:
                return ResultSet(ResultType.NOT_READY, token, self.columns or [], [])
            taken = self._take(limit)
            end = self._done and not self._batches
        table = pa.Table.from_batches(taken) if taken else (
            self.arrow_schema.empty_table() if self.arrow_schema is not None else None)
        page = ArrowPage(ResultType.EOS if end else ResultType.PAYLOAD, None if end else token + 1,
                         self.columns or [], table)
        with self._cond:
            self.rows_fetched += page.row_count
            self._remember(token, page)
        return page

    def _token_message(self, token: int) -> str:
        if self._last is not None and self._last[1].next_token is None:
            return (f"token {token} is not valid: the result ended at token {self._last[0]}; "
                    f"fetch {self._last[0]} again to repeat the last page")
        expected = f"{self._next_token}"
        if self._last is not None:
            expected += f" (next page) or {self._last[0]} (repeat the last page)"
        return f"token {token} is not valid: expected {expected}"

    def _remember(self, token: int, page: ResultSet) -> None:
        self._last = (token, page)
        self._next_token = token + 1

    def _take(self, limit: int) -> list[pa.RecordBatch]:
        taken: list[pa.RecordBatch] = []
        need = limit
        while need > 0 and self._batches:
            batch = self._batches[0]
            if batch.num_rows <= need:
                self._batches.popleft()
                part = batch
            else:
                part = batch.slice(0, need)
                self._batches[0] = batch.slice(need)
            taken.append(part)
            need -= part.num_rows
            self.buffered_rows -= part.num_rows
        self.buffered_bytes = sum(b.nbytes for b in self._batches) if self._batches else 0
        self._cond.notify_all()
        return taken


class ArrowPage(ResultSet):
    """A page whose rows stay Arrow until someone reads ``rows`` (then converted once, kept)."""

    def __init__(self, result_type: ResultType, next_token: Optional[int], columns: list[Column],
                 table: Optional[pa.Table]) -> None:
        self._rows: Optional[list[list]] = None if table is not None and table.num_rows else []
        super().__init__(result_type, next_token, columns, self._rows, None, table)

    @property
    def row_count(self) -> int:
        return self.arrow.num_rows if self.arrow is not None else 0

    @property  # type: ignore[override]
    def rows(self) -> list[list]:
        if self._rows is None:
            self._rows = arrow_rows(self.arrow)
        return self._rows

    @rows.setter
    def rows(self, value) -> None:
        self._rows = value
