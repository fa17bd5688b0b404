"""Split scripts into statements as Spark's lexer reads them, each with its one analysis.

Splitting follows Spark's lexer (``gateway.core.sql_lexer``): nested bracketed comments, every quote
form, ``--`` and ``/* */`` anywhere. A statement Spark would reject (a bad literal, an unterminated
string) stays inside its own statement and fails alone when it runs; the others still split. Each
statement keeps its line and column in the script, so Spark's error positions map onto the script.

Each statement carries its ``StatementAnalysis`` (``gateway.core.statement_analysis``), made once
at the split: its kind, what it reads and writes, whether it loads code. Guards take that, never words.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from gateway.core.sql_lexer import statement_spans
from gateway.core.statement_analysis import (CORE_STATEMENTS, Grammar, StatementAnalysis, StatementKind,  # noqa: F401
                                             StatementSpec, analyse, classify, grammar, spec_of)
from gateway.errors import InvalidStatementError
from gateway.models import lone_surrogate


def configure_kinds() -> list[str]:
    """The kinds configure_session accepts (FLIP-91's list, plus what features allow)."""
    return sorted(kind for kind, spec in grammar().specs.items() if spec.configures)


def changes_schema(kinds) -> bool:
    """True when a script with these statement kinds may change the catalog (completion reloads)."""
    return any(not spec_of(kind).read_only for kind in kinds)


@dataclass(frozen=True)
class Statement:
    """One statement of a script: where it starts in the script (offset, 1-based line, 0-based
    column as Spark counts ``pos``) and its analysis (made from the text when not given)."""

    text: str
    kind: StatementKind
    index: int
    line: int
    offset: int
    column: int = 0
    analysis: Optional[StatementAnalysis] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.analysis is None:
            object.__setattr__(self, "analysis", analyse(self.text))

    @property
    def words(self) -> list[str]:
        """The statement's tokens, comments removed, words upper-cased (its analysis's ``words``)."""
        return list(self.analysis.words)

    @property
    def returns_rows(self) -> bool:
        return spec_of(self.kind).returns_rows


MAX_NESTING = 256


def check_text(script: str) -> None:
    """Refuse text that is not valid Unicode: a lone UTF-16 surrogate (``"\\ud800"`` in JSON) cannot
    reach Spark, the store or a JSON answer."""
    found = None if script.isascii() else lone_surrogate(script)
    if found is not None:
        raise InvalidStatementError(
            f"the statement holds {found}: that is not valid Unicode text. Remove it, or send the character it "
            f"was meant to be as one code point (a JSON client must pair \\ud83d with its low surrogate)",
            line=found.line, position=found.position)


def check_nesting(analysis: StatementAnalysis, max_nesting: int) -> None:
    """Refuse parentheses nested deeper than ``max_nesting``: Spark's parser and planner recurse
    once per level, and thousands of levels end in a StackOverflowError after seconds of work."""
    if analysis.max_depth > max_nesting:
        raise InvalidStatementError(
            f"the statement is too deeply nested: more than {max_nesting} levels of parentheses "
            f"(setting statement.max_nesting). Flatten it: use a WITH clause, a temporary view "
            f"or several statements instead of nesting", error_class="STATEMENT_TOO_DEEPLY_NESTED")


def split_script(script: str, max_chars: int | None = None, max_nesting: int = MAX_NESTING) -> list[Statement]:
    """Statements of a script in order; empty statements (``;;``) and comments alone are skipped.

    Raises InvalidStatementError for empty text, text over ``max_chars``, text that is not valid
    Unicode, or parentheses nested deeper than ``max_nesting``. Nothing else stops a split: a
    statement Spark cannot read is Spark's to reject when it runs.
    """
    if script is None or not script.strip():
        raise InvalidStatementError("the statement is empty: type a SQL statement such as SELECT 1")
    if max_chars is not None and len(script) > max_chars:
        raise InvalidStatementError(
            f"the statement is {len(script):,} characters long; the limit is {max_chars:,} "
            f"(setting statement.max_chars). Split it, or load large data from a file or table.")
    check_text(script)
    statements: list[Statement] = []
    line, counted = 1, 0  # lines counted up to offset ``counted`` (once over the script, not per statement)
    for start, end in statement_spans(script):
        text = script[start:end]
        analysis = analyse(text)
        check_nesting(analysis, max_nesting)
        line += script.count("\n", counted, start)
        counted = start
        column = start - (script.rfind("\n", 0, start) + 1)
        statements.append(Statement(text, analysis.kind, len(statements), line, start, column, analysis))
    if not statements:
        raise InvalidStatementError("the text holds only comments or semicolons: type a SQL statement")
    return statements
