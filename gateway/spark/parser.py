"""Spark's own SQL parser, asked what table a write statement targets and where its name is written.

sqlglot tokenizes many legal Spark identifiers (``date``, ``range``, ``keep``, …) as keywords,
so the atomic writes feature asks Spark instead: ``sessionState.sqlParser.parsePlan`` gives the
unresolved plan (CreateTableAsSelect, ReplaceTableAsSelect, InsertIntoStatement …), and the
target node's origin gives the character span of the name as the user wrote it. Nothing is
analysed or run. Needs ``Capability.PLAN_INTERNALS``.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from gateway.spark.backend import Capability, jsession, supports
from gateway.spark.errors import ENGINE_ERRORS

_WHAT = "recognising a write statement with Spark's parser"


class PlannedWrite(str, enum.Enum):
    """What Spark's parser says a statement writes."""

    CREATE_AS_SELECT = "CreateTableAsSelect"
    REPLACE_AS_SELECT = "ReplaceTableAsSelect"
    INSERT_OVERWRITE = "InsertIntoStatement"   # with overwrite=true
    MULTI_INSERT_OVERWRITE = "Union"           # FROM s INSERT OVERWRITE a … INSERT … b …: several targets
    OTHER = "OTHER"                            # anything else (INSERT INTO, INSERT OVERWRITE DIRECTORY, …)


@dataclass(frozen=True)
class WriteTarget:
    """A CTAS/RTAS/INSERT OVERWRITE as Spark's parser reads it.

    ``name_parts`` is None when the target is not a plain multipart name (``IDENTIFIER('…')``);
    ``name_start``/``name_end`` are Python offsets into the parsed text (end exclusive).
    """

    plan: PlannedWrite
    plan_node: str                           # Spark's node name, for messages
    name_parts: Optional[tuple[str, ...]] = None
    name_start: int = -1
    name_end: int = -1
    if_not_exists: bool = False              # CREATE TABLE IF NOT EXISTS
    or_create: bool = False                  # CREATE OR REPLACE (vs REPLACE TABLE)
    has_location: bool = False


def parse_write_target(spark, text: str) -> WriteTarget:
    """Parse ``text`` with the session's SQL parser (no analysis).

    Spark's ParseException is raised as pyspark raises it: a statement Spark cannot parse
    would not run either, and Spark's message says where it is wrong.
    """
    parser = jsession(spark, Capability.PLAN_INTERNALS, _WHAT).sessionState().sqlParser()
    plan = parser.parsePlan(text)
    node = plan.nodeName()
    if node == "UnresolvedWith":  # WITH q AS (…) INSERT OVERWRITE t …: the write is the CTE's child
        plan = plan.child()
        node = plan.nodeName()
    if node == "CreateTableAsSelect":
        return _target(PlannedWrite.CREATE_AS_SELECT, plan, plan.name(), text,
                       if_not_exists=bool(plan.ignoreIfExists()),
                       has_location=bool(plan.tableSpec().location().isDefined()))
    if node == "ReplaceTableAsSelect":
        return _target(PlannedWrite.REPLACE_AS_SELECT, plan, plan.name(), text,
                       or_create=bool(plan.orCreate()),
                       has_location=bool(plan.tableSpec().location().isDefined()))
    if node == "InsertIntoStatement" and bool(plan.overwrite()):
        return _target(PlannedWrite.INSERT_OVERWRITE, plan, plan.table(), text)
    if node == "Union" and any(child.nodeName() == "InsertIntoStatement" and bool(child.overwrite())
                               for child in _children(plan)):
        return WriteTarget(PlannedWrite.MULTI_INSERT_OVERWRITE, node)
    return WriteTarget(PlannedWrite.OTHER, node)


def _children(plan) -> list:
    children = plan.children()
    return [children.apply(i) for i in range(children.length())]


def _target(kind: PlannedWrite, plan, name_node, text: str, **flags) -> WriteTarget:
    """The target's parts and span; parts None when the name is not a plain identifier."""
    node = name_node.nodeName()
    if node == "UnresolvedIdentifier":
        parts = _strings(name_node.nameParts())
    elif node == "UnresolvedRelation":
        parts = _strings(name_node.multipartIdentifier())
    else:  # IDENTIFIER('…') and other computed names
        return WriteTarget(kind, plan.nodeName(), **flags)
    origin = name_node.origin()
    if not (origin.startIndex().isDefined() and origin.stopIndex().isDefined()):
        return WriteTarget(kind, plan.nodeName(), **flags)
    start = _python_offset(text, origin.startIndex().get())
    end = _python_offset(text, origin.stopIndex().get() + 1)
    return WriteTarget(kind, plan.nodeName(), parts, start, end, **flags)


