"""Workspace: a user's editor tabs (drafts), saved queries and statement history, kept in the workbench store."""
from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from gateway.api.values import EditorTab, HistoryEntry, SavedQuery


@runtime_checkable
class WorkspaceApi(Protocol):
    """A user's tabs, saved queries and history (gateway/store/). These calls need no Spark.

    ``user`` is the caller's own name (LOCAL_USER while there is no authentication; another user's workspace
    does not exist for the caller). Unknown ids raise ObjectNotFoundError (404); an empty name or a text over
    store.max_text_chars raises InvalidRequestError (400); a store that cannot be reached raises
    StoreUnavailableError (503).
    """

    def list_tabs(self, user: str) -> list[EditorTab]:
        """The user's open tabs, in order (position 0 first)."""

    def open_tab(self, user: str, title: Optional[str] = None, text: str = "") -> EditorTab:
        """A new tab at the end; the title defaults to "Query N" (one more than the highest N open)."""

    def save_tab_text(self, user: str, tab_id: str, text: str) -> EditorTab:
        """Keep the tab's draft (called, debounced, as the user types)."""

    def save_tab_parameters(self, user: str, tab_id: str, values: Optional[dict]) -> EditorTab:
        """Keep the tab's ``:name`` values (marker -> text, number, date, or a list of those; None clears
        them), so that a reload or another browser of the user gets them back with the tab."""

    def rename_tab(self, user: str, tab_id: str, title: str) -> EditorTab: ...

    def move_tab(self, user: str, tab_id: str, position: int) -> list[EditorTab]:
        """Put the tab at ``position`` (0-based), the others keeping their order; returns the new order."""

    def close_tab(self, user: str, tab_id: str) -> None:
        """Close the tab and forget its draft; the tabs after it move up."""

    def save_query(self, user: str, name: str, text: str, description: str = "",
                   query_id: Optional[str] = None) -> SavedQuery:
        """Save a new query, or update the saved query ``query_id``."""

    def list_saved_queries(self, user: str, search: str = "") -> list[SavedQuery]:
        """The user's saved queries by name; ``search`` matches name, description or text, any case."""

    def get_saved_query(self, user: str, query_id: str) -> SavedQuery: ...

    def delete_saved_query(self, user: str, query_id: str) -> None: ...

    def list_history(self, user: str, search: str = "", limit: int = 100,
                     before_id: Optional[int] = None) -> list[HistoryEntry]:
        """Statements run by the user's sessions, newest first; ``before_id`` pages back, ``search``
        matches the statement text in any case."""
