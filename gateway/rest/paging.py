"""A fetched page in Flink's FetchResultsResponseBody shape, as JSON (rows in the seed's row JSON,
or as text) or as an Arrow IPC stream, and the URI of the next page (null at EOS).

Flink's form: ``resultType``, ``isQueryResult`` (also as ``queryResult``, the name in Flink's
OpenAPI document), ``jobID`` (32 hex digits), ``resultKind``, ``results`` and ``nextResultUri``
under the version prefix the client used. In JSON, as in Flink, the EOS page carries no rows: the
REST layer answers the last rows as a PAYLOAD page and the next token as an empty EOS. An Arrow
page (our format, no Flink client asks for it) carries the last rows with EOS, one round trip less.
"""
from __future__ import annotations

from typing import Optional

import orjson
import pyarrow as pa

from gateway import InvalidRequestError, ResultSet, ResultType
from gateway.rest.schemas import RowFormat

ARROW_MEDIA_TYPE = "application/vnd.apache.arrow.stream"
ARROW_PAGE_KEY = b"workbench.page"  # the page's JSON fields (all but the rows), in the schema's metadata


def parse_row_format(text: Optional[str]) -> RowFormat:
    """``rowFormat`` in any case (``json`` is what some Flink clients send); absent: JSON."""
    if text is None or text == "":
        return RowFormat.JSON
    try:
        return RowFormat(text.strip().upper())
    except ValueError:
        raise InvalidRequestError(f"rowFormat {text!r} is not supported: use JSON, PLAIN_TEXT or ARROW "
                                  f"(in any case)") from None


def version_prefix(path: str) -> str:
    """``/v3`` for a request under /v3/…, ``""`` for an unprefixed one (Flink's default version)."""
    head = path.split("/", 2)[1] if path.count("/") >= 2 else ""
    return f"/{head}" if len(head) >= 2 and head[0] == "v" and head[1:].isdigit() else ""


def _text(value) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return orjson.dumps(value).decode()
    return str(value)


def page_fields(page: ResultSet, row_format: RowFormat, next_uri: Optional[str], is_query: bool,
                job_id: Optional[str], result_type: Optional[ResultType] = None) -> dict:
    """Every field of Flink's FetchResultsResponseBody but the rows."""
    has_rows = bool(page.columns)
    return {
        "resultType": (result_type or page.result_type).value,
        "isQueryResult": is_query,
        "queryResult": is_query,
        "jobID": job_id,
        "resultKind": "SUCCESS_WITH_CONTENT" if has_rows else "SUCCESS",
        "results": {"columns": [{"name": c.name, "type": c.type, "logicalType": c.type, "comment": c.comment}
                                for c in page.columns],
                    "rowFormat": row_format.value},
        "nextResultUri": next_uri,
    }


def page_json(page: ResultSet, row_format: RowFormat, next_uri: Optional[str], is_query: bool = False,
              job_id: Optional[str] = None, result_type: Optional[ResultType] = None,
              with_rows: bool = True) -> dict:
    body = page_fields(page, row_format, next_uri, is_query, job_id, result_type)
    rows = page.rows if with_rows else []
    if row_format is RowFormat.PLAIN_TEXT:
        data = [{"kind": "INSERT", "fields": [_text(v) for v in row]} for row in rows]
    else:
        data = [{"kind": "INSERT", "fields": row} for row in rows]
    body["results"]["data"] = data
    return body


def page_arrow(page: ResultSet, next_uri: Optional[str], is_query: bool, job_id: Optional[str]) -> memoryview:
    """The page as one Arrow IPC stream; its schema's metadata holds the other fields as JSON."""
    fields = page_fields(page, RowFormat.ARROW, next_uri, is_query, job_id)
    table = page.arrow if page.arrow is not None else empty_table(page)
    schema = table.schema.with_metadata({ARROW_PAGE_KEY: orjson.dumps(fields)})
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, schema) as writer:
        writer.write_table(table.replace_schema_metadata(schema.metadata))
    return memoryview(sink.getvalue())


def empty_table(page: ResultSet) -> pa.Table:
    """No rows (yet): the columns' Arrow types from their type JSON."""
    return pa.schema([pa.field(c.name, arrow_type(c.type), c.type.get("nullable", True))
                      for c in page.columns]).empty_table()


_SIMPLE_ARROW = {"BOOLEAN": pa.bool_(), "TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INTEGER": pa.int32(),
                 "BIGINT": pa.int64(), "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "DATE": pa.date32(),
                 "CHAR": pa.string(), "VARCHAR": pa.string(), "VARBINARY": pa.binary(), "NULL": pa.null(),
                 "TIMESTAMP": pa.timestamp("us"), "TIMESTAMP_LTZ": pa.timestamp("us", tz="UTC")}


def arrow_type(type_json: dict) -> pa.DataType:
    """The Arrow type Spark's results use for a type JSON: a type ``serialized_as`` STRING is a
    string, a day-time INTERVAL a duration, RAW (no column of a non-empty page is typed from
    here: those come from Spark's own Arrow batches) null."""
    name = type_json.get("type")
    if type_json.get("serialized_as") == "STRING":
        return pa.string()
    if name == "INTERVAL":
        return pa.duration("us")
    if name in _SIMPLE_ARROW:
        return _SIMPLE_ARROW[name]
    if name == "DECIMAL":
        return pa.decimal128(type_json["precision"], type_json["scale"])
    if name == "ARRAY":
        return pa.list_(arrow_type(type_json["elementType"]))
    if name == "MAP":
        return pa.map_(arrow_type(type_json["keyType"]), arrow_type(type_json["valueType"]))
    if name == "ROW":
        return pa.struct([pa.field(f["name"], arrow_type(f["fieldType"])) for f in type_json["fields"]])
    return pa.null()


def next_result_uri(prefix: str, session: str, operation: str, token: Optional[int], row_format: RowFormat,
                    max_rows: Optional[int]) -> Optional[str]:
    """Flink's form: ``{prefix}/sessions/{s}/operations/{o}/result/{token}?rowFormat=JSON`` (null: the end)."""
    if token is None:
        return None
    uri = f"{prefix}/sessions/{session}/operations/{operation}/result/{token}?rowFormat={row_format.value}"
    return uri + (f"&maxRows={max_rows}" if max_rows else "")
