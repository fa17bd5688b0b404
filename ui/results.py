"""Run a statement through the gateway and gather its pages for display (bounded)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

import pandas as pd

from gateway import GatewayError, ResultType

DISPLAY_LIMIT = 10_000


@dataclass
class DisplayResult:
    frame: pd.DataFrame
    error: Optional[dict]
    truncated: bool
    elapsed_s: float


def run_and_collect(gateway, handle, sql: str, limit: int = DISPLAY_LIMIT, timeout_s: float = 600) -> DisplayResult:
    started = time.monotonic()
    try:
        op = gateway.execute_statement(handle, sql)
    except GatewayError as exc:
        return DisplayResult(pd.DataFrame(), exc.to_json(), False, time.monotonic() - started)
    rows, columns, truncated, error = [], [], False, None
    try:
        for page in gateway.iter_results(handle, op, timeout_s=timeout_s):
            columns = page.columns or columns
            if page.result_type == ResultType.ERROR:
                error = page.exception
                break
            rows.extend(page.rows)
            if page.next_token is not None and len(rows) >= limit:
                truncated = True
                rows = rows[:limit]
                break
    except GatewayError as exc:
        error = exc.to_json()
    finally:
        try:
            gateway.close_operation(handle, op)
        except GatewayError:
            pass
    frame = pd.DataFrame(rows, columns=[c.name for c in columns]) if columns else pd.DataFrame()
    return DisplayResult(frame, error, truncated, time.monotonic() - started)