# Plans that put code into the driver or executors (ADD JAR/FILE/ARCHIVE, a function from a class).
CODE_PLANS = frozenset({"AddJarsCommand", "AddFilesCommand", "AddArchivesCommand", "CreateFunctionCommand",
                        "CreateFunction"})


def statement_node(spark, text: str) -> Optional[str]:
    """The node name of Spark's unresolved plan for ``text`` (``AddJarsCommand``, ``Project`` …), or None
    when this backend has no parser to ask or Spark cannot parse it (then it cannot run either)."""
    if not supports(spark, Capability.PLAN_INTERNALS):
        return None
    parser = jsession(spark, Capability.PLAN_INTERNALS, _WHAT).sessionState().sqlParser()
    try:
        return str(parser.parsePlan(text).nodeName())
    except ENGINE_ERRORS:
        return None


@dataclass(frozen=True)
class PlanObjects:
    """The tables a statement reads and the objects it writes or defines, as Spark's parser reads
    them (name parts, unquoted), before analysis: a CTE's name is read like a table's."""

    node: str
    reads: tuple[tuple[str, ...], ...]
    writes: tuple[tuple[str, ...], ...]


_TARGET_NODES = ("UnresolvedIdentifier", "UnresolvedTable", "UnresolvedTableOrView", "UnresolvedView")


def plan_objects(spark, text: str) -> PlanObjects:
    """Walk Spark's unresolved plan of ``text`` (no analysis, nothing run): relations read (also in
    subqueries and CTE definitions), INSERT targets and the names a command creates, drops or alters.
    One Py4J call per node: for checks and tests, not for every statement. Spark's ParseException is raised."""
    parser = jsession(spark, Capability.PLAN_INTERNALS, _WHAT).sessionState().sqlParser()
    root = parser.parsePlan(text)
    root_node = str(root.nodeName())
    describes = root_node.startswith(("Describe", "Show"))
    reads: list[tuple[str, ...]] = []
    writes: list[tuple[str, ...]] = []
    pending = [root]
    while pending:
        node = pending.pop()
        name = str(node.nodeName())
        if name == "UnresolvedRelation":
            reads.append(_strings(node.multipartIdentifier()))
        elif name == "UnresolvedIdentifier":
            writes.append(_strings(node.nameParts()))
        elif name in _TARGET_NODES:
            (reads if describes else writes).append(_strings(node.multipartIdentifier()))
        elif name == "InsertIntoStatement" and node.table().nodeName() == "UnresolvedRelation":
            writes.append(_strings(node.table().multipartIdentifier()))
        elif name == "CreateViewCommand":  # a temporary view: its name is a TableIdentifier, not a child
            writes.append(_strings(node.name().nameParts()))
        elif name == "CreateTempViewUsing":
            writes.append(_strings(node.tableIdent().nameParts()))
        children = _children(node)
        subqueries = node.subqueries()
        children += [subqueries.apply(i) for i in range(subqueries.length())]
        if name == "UnresolvedWith":  # the CTE definitions
            inner = node.innerChildren()
            children += [inner.apply(i) for i in range(inner.length())]
        pending.extend(reversed(children))
    return PlanObjects(root_node, tuple(dict.fromkeys(reads)), tuple(dict.fromkeys(writes)))


def parse_multipart_name(spark, name: str) -> tuple[str, ...]:
    """The parts of a multipart identifier as Spark reads it (backquotes removed)."""
    parser = jsession(spark, Capability.PLAN_INTERNALS, _WHAT).sessionState().sqlParser()
    return _strings(parser.parseMultipartIdentifier(name))


def _strings(seq) -> tuple[str, ...]:
    """A Scala Seq[String] as a tuple (Py4J does not iterate Scala collections)."""
    return tuple(str(seq.apply(i)) for i in range(seq.length()))


def _python_offset(text: str, java_index: int) -> int:
    """Spark's offsets count UTF-16 code units; Python's count code points (they differ past an emoji)."""
    if text.isascii():
        return java_index
    units = 0
    for position, char in enumerate(text):
        if units >= java_index:
            return position
        units += 2 if ord(char) > 0xFFFF else 1
    return len(text)
