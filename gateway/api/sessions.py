"""Sessions: open, keep alive, configure and close a client's own SparkSession."""
from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from gateway.api.identity import AdminSession
from gateway.api.values import OperationHandle, SessionHandle


@runtime_checkable
class SessionsApi(Protocol):
    """Sessions (Flink's session section): each one is an isolated ``root.newSession()``."""

    def open_session(self, config: Optional[dict] = None, name: Optional[str] = None) -> SessionHandle:
        """A new isolated session: SQL conf, temp views and functions, current catalog/database."""

    def close_session(self, session: SessionHandle) -> None:
        """Close the session and all its operations."""

    def heartbeat(self, session: SessionHandle) -> None:
        """Keep an idle session alive; SessionNotFoundError once it is gone."""

    def get_session_config(self, session: SessionHandle) -> dict[str, str]:
        """Settings in force in this session."""

    def configure_session(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None) -> None:
        """Run one configuring statement (SET, RESET, USE, DDL, and the kinds features allow)."""

    def set_session_option(self, session: SessionHandle, key: str, value: str) -> None:
        """``SET key = value`` for this session, the key checked to be a plain setting name."""

    def reset_session_option(self, session: SessionHandle, key: Optional[str] = None) -> None:
        """``RESET key``; without a key every setting of the session goes back to its default."""

    def session_name(self, session: SessionHandle) -> str:
        """The name the session was opened with."""

    # -- admin: every user's sessions and running statements (PermissionDeniedError for non-admins) --

    def admin_list_sessions(self) -> list[AdminSession]:
        """Every open session with its user, age, idle time and operations not yet ended (statement, age,
        Spark progress)."""

    def admin_cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Cancel any user's operation."""

    def admin_close_session(self, session: SessionHandle) -> None:
        """Close any user's session and its operations."""
