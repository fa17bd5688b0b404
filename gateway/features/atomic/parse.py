"""Understand a CTAS, RTAS or INSERT OVERWRITE statement well enough to stage it.

Spark's own parser (``gateway.spark.parser``) says what the statement is, which table it names
and where that name is written, so every identifier Spark accepts (``date``, ``range``,
``keep``, backquoted or not, one to three parts) is read as Spark reads it. The original text
is kept and only the target name is spliced out, so Spark still sees the user's own clauses
(USING, STORED AS, PARTITIONED BY, OPTIONS, TBLPROPERTIES, PARTITION specs) exactly as written.

A write whose name cannot be spliced (``IDENTIFIER('…')``) comes back with ``unstageable``
saying why; the writer refuses it rather than run it through Spark silently.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from gateway.spark.errors import ENGINE_ERRORS
from gateway.spark.parser import PlannedWrite, parse_multipart_name, parse_write_target


class WriteAction(enum.Enum):
    CREATE = "CREATE"                    # CREATE TABLE [IF NOT EXISTS] t AS SELECT
    CREATE_OR_REPLACE = "CREATE_OR_REPLACE"
    REPLACE = "REPLACE"                  # REPLACE TABLE t AS SELECT (t must exist)
    INSERT_OVERWRITE = "INSERT_OVERWRITE"


@dataclass(frozen=True)
class WriteRequest:
    """A parsed write: what it does, the target's name parts as written, where the name sits."""

    action: Optional[WriteAction]          # None when Spark reads another plan (unstageable)
    text: str
    name_parts: Optional[tuple[str, ...]]  # 1 to 3 parts, unquoted; None when unstageable
    name_start: int                        # offsets of the target name in ``text`` (end exclusive)
    name_end: int
    if_not_exists: bool = False
    has_location: bool = False
    unstageable: Optional[str] = None      # why the write cannot be staged, or None

    def against(self, staging_identifier: str) -> str:
        """The same statement aimed at the staging table: CTAS for creates, the insert for overwrites."""
        if self.action is WriteAction.INSERT_OVERWRITE:
            return self.text[:self.name_start] + staging_identifier + self.text[self.name_end:]
        return "CREATE TABLE " + staging_identifier + self.text[self.name_end:]


def quote(*parts: str) -> str:
    """A backtick-quoted multipart identifier."""
    return ".".join("`" + part.replace("`", "``") + "`" for part in parts)


_ACTIONS = {PlannedWrite.CREATE_AS_SELECT: WriteAction.CREATE, PlannedWrite.INSERT_OVERWRITE: WriteAction.INSERT_OVERWRITE}


# Plans that replace no table's rows, so Spark runs them unchanged: INSERT OVERWRITE DIRECTORY,
# a plain CREATE TABLE, an INSERT INTO (Spark's job commit publishes an append or nothing).
_RUN_UNCHANGED = frozenset({"InsertIntoDir", "CreateTable", "InsertIntoStatement"})


def parse_write(spark, text: str) -> Optional[WriteRequest]:
    """Parse one CTAS/RTAS/INSERT OVERWRITE with Spark's parser; None when Spark reads a statement
    that replaces no table's rows (INSERT OVERWRITE DIRECTORY, CREATE TABLE without a query). Any other
    plan comes back unstageable. Spark's parse error is raised."""
    target = parse_write_target(spark, text)
    if target.plan is PlannedWrite.OTHER:
        if target.plan_node in _RUN_UNCHANGED:
            return None
        return WriteRequest(None, text, None, -1, -1, unstageable=(
            f"Spark reads it as {target.plan_node}, whose target the workbench cannot stage "
            f"(a name given by IDENTIFIER of a variable or parameter is known only when it runs)"))
    if target.plan is PlannedWrite.MULTI_INSERT_OVERWRITE:
        return WriteRequest(None, text, None, -1, -1, unstageable=(
            "it overwrites tables in a multi-insert (FROM … INSERT … INSERT …), one Spark job for several "
            "targets; write one INSERT OVERWRITE per table to have each staged"))
    if target.plan is PlannedWrite.REPLACE_AS_SELECT:
        action = WriteAction.CREATE_OR_REPLACE if target.or_create else WriteAction.REPLACE
    else:
        action = _ACTIONS[target.plan]
    reason = None
    if target.name_parts is None:
        reason = "its target is not a plain table name (IDENTIFIER(…) or a computed name)"
    elif not 1 <= len(target.name_parts) <= 3:
        reason = f"its target {quote(*target.name_parts)} has {len(target.name_parts)} parts; at most 3 can be staged"
    elif _name_written_at(spark, text, target) != target.name_parts:
        reason = "Spark's parser did not give the position of the target's name"  # never seen; refuse rather than guess
    return WriteRequest(action, text, target.name_parts, target.name_start, target.name_end,
                        target.if_not_exists, target.has_location, reason)


def _name_written_at(spark, text: str, target) -> Optional[tuple[str, ...]]:
    """The name Spark reads in the span it reported: the splice replaces exactly the target."""
    try:
        return parse_multipart_name(spark, text[target.name_start:target.name_end])
    except ENGINE_ERRORS:
        return None
