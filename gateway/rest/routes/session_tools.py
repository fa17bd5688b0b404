"""Beyond Flink: the editor's tools for a session. SET or RESET one option, a table's preview
(its statement, or run it), ANALYZE a table, split and format a script. The gateway writes the
SQL, so clients never concatenate it.
"""
from __future__ import annotations

from fastapi import APIRouter, Query, Request
from pydantic import Field

from gateway.rest.deps import service_of
from gateway.rest.encoding import to_json
from gateway.rest.schemas import Body, Empty, ExecuteStatementResponse, SessionConfigResponse

router = APIRouter(tags=["session tools"])
SESSION = "/sessions/{session_handle}"
TABLE = SESSION + "/tables/{table}"
_LIMIT = Query(100, description="Most rows the preview returns (a whole number >= 1).")


class SetOptionRequest(Body):
    value: str = Field(description="The setting's new value for this session (no ';').")


class ScriptRequest(Body):
    statement: str = Field(description="One statement or a script of several, separated by ';'.")


class PreviewStatementResponse(Body):
    statement: str


class SplitResponse(Body):
    statements: list[dict] = Field(description="Each statement's text, kind, index, line (1-based) and offset.")


class FormatResponse(Body):
    statement: str = Field(description="The script pretty-printed, its comments kept.")


def _config(service, session_handle: str) -> dict:
    return {"properties": service.get_session_config(session_handle)}


@router.put(SESSION + "/config/{key}", response_model=SessionConfigResponse)
def set_session_option(request: Request, session_handle: str, key: str, body: SetOptionRequest):
    """SET key=value for the session; answers the session's settings."""
    service = service_of(request)
    service.set_session_option(session_handle, key, body.value)
    return _config(service, session_handle)


@router.delete(SESSION + "/config/{key}", response_model=SessionConfigResponse)
def reset_session_option(request: Request, session_handle: str, key: str):
    """RESET key to its default; answers the session's settings."""
    service = service_of(request)
    service.reset_session_option(session_handle, key)
    return _config(service, session_handle)


@router.delete(SESSION + "/config", response_model=SessionConfigResponse)
def reset_session_options(request: Request, session_handle: str):
    """RESET every setting of the session to its default."""
    service = service_of(request)
    service.reset_session_option(session_handle)
    return _config(service, session_handle)


@router.get(TABLE + "/preview-statement", response_model=PreviewStatementResponse)
def preview_statement(request: Request, session_handle: str, table: str, limit: int = _LIMIT):
    """The ``SELECT * … LIMIT n`` text for the table, quoted, to open in an editor."""
    return {"statement": service_of(request).preview_statement(session_handle, table, limit)}


@router.post(TABLE + "/preview", response_model=ExecuteStatementResponse)
def preview_table(request: Request, session_handle: str, table: str, limit: int = _LIMIT):
    """Run the preview; fetch its rows from the operation like a statement's."""
    return {"operationHandle": str(service_of(request).preview_table(session_handle, table, limit))}


@router.post(TABLE + "/analyze", response_model=Empty)
def analyze_table(request: Request, session_handle: str, table: str):
    """ANALYZE TABLE … COMPUTE STATISTICS FOR ALL COLUMNS; answers when the statistics are stored."""
    service_of(request).analyze_table(session_handle, table)
    return {}


@router.post(SESSION + "/split", response_model=SplitResponse)
def split_statements(request: Request, session_handle: str, body: ScriptRequest):
    service = service_of(request)
    service.heartbeat(session_handle)  # a session-scoped path: an unknown session is a 404 here too
    return {"statements": to_json(service.split_statements(body.statement))}


@router.post(SESSION + "/format", response_model=FormatResponse)
def format_statement(request: Request, session_handle: str, body: ScriptRequest):
    service = service_of(request)
    service.heartbeat(session_handle)
    return {"statement": service.format_statement(body.statement)}
