"""The session journal in the store (a mixin of ``WorkbenchStore``): append a session's configuring
statement, forget a closed session, and read every journaled session back at start-up."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, insert, select

from gateway.store.schema import journal_entries, journal_sessions
from gateway.store.workspace import now


@dataclass(frozen=True)
class JournaledSession:
    handle: str
    user: str
    name: str
    admin: bool
    statements: list[str]


class JournalCalls:
    def journal_append(self, owner: str, handle: str, user: str, name: str, admin: bool, statement: str) -> None:
        with self._transaction(write=True) as connection:
            known = connection.execute(select(journal_sessions.c.session_handle)
                                       .where(journal_sessions.c.session_handle == handle)).first()
            if known is None:
                connection.execute(insert(journal_sessions).values(session_handle=handle, owner=owner, user_name=user,
                                                                   name=name[:200], is_admin=bool(admin),
                                                                   opened_at=now()))
            connection.execute(insert(journal_entries).values(session_handle=handle, statement=statement,
                                                              recorded_at=now()))

    def journal_forget(self, handle: str) -> None:
        with self._transaction(write=True) as connection:
            connection.execute(delete(journal_entries).where(journal_entries.c.session_handle == handle))
            connection.execute(delete(journal_sessions).where(journal_sessions.c.session_handle == handle))

    def journaled_sessions(self, owner: str) -> list[JournaledSession]:
        with self._transaction(write=False) as connection:
            sessions = connection.execute(select(journal_sessions).where(journal_sessions.c.owner == owner)
                                          .order_by(journal_sessions.c.opened_at)).all()
            entries = connection.execute(
                select(journal_entries.c.session_handle, journal_entries.c.statement)
                .join(journal_sessions, journal_sessions.c.session_handle == journal_entries.c.session_handle)
                .where(journal_sessions.c.owner == owner).order_by(journal_entries.c.entry_id)).all()
        by_session: dict[str, list[str]] = {}
        for handle, statement in entries:
            by_session.setdefault(handle, []).append(statement)
        return [JournaledSession(row.session_handle, row.user_name, row.name, bool(row.is_admin),
                                 by_session.get(row.session_handle, [])) for row in sessions]
