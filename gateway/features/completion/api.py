"""The completion feature's API: its protocol and value types, what a front end may use of it.

Front ends reach it through the gateway (``gateway.api(CompletionApi)``, or the same calls on the gateway,
which lists the built-in features' protocols in ``GatewayContract``); its REST routes are in ``rest.py``.
"""
from __future__ import annotations

from typing import Any, Optional, Protocol, runtime_checkable

from gateway.api.calls import without_principal

from gateway.models import Candidate
from gateway.handles import SessionHandle

__all__ = ['Candidate', 'SessionHandle', 'CompletionApi']


@runtime_checkable
class CompletionApi(Protocol):
    """Statement completion."""

    def complete_statement(self, session: SessionHandle, statement: str, position: int) -> list[str]:
        """Completion candidates at ``position`` (their text only, as Flink answers)."""

    def complete_candidates(self, session: SessionHandle, statement: str, position: int) -> list[Candidate]:
        """Completion candidates with kind and detail (column type, function signature)."""

    def warm_completion(self, session: SessionHandle) -> None:
        """Start loading the session's completion cache in the background."""

    def refresh_completion(self, session: SessionHandle) -> None:
        """Drop the session's completion cache (the catalog changed behind the gateway's back)."""

    def completion_dictionary(self, session: SessionHandle, columns_of: Optional[list[str]] = None) -> dict:
        """What an editor needs to complete on its own: ``relations``, ``databases``, ``catalogs``,
        ``functions`` (with signatures), ``table_functions``, ``keywords`` (candidates as JSON) and,
        for each name of ``columns_of``, ``columns[name]`` (its columns, or None: no such table)."""

    def completion_credential(self, session: SessionHandle, origin: Optional[str] = None) -> dict:
        """A short-lived bearer credential for REST ``complete-statement`` of this session only (the SQL
        editor's direct path, without a page rerun): ``token``, ``expires_in_s``, ``session``, and ``url``,
        the REST API of this process (None when rest.enabled is off). ``origin``: the browser page that
        may call it across origins (``scheme://host[:port]``)."""

    @without_principal
    def complete_with_credential(self, credential: str, session: SessionHandle, request: Any,
                                 superseded: Any = None) -> dict:
        """The SQL editor's direct path without REST (a route on Streamlit's own server): the answer of
        ``complete-statement`` to ``request`` (``{"statement", "position", "details"}``, REST's JSON body) for
        ``session``, as the user of ``credential``, a live credential of ``completion_credential`` for that
        session. Any other credential (unknown, expired, of another session or scope) is refused
        (AuthenticationError, 401), before the request is read. A request ``{"prefetch": [names]}`` (1 to 16 table
        names the editor saw typed after FROM or JOIN) computes no candidates: those tables' columns start loading
        in the background, and the answer's ``loading`` names those not known yet. ``superseded`` (a ``CompletionSupersession``,
        for ``wait: false``): once the caller calls its ``supersede()`` (a newer request of the same editor came),
        a wait for a table's columns ends at once with SupersededError (409)."""
