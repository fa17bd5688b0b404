"""Request and response bodies (pydantic), named and shaped like Flink's SQL Gateway REST API.

Flink's names are camelCase; the endpoints beyond Flink follow the same style.
"""
from __future__ import annotations

import enum
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gateway.models import MAX_TIMEOUT_MS, lone_surrogate


def lone_surrogate_at(value: Any, where: str = "") -> Optional[str]:
    """Where in a decoded JSON value a string holds a lone surrogate (JSON's "\\ud800" escape), or None.

    Such a string is not text: it cannot be encoded as UTF-8 for Spark, sqlglot, the store or a file."""
    if isinstance(value, str):
        found = lone_surrogate(value)
        return None if found is None else f"{where or 'body'} holds {found}"
    if isinstance(value, dict):
        for key, item in value.items():
            name = str(key).encode("utf-8", "backslashreplace").decode("utf-8")  # printable even if it is the culprit
            path = f"{where}.{name}" if where else name
            found = lone_surrogate_at(key, path) or lone_surrogate_at(item, path)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = lone_surrogate_at(item, f"{where}[{index}]")
            if found:
                return found
    return None


class Body(BaseModel):
    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _refuse_lone_surrogates(cls, data: Any) -> Any:
        """Every request body, every string field in it: a clear 400 instead of a 500 deep inside (issue 27)."""
        found = lone_surrogate_at(data)
        if found:
            raise ValueError(f"{found} (an unpaired \\ud800-\\udfff escape), which is not text; send the "
                             f"characters as UTF-8 or as a complete surrogate pair")
        return data


# -- utilities ------------------------------------------------------------------------------------

class HealthResponse(Body):
    status: str = Field(description="UP, or DOWN when the Spark driver JVM has stopped (then HTTP 503).")
    reason: str = Field("", description="What happened, when DOWN.")
    heap_live_bytes: Optional[int] = None
    heap_used_bytes: Optional[int] = None
    heap_max_bytes: Optional[int] = None
    memory_stops: int = Field(0, description="Statements the memory guard stopped since the start.")
    jvm_pid: Optional[int] = Field(None, description="Process id of the driver JVM, when this process launched it.")


class InfoResponse(Body):
    productName: str
    version: str
    sparkVersion: str


class SettingResponse(Body):
    key: str
    value: Any


class ApiVersionsResponse(Body):
    versions: list[str]


class ErrorResponse(Body):
    errors: list[str]
    root_cause: str
    exception_stack: str = ""
    error_class: Optional[str] = None
    sqlstate: Optional[str] = None
    line: Optional[int] = None
    position: Optional[int] = None


# -- sessions -------------------------------------------------------------------------------------

class OpenSessionRequest(Body):
    properties: Optional[dict[str, str]] = Field(None, description="Spark SQL settings of the new session.")
    sessionName: Optional[str] = Field(None, max_length=200)


class OpenSessionResponse(Body):
    sessionHandle: str


class SessionConfigResponse(Body):
    properties: dict[str, str]


class SessionNameResponse(Body):
    sessionName: str


class CloseSessionResponse(Body):
    status: str


class Empty(Body):
    pass


class ConfigureSessionRequest(Body):
    statement: str
    executionTimeout: Optional[int] = Field(None, ge=0, le=MAX_TIMEOUT_MS, strict=True,
                                            description="Milliseconds (a whole number up to 30 days); 0 or absent: no limit.")


# -- statements and operations --------------------------------------------------------------------

class ExecuteStatementRequest(Body):
    statement: str
    executionConfig: Optional[dict[str, str]] = Field(None, description="Settings for this statement only.")
    executionTimeout: Optional[int] = Field(None, ge=0, le=MAX_TIMEOUT_MS, strict=True,
                                            description="Milliseconds (a whole number up to 30 days); 0 or absent: no limit.")
    parameters: Optional[dict[str, Any]] = Field(
        None, description="Beyond Flink: a value for each :name marker (name without the colon), bound through "
                          "Spark's args, never into the text. A JSON string, number, true/false, null, a list, or "
                          '{"type": "DATE", "value": "2024-01-31"} (STRING, INT, BIGINT, DOUBLE, DECIMAL, BOOLEAN, '
                          "DATE, TIMESTAMP, TIMESTAMP_NTZ, BINARY as base64, ARRAY). A marker without a value is "
                          "refused (400, UNBOUND_SQL_PARAMETER) before anything runs.")


class ParametersRequest(Body):
    statement: str = Field(description="The script whose :name markers the form shows.")


class ExecuteStatementResponse(Body):
    operationHandle: str


class OperationStatusResponse(Body):
    status: str


class RowFormat(str, enum.Enum):
    JSON = "JSON"
    PLAIN_TEXT = "PLAIN_TEXT"
    ARROW = "ARROW"


class ColumnInfo(Body):
    name: str
    type: dict[str, Any] = Field(description="Type JSON of the FLIP-91 appendix.")
    logicalType: dict[str, Any] = Field(description="The same type JSON, under Flink's name.")
    comment: Optional[str] = None


class RowData(Body):
    kind: str
    fields: list[Any]


class ResultInfo(Body):
    columns: list[ColumnInfo]
    rowFormat: RowFormat
    data: list[RowData]


class FetchResultsResponse(Body):
    resultType: str = Field(description="NOT_READY (ask again), PAYLOAD or EOS (in JSON, as in Flink, with no rows).")
    isQueryResult: bool = Field(description="The result is a query's (SELECT …), not a SHOW, SET or DDL answer.")
    queryResult: bool = Field(description="isQueryResult under the name of Flink's OpenAPI document.")
    jobID: Optional[str] = Field(None, description="For a query: its Spark job group, as 32 hex digits.")
    resultKind: str
    results: ResultInfo
    nextResultUri: Optional[str] = Field(description="The next page; null at EOS.")


# -- catalog, modules, jars (beyond Flink) ---------------------------------------------------------

class CatalogsResponse(Body):
    catalogs: list[str]
    currentCatalog: str


class DatabasesResponse(Body):
    databases: list[str]
    currentDatabase: str


class TablesResponse(Body):
    tables: list[dict[str, Any]]


class TableDdlResponse(Body):
    ddl: str


class SampleDatabaseRequest(Body):
    database: Optional[str] = Field(None, description="Default: sample (the database the first-run sample query reads).")


class SampleDatabaseResponse(Body):
    tables: list[str]


class FunctionsResponse(Body):
    functions: list[dict[str, Any]]
