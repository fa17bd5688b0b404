"""Issue 31: a tab's :name values are kept in the store with the tab (the form's values come back after a
reload or in another browser of the user); bad values are refused with what to do; another user's tab is
not reachable."""
from __future__ import annotations

import datetime as dt
import decimal

import pytest

from gateway import InvalidRequestError, ObjectNotFoundError
from gateway.store import WorkbenchStore, default_url


@pytest.fixture()
def store(tmp_path):
    store = WorkbenchStore(default_url(tmp_path))
    yield store
    store.close()


def test_values_are_kept_with_the_tab_and_come_back_as_json_values(store):
    tab = store.open_tab("pam", text="SELECT * FROM t WHERE c = :country AND d BETWEEN :from AND :to")
    assert tab.parameter_values is None
    saved = store.save_tab_parameters("pam", tab.tab_id, {"country": "DE", "n": 2.5,
                                                           "range": [dt.date(2024, 1, 1), dt.date(2024, 1, 31)],
                                                           "price": decimal.Decimal("9.99")})
    expected = {"country": "DE", "n": 2.5, "range": ["2024-01-01", "2024-01-31"], "price": "9.99"}
    assert saved.parameter_values == expected
    assert store.list_tabs("pam")[0].parameter_values == expected   # what another browser of pam reads
    assert store.list_tabs("pam")[0].text.startswith("SELECT")      # the draft is untouched
    store.save_tab_parameters("pam", tab.tab_id, {})
    assert store.list_tabs("pam")[0].parameter_values is None


@pytest.mark.parametrize("values, says", [
    ({"": 1}, "marker names"),
    ([("a", 1)], "marker names"),
    ({"a": object()}, "cannot be kept"),
    ({"a": float("nan")}, "Out of range"),
    ({"a": "x" * 70_000}, "keep fewer or shorter values"),
])
def test_bad_values_are_refused_and_nothing_changes(store, values, says):
    tab = store.open_tab("pam")
    store.save_tab_parameters("pam", tab.tab_id, {"kept": 1})
    with pytest.raises(InvalidRequestError) as refused:
        store.save_tab_parameters("pam", tab.tab_id, values)
    assert says in refused.value.message
    assert store.list_tabs("pam")[0].parameter_values == {"kept": 1}


def test_another_users_tab_is_not_found(store):
    tab = store.open_tab("pam")
    with pytest.raises(ObjectNotFoundError):
        store.save_tab_parameters("sam", tab.tab_id, {"a": 1})
