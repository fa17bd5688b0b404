"""``Supersession`` (gateway/features/completion/completer.py): a newer request of the same editor ends an older
one's bounded wait for a table's columns, and may wait on in its place: up to ``ANSWER_WAIT_S`` past the older
wait's deadline (as long as it would have waited queued behind it), never more than twice its own bound. Read
from the deadline each request's answer-now context sets; no time is measured. The route's side, over real HTTP
with a real load held, is tests/ui/test_completion_route_supersession.py."""
from __future__ import annotations

import threading
import time

import pytest

from gateway.features.completion import completer


@pytest.fixture(autouse=True)
def long_bound(monkeypatch):
    monkeypatch.setattr(completer, "ANSWER_WAIT_S", 100.0)   # far past anything this test does between reads


def deadline_of(superseded=None) -> float:
    with completer.answering_now(superseded):
        return completer._ANSWER_BY.get()  # noqa: SLF001


def waiting_deadline_ended_by_a_newer_request(older: completer.Supersession) -> float:
    """The deadline ``supersede`` hands on, taken while ``older`` waits (in its answer-now context)."""
    condition = threading.Condition()
    with completer.answering_now(older):
        with condition, older.watching(condition):
            return older.supersede()


def test_superseding_a_request_that_is_not_waiting_hands_nothing_on():
    older = completer.Supersession()
    assert older.supersede() is None
    assert older.is_set()


def test_a_newer_request_may_wait_on_past_the_deadline_of_the_wait_it_ended():
    older = completer.Supersession()
    started = time.monotonic()
    continues = waiting_deadline_ended_by_a_newer_request(older)
    assert older.is_set()
    assert continues is not None and continues >= started + 100.0
    newer = deadline_of(completer.Supersession(continues))
    own = deadline_of()
    assert newer >= continues + 100.0 - 1e-6      # the older's bound and one more
    assert newer > own                            # longer than a request that superseded nobody waiting
    assert newer <= time.monotonic() + 200.0      # never more than twice its own bound


def test_the_bound_stays_at_twice_a_requests_own_however_long_the_chain():
    continues = time.monotonic() + 10_000.0   # a deadline far ahead (a chain of superseded waits)
    assert deadline_of(completer.Supersession(continues)) <= time.monotonic() + 200.0


def test_a_deadline_already_past_changes_nothing():
    before = time.monotonic()
    found = deadline_of(completer.Supersession(before - 1_000.0))
    assert before + 100.0 <= found <= time.monotonic() + 100.0
