"""Split scripts into statements and classify them, with sqlglot's Spark tokenizer.

Splitting works on tokens, not on a full parse, so that every statement Spark accepts
(including ones sqlglot cannot parse, like ``SET PATH`` or ``ADD JAR``) reaches Spark
unchanged, while semicolons inside strings and comments are respected.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from .errors import InvalidStatementError

_SPARK = Dialect.get_or_raise("spark")


class StatementKind(enum.Enum):
    QUERY = "QUERY"          # SELECT, WITH, VALUES, TABLE, FROM …
    SHOW = "SHOW"
    DESCRIBE = "DESCRIBE"
    EXPLAIN = "EXPLAIN"
    SET = "SET"
    RESET = "RESET"
    USE = "USE"
    CREATE = "CREATE"
    DROP = "DROP"
    ALTER = "ALTER"
    INSERT = "INSERT"
    ADD_JAR = "ADD_JAR"
    REMOVE_JAR = "REMOVE_JAR"
    LOAD_MODULE = "LOAD_MODULE"
    UNLOAD_MODULE = "UNLOAD_MODULE"
    USE_MODULES = "USE_MODULES"
    OTHER = "OTHER"


# Kinds that configure_session accepts (FLIP-91).
CONFIGURE_KINDS = frozenset({
    StatementKind.SET, StatementKind.RESET, StatementKind.CREATE, StatementKind.DROP, StatementKind.USE,
    StatementKind.ALTER, StatementKind.LOAD_MODULE, StatementKind.UNLOAD_MODULE, StatementKind.USE_MODULES,
    StatementKind.ADD_JAR, StatementKind.REMOVE_JAR,
})

_FIRST_WORD = {
    "SELECT": StatementKind.QUERY, "WITH": StatementKind.QUERY, "VALUES": StatementKind.QUERY,
    "TABLE": StatementKind.QUERY, "FROM": StatementKind.QUERY, "(": StatementKind.QUERY,
    "SHOW": StatementKind.SHOW, "DESCRIBE": StatementKind.DESCRIBE, "DESC": StatementKind.DESCRIBE,
    "EXPLAIN": StatementKind.EXPLAIN, "SET": StatementKind.SET, "RESET": StatementKind.RESET,
    "CREATE": StatementKind.CREATE, "REPLACE": StatementKind.CREATE, "DROP": StatementKind.DROP,
    "ALTER": StatementKind.ALTER, "INSERT": StatementKind.INSERT,
}


@dataclass(frozen=True)
class Statement:
    """One statement of a script, with where it starts in the script (1-based line)."""

    text: str
    kind: StatementKind
    index: int
    line: int
    offset: int

    @property
    def words(self) -> list[str]:
        return self.text.upper().split()

    @property
    def returns_rows(self) -> bool:
        return self.kind in (StatementKind.QUERY, StatementKind.SHOW, StatementKind.DESCRIBE,
                             StatementKind.EXPLAIN)


def classify(text: str) -> StatementKind:
    """Kind of one statement from its leading words."""
    words = text.strip().upper().replace("(", "( ").split()
    if not words:
        return StatementKind.OTHER
    first, second = words[0], words[1] if len(words) > 1 else ""
    if first == "ADD" and second in ("JAR", "JARS"):
        return StatementKind.ADD_JAR
    if first == "REMOVE" and second in ("JAR", "JARS"):
        return StatementKind.REMOVE_JAR
    if first == "LOAD" and second == "MODULE":
        return StatementKind.LOAD_MODULE
    if first == "UNLOAD" and second == "MODULE":
        return StatementKind.UNLOAD_MODULE
    if first == "USE" and second == "MODULES":
        return StatementKind.USE_MODULES
    if first == "USE":
        return StatementKind.USE
    return _FIRST_WORD.get(first, StatementKind.OTHER)


def split_script(script: str, max_chars: int | None = None) -> list[Statement]:
    """Statements of a script in order; empty statements (``;;``) are skipped.

    Raises InvalidStatementError for empty text or text over ``max_chars``.
    """
    if script is None or not script.strip():
        raise InvalidStatementError("the statement is empty: type a SQL statement such as SELECT 1")
    if max_chars is not None and len(script) > max_chars:
        raise InvalidStatementError(
            f"the statement is {len(script):,} characters long; the limit is {max_chars:,} "
            f"(setting statement.max_chars). Split it, or load large data from a file or table.")
    try:
        tokens = _SPARK.tokenize(script)
    except TokenError as exc:
        # Let Spark report the exact position (e.g. an unterminated string) on the whole text.
        if ";" not in script:
            return [Statement(script.strip(), classify(script), 0, _line_of(script, 0), 0)]
        raise InvalidStatementError(f"the script cannot be split into statements: {exc}. "
                                    f"Check for an unterminated string or comment.") from None
    statements: list[Statement] = []
    group: list = []
    for token in tokens + [None]:
        if token is None or token.token_type == TokenType.SEMICOLON:
            if group:
                start, end = group[0].start, group[-1].end + 1
                text = script[start:end]
                statements.append(Statement(text, classify(text), len(statements),
                                            _line_of(script, start), start))
            group = []
        else:
            group.append(token)
    if not statements:
        raise InvalidStatementError("the text holds only comments or semicolons: type a SQL statement")
    return statements


def _line_of(script: str, offset: int) -> int:
    stripped = len(script[offset:]) - len(script[offset:].lstrip())
    return script.count("\n", 0, offset + stripped) + 1
