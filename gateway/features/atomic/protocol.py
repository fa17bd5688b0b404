"""The two-phase protocol of FLIP-305, in Python: a table write that can be committed or aborted.

The write itself is the ``statements`` Spark runs between ``begin_transaction`` and ``commit``
(Flink's job between the hook's onCreated and onFinished). ``commit`` publishes the result
and returns what was committed; ``abort`` removes everything the transaction made and
restores what it moved, and may be called more than once.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class WriteStep:
    """One statement of the write job, with session settings that apply to it alone."""

    sql: str
    conf: dict = field(default_factory=dict)


class TwoPhaseCatalogTable(abc.ABC):
    #: What Spark runs between begin and commit: the write job (into a staging table, or Spark's own atomic path).
    statements: list[WriteStep]
    #: False when the write runs through Spark unchanged and nothing is staged.
    atomic: bool = True

    @abc.abstractmethod
    def begin_transaction(self) -> None:
        """Prepare the staging (journal, names, locations) before any data is written."""

    @abc.abstractmethod
    def commit(self, written_rows: Optional[int]) -> dict:
        """Publish the staged result; returns ``{"table", "action", "rows", "location", "atomic"}``."""

    @abc.abstractmethod
    def abort(self) -> None:
        """Drop the staged data and undo any half-done publishing; safe to call again."""
