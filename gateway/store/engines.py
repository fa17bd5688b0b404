"""Managed engines in the store (a mixin of ``WorkbenchStore``): record a started engine, find a key's
running one, claim a pooled one (one process wins), mark engines used, stopped or failed."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Optional

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from gateway.store.schema import engines
from gateway.store.workspace import now

LIVE_STATES = ("STARTING", "POOLED", "RUNNING")


@dataclass(frozen=True)
class EngineRecord:
    engine_id: str
    key: str
    owner: str
    state: str
    address: str
    host: str
    pid: Optional[int]
    ui_url: Optional[str]
    app_name: str
    started_by: str
    started_at: dt.datetime
    last_used: dt.datetime
    log_path: str
    driver_id: Optional[str] = None  # engine.deploy_mode = cluster: the standalone master's id of its driver
    token: Optional[str] = None  # its Spark Connect token (a cluster engine listens beyond loopback)


def _record(row) -> EngineRecord:
    return EngineRecord(row.engine_id, row.engine_key, row.owner, row.state, row.address, row.host, row.pid,
                        row.ui_url, row.app_name, row.started_by, row.started_at, row.last_used, row.log_path,
                        row.driver_id, row.token)


class EngineCalls:
    def engine_insert(self, record: EngineRecord) -> None:
        with self._transaction(write=True) as connection:
            connection.execute(insert(engines).values(
                engine_id=record.engine_id, engine_key=record.key, owner=record.owner, state=record.state,
                address=record.address, host=record.host, pid=record.pid, ui_url=record.ui_url,
                app_name=record.app_name, started_by=record.started_by, started_at=record.started_at,
                last_used=record.last_used, log_path=record.log_path, driver_id=record.driver_id,
                token=record.token))

    def engine_claim_key(self, record: EngineRecord) -> bool:
        """Insert a starting engine's row, claiming its key: False (nothing inserted) when the key has a live
        engine already, perhaps one another process is starting this instant (the unique index of 0007)."""
        try:
            self.engine_insert(record)
        except IntegrityError:
            return False
        return True

    def engine_update(self, engine_id: str, **values) -> None:
        with self._transaction(write=True) as connection:
            connection.execute(update(engines).where(engines.c.engine_id == engine_id).values(**values))

    def engine_touch(self, engine_ids: list[str]) -> None:
        """These engines have sessions here now: their idle time starts again (every process's reaper reads it)."""
        if not engine_ids:
            return
        with self._transaction(write=True) as connection:
            connection.execute(update(engines).where(engines.c.engine_id.in_(engine_ids)).values(last_used=now()))

    def engine_claim(self, engine_id: str, key: str, owner: str) -> bool:
        """Take a pooled engine for ``key``; False when another process took it first, or the key has a live
        engine already (another process started or took one this instant)."""
        try:
            with self._transaction(write=True) as connection:
                taken = connection.execute(update(engines).where(engines.c.engine_id == engine_id,
                                                                 engines.c.state == "POOLED")
                                           .values(engine_key=key, owner=owner, state="RUNNING", last_used=now()))
                return taken.rowcount == 1
        except IntegrityError:
            return False

    def engine_get(self, engine_id: str) -> Optional[EngineRecord]:
        with self._transaction(write=False) as connection:
            row = connection.execute(select(engines).where(engines.c.engine_id == engine_id)).first()
        return _record(row) if row is not None else None

    def engines_live(self, key: Optional[str] = None, state: Optional[str] = None) -> list[EngineRecord]:
        """The engines not stopped (of ``key``, in ``state``), oldest first."""
        query = select(engines).where(engines.c.state.in_(LIVE_STATES))
        if key is not None:
            query = query.where(engines.c.engine_key == key)
        if state is not None:
            query = query.where(engines.c.state == state)
        with self._transaction(write=False) as connection:
            return [_record(row) for row in connection.execute(query.order_by(engines.c.started_at)).all()]

    def engines_forget_stopped(self, before: dt.datetime) -> None:
        """Drop the rows of engines stopped or failed before ``before`` (the list keeps recent ones)."""
        with self._transaction(write=True) as connection:
            connection.execute(delete(engines).where(engines.c.state.notin_(LIVE_STATES),
                                                     engines.c.last_used < before))
