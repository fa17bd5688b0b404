"""A fetched page in Flink's FetchResultsResponseBody shape: columns, rows in the seed's row
JSON (or as text), and the URI of the next page (null at EOS)."""
from __future__ import annotations

from typing import Optional

import orjson

from gateway import ResultSet, ResultType
from gateway.rest.schemas import RowFormat


def _text(value) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return orjson.dumps(value).decode()
    return str(value)


def page_json(page: ResultSet, row_format: RowFormat, next_uri: Optional[str]) -> dict:
    columns = [{"name": c.name, "type": c.type, "logicalType": c.type, "comment": c.comment}
               for c in page.columns]
    if row_format is RowFormat.PLAIN_TEXT:
        data = [{"kind": "INSERT", "fields": [_text(v) for v in row]} for row in page.rows]
    else:
        data = [{"kind": "INSERT", "fields": row} for row in page.rows]
    has_rows = bool(page.columns)
    return {
        "resultType": page.result_type.value,
        "isQueryResult": has_rows,
        "jobID": None,
        "resultKind": "SUCCESS_WITH_CONTENT" if has_rows else "SUCCESS",
        "results": {"columns": columns, "rowFormat": row_format.value, "data": data},
        "nextResultUri": next_uri,
    }


def next_result_uri(version: str, session: str, operation: str, page: ResultSet, row_format: RowFormat,
                    max_rows: Optional[int]) -> Optional[str]:
    if page.next_token is None or page.result_type is ResultType.ERROR:
        return None
    uri = f"/{version}/sessions/{session}/operations/{operation}/result/{page.next_token}?rowFormat={row_format.value}"
    return uri + (f"&maxRows={max_rows}" if max_rows else "")
