"""Beyond Flink: a user's workspace in the workbench store — editor tabs (drafts), saved queries
and the statement history. Under ``/v2/users/{user}``; the user is ``local`` while there is no
authentication. These routes need no Spark session. The gateway checks every value (names,
lengths, positions) so that a bad one answers 400 with the same message as in process; an
unknown tab or query answers 404, a store that cannot be reached 503.
"""
from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Query, Request
from pydantic import Field

from gateway.rest.deps import service_of
from gateway.rest.encoding import to_json
from gateway.rest.schemas import Body, Empty

router = APIRouter(tags=["workspace"])
USER = "/users/{user}"
TAB = USER + "/tabs/{tab_id}"
QUERY = USER + "/queries/{query_id}"


class EditorTabBody(Body):
    tabId: str
    title: str
    text: str
    position: int = Field(description="0 for the first tab.")
    updatedAt: str = Field(description="ISO 8601, UTC.")
    parameterValues: Optional[dict[str, Any]] = Field(None, description="The tab's last :name values (dates as "
                                                                        "ISO text); absent when none were kept.")


class TabsResponse(Body):
    tabs: list[EditorTabBody] = Field(description="The user's open tabs in order.")


class OpenTabRequest(Body):
    title: Optional[str] = Field(None, description='Absent: "Query N", one more than the highest N open.')
    text: str = ""


class TabTextRequest(Body):
    text: str = Field(description="The tab's draft, whole.")


class TabParametersRequest(Body):
    values: Optional[dict[str, Any]] = Field(description="Marker name -> text, number, ISO date, or a list of "
                                                         "those; null or {} clears them.")


class TabTitleRequest(Body):
    title: str


class TabPositionRequest(Body):
    position: int = Field(description="Where the tab goes, 0 for the first place; the others keep their order.")


class SavedQueryBody(Body):
    queryId: str
    name: str
    description: str
    text: str
    createdAt: str
    updatedAt: str


class SavedQueriesResponse(Body):
    queries: list[SavedQueryBody] = Field(description="By name, any case.")


class SaveQueryRequest(Body):
    name: str
    text: str
    description: str = ""


class HistoryEntryBody(Body):
    entryId: int
    user: str
    sessionHandle: str
    operationHandle: Optional[str] = None
    statement: str
    status: str = Field(description="RUNNING, FINISHED, ERROR or CANCELED.")
    startedAt: str = Field(description="When it was submitted; ISO 8601, UTC.")
    durationMs: Optional[int] = Field(None, description="From submission to its end (first rows ready).")
    rows: Optional[int] = Field(None, description="Rows of the result, once all were produced.")
    errorClass: Optional[str] = None
    kinds: list[str] = Field([], description="Each statement's kind, in order, as the gateway's analysis read it "
                                             "(QUERY, INSERT, ADD_JAR, SCRIPT, …); empty for entries recorded "
                                             "before kinds were.")
    parameters: Optional[dict[str, Any]] = Field(None, description="The :name values the run bound (dates as ISO "
                                                                   "text); absent without markers.")


class HistoryResponse(Body):
    entries: list[HistoryEntryBody] = Field(description="Newest first.")
    nextBeforeId: Optional[int] = Field(None, description="Pass as beforeId for the next (older) page; "
                                                          "absent when there is none.")


# -- tabs -------------------------------------------------------------------------------------------

@router.get(USER + "/tabs", response_model=TabsResponse)
def list_tabs(request: Request, user: str):
    return {"tabs": to_json(service_of(request).list_tabs(user))}


@router.post(USER + "/tabs", response_model=EditorTabBody)
def open_tab(request: Request, user: str, body: OpenTabRequest):
    """A new tab at the end."""
    return to_json(service_of(request).open_tab(user, body.title, body.text))


@router.put(TAB + "/text", response_model=EditorTabBody)
def save_tab_text(request: Request, user: str, tab_id: str, body: TabTextRequest):
    """Keep the tab's draft (send it, debounced, as the user types)."""
    return to_json(service_of(request).save_tab_text(user, tab_id, body.text))


@router.put(TAB + "/parameters", response_model=EditorTabBody)
def save_tab_parameters(request: Request, user: str, tab_id: str, body: TabParametersRequest):
    """Keep the tab's :name values (a reload or another browser of the user gets them back)."""
    return to_json(service_of(request).save_tab_parameters(user, tab_id, body.values))


@router.put(TAB + "/title", response_model=EditorTabBody)
def rename_tab(request: Request, user: str, tab_id: str, body: TabTitleRequest):
    return to_json(service_of(request).rename_tab(user, tab_id, body.title))


@router.put(TAB + "/position", response_model=TabsResponse)
def move_tab(request: Request, user: str, tab_id: str, body: TabPositionRequest):
    """Move the tab; answers the new order."""
    return {"tabs": to_json(service_of(request).move_tab(user, tab_id, body.position))}


@router.delete(TAB, response_model=Empty)
def close_tab(request: Request, user: str, tab_id: str):
    service_of(request).close_tab(user, tab_id)
    return {}


# -- saved queries ------------------------------------------------------------------------------------

@router.get(USER + "/queries", response_model=SavedQueriesResponse)
def list_saved_queries(request: Request, user: str,
                       search: str = Query("", description="Matches name, description or text, any case.")):
    return {"queries": to_json(service_of(request).list_saved_queries(user, search))}


@router.post(USER + "/queries", response_model=SavedQueryBody)
def save_new_query(request: Request, user: str, body: SaveQueryRequest):
    """Save a new query."""
    return to_json(service_of(request).save_query(user, body.name, body.text, body.description))


@router.put(QUERY, response_model=SavedQueryBody)
def update_saved_query(request: Request, user: str, query_id: str, body: SaveQueryRequest):
    """Change a saved query's name, text and description."""
    return to_json(service_of(request).save_query(user, body.name, body.text, body.description, query_id))


@router.get(QUERY, response_model=SavedQueryBody)
def get_saved_query(request: Request, user: str, query_id: str):
    return to_json(service_of(request).get_saved_query(user, query_id))


@router.delete(QUERY, response_model=Empty)
def delete_saved_query(request: Request, user: str, query_id: str):
    service_of(request).delete_saved_query(user, query_id)
    return {}


# -- history ----------------------------------------------------------------------------------------

@router.get(USER + "/history", response_model=HistoryResponse)
def list_history(request: Request, user: str,
                 search: str = Query("", description="Matches the statement text, any case."),
                 limit: int = Query(100, description="Entries in the page, 1 to 1000."),
                 beforeId: Optional[int] = Query(None, description="Only entries older than this id.")):
    entries = service_of(request).list_history(user, search, limit, beforeId)
    full_page = bool(entries) and len(entries) == limit  # there may be older entries
    return {"entries": to_json(entries), "nextBeforeId": entries[-1].entry_id if full_page else None}
