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

from gateway.errors import InvalidStatementError

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
    SHOW_MODULES = "SHOW_MODULES"          # SHOW [FULL] MODULES (FLIP-68)
    SHOW_JARS = "SHOW_JARS"                # SHOW JARS, LIST JAR[S] (FLIP-214, per session)
    CREATE_FUNCTION = "CREATE_FUNCTION"    # CREATE [OR REPLACE] [TEMPORARY [SYSTEM]] FUNCTION …
    CREATE_TABLE_AS = "CREATE_TABLE_AS"    # [CREATE [OR REPLACE]|REPLACE] TABLE … AS SELECT (FLIP-305)
    INSERT_OVERWRITE = "INSERT_OVERWRITE"  # INSERT OVERWRITE [TABLE] t … (FLIP-305)
    COMPILE_PLAN = "COMPILE_PLAN"          # COMPILE PLAN 'f' [IF NOT EXISTS] FOR … (FLIP-190)
    EXECUTE_PLAN = "EXECUTE_PLAN"          # EXECUTE PLAN 'f', COMPILE AND EXECUTE PLAN 'f' FOR …
    EXPLAIN_PLAN = "EXPLAIN_PLAN"          # EXPLAIN PLAN 'f'
    OTHER = "OTHER"


# Kinds that configure_session accepts (FLIP-91).
CONFIGURE_KINDS = frozenset({
    StatementKind.SET, StatementKind.RESET, StatementKind.CREATE, StatementKind.DROP, StatementKind.USE,
    StatementKind.ALTER, StatementKind.LOAD_MODULE, StatementKind.UNLOAD_MODULE, StatementKind.USE_MODULES,
    StatementKind.ADD_JAR, StatementKind.REMOVE_JAR, StatementKind.CREATE_FUNCTION,
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
                             StatementKind.EXPLAIN, StatementKind.SHOW_MODULES, StatementKind.SHOW_JARS,
                             StatementKind.EXPLAIN_PLAN)


def classify(text: str) -> StatementKind:
    """Kind of one statement from its leading words."""
    words = text.strip().upper().replace("(", "( ").split()
    if not words:
        return StatementKind.OTHER
    first, second = words[0], words[1] if len(words) > 1 else ""
    third = words[2] if len(words) > 2 else ""
    if first == "SHOW" and (second == "MODULES" or (second == "FULL" and third == "MODULES")):
        return StatementKind.SHOW_MODULES
    if (first == "SHOW" and second == "JARS") or (first == "LIST" and second in ("JAR", "JARS")):
        return StatementKind.SHOW_JARS
    if first == "COMPILE" and second == "PLAN":
        return StatementKind.COMPILE_PLAN
    if (first == "EXECUTE" and second == "PLAN") or words[:4] == ["COMPILE", "AND", "EXECUTE", "PLAN"]:
        return StatementKind.EXECUTE_PLAN
    if first == "EXPLAIN" and second == "PLAN":
        return StatementKind.EXPLAIN_PLAN
    if first == "INSERT" and second == "OVERWRITE":
        return StatementKind.INSERT_OVERWRITE
    if first in ("CREATE", "REPLACE"):
        head = [w for w in words[1:7] if w not in ("OR", "REPLACE", "TEMPORARY", "SYSTEM", "GLOBAL", "TEMP")]
        if head and head[0] == "FUNCTION":
            return StatementKind.CREATE_FUNCTION
        if head and head[0] == "TABLE" and _has_top_level_as_query(text):
            return StatementKind.CREATE_TABLE_AS
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


_QUERY_STARTS = {TokenType.SELECT, TokenType.WITH, TokenType.FROM, TokenType.VALUES, TokenType.L_PAREN}


def _has_top_level_as_query(text: str) -> bool:
    """True when ``AS`` followed by a query stands outside any parentheses (CTAS, RTAS)."""
    try:
        tokens = _SPARK.tokenize(text)
    except TokenError:
        return False
    depth = 0
    for current, following in zip(tokens, tokens[1:]):
        if current.token_type == TokenType.L_PAREN:
            depth += 1
        elif current.token_type == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and current.token_type == TokenType.ALIAS and following.token_type in _QUERY_STARTS:
            return True
    return False


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
