"""The session journal (docs/users.md): sessions that survive a restart.

Each session's configuring statements go into the workbench store as they succeed — SET, RESET,
USE, CREATE TEMPORARY VIEW or FUNCTION and their DROP, every kind whose ``StatementSpec`` says ``journaled``
(a feature's LOAD MODULE, REMOVE JAR …), and the contract calls their protocol marks ``@replayed_as`` (as the
statement the mark renders). This module names no feature's kind or call: the features declare them. When the workbench starts, every journaled session is opened again with its handle,
user and rights, and its statements are replayed in order, so a browser tab (whose URL holds the
handle) or a REST client re-attaches to a session with its state. Closing a session (or its idle
expiry) forgets its journal; stopping the process does not.
"""
from __future__ import annotations

import logging
import socket
from typing import Callable, Optional

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from gateway.core.sql_lexer import without_comments
from gateway.api.calls import replay_statement
from gateway.core.statement_analysis import StatementAnalysis, analyse, spec_of
from gateway.identity import EVERY_USER, Principal, acting_as
from gateway.models import OperationStatus

log = logging.getLogger(__name__)



def dropped_view(text: str) -> Optional[str]:
    """The one-part name a ``DROP VIEW [IF EXISTS] name`` drops, or None (a qualified name, another statement).

    Spark has no DROP TEMPORARY VIEW: ``DROP VIEW v`` drops the session's temporary view ``v`` if there
    is one, else the metastore's. The journal keeps it, and a replay drops only the temporary view
    (``Catalog.dropTempView``), so a restart neither brings a dropped view back nor touches the metastore.
    Read with sqlglot's Spark parser: quotes and comments around the name are not part of it.
    """
    if "VIEW" not in text.upper():
        return None  # not worth a parse (a replay asks this of every journaled statement)
    try:
        tree = sqlglot.parse_one(without_comments(text), read="spark")
    except SqlglotError:
        return None
    if not isinstance(tree, exp.Drop) or tree.args.get("kind") != "VIEW" or len(tree.args.get("tables") or []) != 1:
        return None
    table = tree.args["tables"][0]
    name = table.name
    return name if name and "." not in name and not table.args.get("db") and not table.args.get("catalog") else None


def journaled(analysis: StatementAnalysis, text: str) -> bool:
    """Does this statement change the session's own state (and nothing else) so that it must be replayed?
    Read from its analysis (comments removed), so ``CREATE /* x */ TEMPORARY VIEW`` is journaled too."""
    kind = analysis.kind
    if spec_of(kind).journaled:  # the kind says so (RESET, USE, ADD JAR, a feature's LOAD MODULE …)
        return True
    if kind == "DROP" and dropped_view(text) is not None:
        return True
    if kind == "SET":
        return analysis.assigns  # SET k = v; not SET, SET -v, SET k (they only show)
    if kind in ("CREATE", "CREATE_FUNCTION", "DROP"):
        return analysis.temporary
    return False


class SessionJournal:
    """An operation observer (statements) and a wrapper of contract calls (their equivalents)."""

    def __init__(self, service) -> None:
        self.service = service
        # Which process restores a session: this host and data directory (several workbench
        # processes may share one store, each restoring its own).
        self.owner = f"{socket.gethostname()}:{service.config.data_dir}"

    @property
    def store(self):
        return self.service.store

    def _append(self, session, statement: str) -> None:
        if getattr(session, "replaying", False):
            return
        session.journaled = True  # closing it must forget its journal
        try:
            self.store.journal_append(self.owner, str(session.handle), session.user, session.name,
                                      getattr(session, "admin", True), statement)
        except Exception:  # noqa: BLE001 - the statement ran; only its replay after a restart is lost
            log.warning("session %s: %r could not be journaled; it will not be replayed after a restart",
                        session.handle, statement[:200], exc_info=True)

    # -- observer ------------------------------------------------------------------------------------

    def operation_submitted(self, operation) -> None:
        pass

    def operation_ended(self, operation) -> None:
        if operation.outcome != OperationStatus.FINISHED or operation.exception:
            return
        # The operation finished, so each statement did (the last one's summary may still say RUNNING
        # while its rows stream out).
        for summary in operation.summaries:
            if summary.status != "ERROR" and journaled(analyse(summary.statement), summary.statement):
                self._append(operation.session, summary.statement)

    def operation_done(self, operation) -> None:
        pass

    # -- contract calls ------------------------------------------------------------------------------

    def after(self, name: str, call: Callable, declared: Optional[Callable] = None) -> Callable:
        """``call`` itself, or, when its protocol marks it ``@replayed_as``, ``call`` journaling the statement
        its mark renders from the call's arguments and result."""
        render = replay_statement(declared)
        if render is None:
            return call
        import functools
        import inspect
        journal, signature = self, inspect.signature(declared)

        @functools.wraps(call)
        def journaled_call(*args, **kwargs):
            result = call(*args, **kwargs)
            bound = signature.bind(None, *args, **kwargs)  # None for the protocol's self
            bound.apply_defaults()
            with acting_as(EVERY_USER):
                session = journal.service.sessions.get(bound.arguments["session"])
            journal._append(session, render(bound.arguments, result))
            return result

        return journaled_call

    def forget(self, session) -> None:
        if not getattr(session, "journaled", False):
            return  # nothing was written for it: no write on every close
        try:
            self.store.journal_forget(str(session.handle))
        except Exception:  # noqa: BLE001 - a stale journal only reopens a session after a restart
            log.warning("session %s: its journal could not be dropped", session.handle, exc_info=True)

    # -- start-up --------------------------------------------------------------------------------------

    def restore(self) -> int:
        """Open every journaled session again and replay its statements; returns how many."""
        if not self.service.config["session.restore"]:
            return 0
        try:
            sessions = self.store.journaled_sessions(self.owner)
        except Exception:  # noqa: BLE001 - a store that is down: start without them, say so
            log.warning("the session journal could not be read; no session is restored", exc_info=True)
            return 0
        restored = 0
        for entry in sessions:
            with acting_as(Principal(entry.user, entry.admin)):  # replayed as its owner
                try:
                    handle = self.service._open_session(None, entry.name, entry.handle)
                    session = self.service.sessions.get(handle)
                except Exception:  # noqa: BLE001 - one bad entry must not stop the start
                    log.warning("session %s of %s could not be reopened", entry.handle, entry.user, exc_info=True)
                    continue
                session.replaying, session.journaled = True, True
                failed = 0
                try:
                    for statement in entry.statements:
                        try:
                            view = dropped_view(statement)
                            if view is not None:
                                session.spark.catalog.dropTempView(view)  # never the metastore's view
                            else:
                                self.service.configure_session(handle, statement)
                        except Exception as exc:  # noqa: BLE001 - replay what can be, say what could not
                            failed += 1
                            log.warning("session %s of %s: replaying %r failed: %s", entry.handle, entry.user,
                                        statement[:200], exc)
                finally:
                    session.replaying = False
                restored += 1
                log.info("session %s of %s restored: %d statements replayed, %d failed", entry.handle, entry.user,
                         len(entry.statements) - failed, failed)
        return restored
