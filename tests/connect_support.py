"""Helpers of the Spark Connect tests (tests/gateway/connect/): a gateway configuration on a Connect
server, waiting for an operation, reading a whole result by its tokens. A module of its own (not the
conftest) so that the tests import it by a name unique in the run."""
from __future__ import annotations

import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def connect_config(tmp_path_factory, url: str, **overrides):
    from gateway import load_config

    return load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=str(tmp_path_factory.mktemp("workbench-connect-data")), engine__kind="connect", engine__url=url,
        session__idle_timeout_s=0, session__restore=False, result__buffer_max_rows=20_000,
        result__buffer_max_bytes=8 * 1024 * 1024, **overrides)


def wait_terminal(gateway, session, operation, timeout_s: float = 300.0, finished_counts: bool = True):
    """The operation's status once it is FINISHED or terminal (bounded)."""
    from gateway.models import OperationStatus

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        info = gateway.get_operation_info(session, operation)
        if info.status.is_terminal or (finished_counts and info.status == OperationStatus.FINISHED):
            return info
        time.sleep(0.02)
    raise AssertionError(f"operation {operation} did not end within {timeout_s} s: {info.status}")


def fetch_all(gateway, session, operation, timeout_s: float = 120.0, max_rows=None):
    """Every row of a result, following the tokens from 0 to the end; returns (rows, pages)."""
    from gateway.models import ResultType

    token, rows, pages = 0, [], 0
    deadline = time.monotonic() + timeout_s
    while token is not None:
        assert time.monotonic() < deadline, "no end of result in time"
        page = gateway.fetch_results(session, operation, token, max_rows=max_rows)
        if page.result_type == ResultType.NOT_READY:
            time.sleep(0.01)
            continue
        assert page.result_type != ResultType.ERROR, page.exception
        pages += 1
        rows.extend(page.rows or [])
        token = page.next_token
    return rows, pages
