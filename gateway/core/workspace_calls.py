"""The contract's workspace section: a user's editor tabs, saved queries and statement history.

They live in the workbench store (``gateway/store/``), not in Spark: these calls answer while
Spark is still starting. ``WorkspaceCalls`` is a mixin of ``GatewayService``; the store checks
the arguments and maps a database that is down to ``StoreUnavailableError``.
"""
from __future__ import annotations

from typing import Optional

from gateway.models import EditorTab, HistoryEntry, SavedQuery
from gateway.store import WorkbenchStore

class WorkspaceCalls:
    store: WorkbenchStore

    def _own_workspace(self, user: str) -> None:  # IdentityCalls: the caller's own workspace only
        pass

    def list_tabs(self, user: str) -> list[EditorTab]:
        self._own_workspace(user)
        return self.store.list_tabs(user)

    def open_tab(self, user: str, title: Optional[str] = None, text: str = "") -> EditorTab:
        self._own_workspace(user)
        return self.store.open_tab(user, title, text)

    def save_tab_text(self, user: str, tab_id: str, text: str) -> EditorTab:
        self._own_workspace(user)
        return self.store.save_tab_text(user, tab_id, text)

    def save_tab_parameters(self, user: str, tab_id: str, values: Optional[dict]) -> EditorTab:
        self._own_workspace(user)
        return self.store.save_tab_parameters(user, tab_id, values)

    def rename_tab(self, user: str, tab_id: str, title: str) -> EditorTab:
        self._own_workspace(user)
        return self.store.rename_tab(user, tab_id, title)

    def move_tab(self, user: str, tab_id: str, position: int) -> list[EditorTab]:
        self._own_workspace(user)
        return self.store.move_tab(user, tab_id, position)

    def close_tab(self, user: str, tab_id: str) -> None:
        self._own_workspace(user)
        self.store.close_tab(user, tab_id)

    def save_query(self, user: str, name: str, text: str, description: str = "",
                   query_id: Optional[str] = None) -> SavedQuery:
        self._own_workspace(user)
        return self.store.save_query(user, name, text, description, query_id)

    def list_saved_queries(self, user: str, search: str = "") -> list[SavedQuery]:
        self._own_workspace(user)
        return self.store.list_saved_queries(user, search)

    def get_saved_query(self, user: str, query_id: str) -> SavedQuery:
        self._own_workspace(user)
        return self.store.get_saved_query(user, query_id)

    def delete_saved_query(self, user: str, query_id: str) -> None:
        self._own_workspace(user)
        self.store.delete_saved_query(user, query_id)

    def list_history(self, user: str, search: str = "", limit: int = 100,
                     before_id: Optional[int] = None) -> list[HistoryEntry]:
        self._own_workspace(user)
        return self.store.list_history(user, search, limit, before_id)
