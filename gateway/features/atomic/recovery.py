"""Repair at start-up: finish or undo the writes a killed process left in the journal.

Before a write's commit point it is rolled back (staging dropped, a moved table or
directory put back); after it, the clean-up is completed. Never a half table.
"""
from __future__ import annotations

import logging

from gateway.features.atomic import write_journal as phases
from gateway.features.atomic.write_journal import Journal
from gateway.features.atomic.staged import BY_ACTION

log = logging.getLogger(__name__)


def recover(spark, journal: Journal) -> list[dict]:
    """Repair every open transaction; returns what was done to each."""
    report = []
    for entry in journal.entries():
        kind = BY_ACTION.get(entry.get("action"))
        if kind is None:
            log.error("atomic-write journal entry %s has the unknown action %r; left alone",
                      entry.get("txid"), entry.get("action"))
            continue
        write = kind(spark, journal, entry)
        target = f"{entry.get('db')}.{entry.get('table')}"
        try:
            if entry.get("phase") == phases.COMMITTED:
                write.finish()
                outcome = "completed"
            else:
                write.abort()
                outcome = "rolled back"
        except Exception:
            log.exception("repairing the %s of %s failed; the journal keeps it", entry.get("action"), target)
            outcome = "failed"
        log.warning("atomic write %s (%s of %s, %s) %s", entry.get("txid"), entry.get("action"), target,
                    entry.get("phase"), outcome)
        report.append({"txid": entry.get("txid"), "action": entry.get("action"), "table": target,
                       "phase": entry.get("phase"), "outcome": outcome})
    return report
