"""Split scripts into statements and classify them, with sqlglot's Spark tokenizer.

Splitting works on tokens, not on a full parse, so that every statement Spark accepts
(including ones sqlglot cannot parse, like ``SET PATH`` or ``ADD JAR``) reaches Spark
unchanged, while semicolons inside strings and comments are respected.

The grammar is open: core knows Spark's own statement kinds; a feature adds its own kinds
(``LOAD MODULE``, ``COMPILE PLAN``, …) as ``StatementSpec`` entries of its ``statements``,
recognised by their leading words before core's rules.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from gateway.api.plugins import StatementSpec, feature_statements
from gateway.errors import InvalidStatementError

_SPARK = Dialect.get_or_raise("spark")


class StatementKind(str):
    """The kind of a statement: a name such as ``QUERY`` or a feature's ``LOAD_MODULE``.

    Core's kinds are the constants below; features declare theirs in ``StatementSpec``s.
    """

    __slots__ = ()

    @property
    def value(self) -> str:
        return str(self)

    # Spark's own statements
    QUERY: "StatementKind"             # SELECT, WITH, VALUES, TABLE, FROM …
    SHOW: "StatementKind"
    DESCRIBE: "StatementKind"
    EXPLAIN: "StatementKind"
    SET: "StatementKind"
    RESET: "StatementKind"
    USE: "StatementKind"
    CREATE: "StatementKind"
    CREATE_FUNCTION: "StatementKind"   # CREATE [OR REPLACE] [TEMPORARY [SYSTEM]] FUNCTION …
    CREATE_TABLE_AS: "StatementKind"   # [CREATE [OR REPLACE]|REPLACE] TABLE … AS SELECT
    DROP: "StatementKind"
    ALTER: "StatementKind"
    INSERT: "StatementKind"
    INSERT_OVERWRITE: "StatementKind"  # INSERT OVERWRITE [TABLE] t …
    ADD_JAR: "StatementKind"
    OTHER: "StatementKind"


CORE_STATEMENTS: tuple[StatementSpec, ...] = (
    StatementSpec("QUERY", returns_rows=True, read_only=True),
    StatementSpec("SHOW", returns_rows=True, read_only=True),
    StatementSpec("DESCRIBE", returns_rows=True, read_only=True),
    StatementSpec("EXPLAIN", returns_rows=True, read_only=True),
    StatementSpec("SET", configures=True, read_only=True),
    StatementSpec("RESET", configures=True, read_only=True),
    StatementSpec("USE", configures=True),
    StatementSpec("CREATE", configures=True),
    StatementSpec("CREATE_FUNCTION", configures=True),
    StatementSpec("CREATE_TABLE_AS"),
    StatementSpec("DROP", configures=True),
    StatementSpec("ALTER", configures=True),
    StatementSpec("INSERT"),
    StatementSpec("INSERT_OVERWRITE"),
    StatementSpec("ADD_JAR", configures=True),
    StatementSpec("OTHER"),
)
for _spec in CORE_STATEMENTS:
    setattr(StatementKind, _spec.kind, StatementKind(_spec.kind))


class Grammar:
    """Core's statement kinds plus every feature's, loaded once from the installed features."""

    def __init__(self, specs) -> None:
        self.specs: dict[str, StatementSpec] = {}
        for spec in specs:
            if spec.kind in self.specs:
                raise InvalidStatementError(f"the statement kind {spec.kind} is declared twice")
            self.specs[spec.kind] = spec
        self.starts = sorted(((tuple(start), StatementKind(spec.kind)) for spec in self.specs.values()
                              for start in spec.starts), key=lambda item: -len(item[0]))

    def spec(self, kind: str) -> StatementSpec:
        return self.specs.get(kind) or self.specs["OTHER"]

    def feature_kind(self, words: list[str]):
        for start, kind in self.starts:
            if words[:len(start)] == list(start):
                return kind
        return None


_grammar: Grammar | None = None


def grammar() -> Grammar:
    """The process's grammar: core's kinds and those of every installed feature."""
    global _grammar
    if _grammar is None:
        _grammar = Grammar(CORE_STATEMENTS + tuple(feature_statements()))
    return _grammar


def spec_of(kind: str) -> StatementSpec:
    return grammar().spec(kind)


def configure_kinds() -> list[str]:
    """The kinds configure_session accepts (FLIP-91's list, plus what features allow)."""
    return sorted(kind for kind, spec in grammar().specs.items() if spec.configures)


def changes_schema(kinds) -> bool:
    """True when a script with these statement kinds may change the catalog (completion reloads)."""
    return any(not spec_of(kind).read_only for kind in kinds)


_FIRST_WORD = {
    "SELECT": StatementKind.QUERY, "WITH": StatementKind.QUERY, "VALUES": StatementKind.QUERY,
    "TABLE": StatementKind.QUERY, "FROM": StatementKind.QUERY, "(": StatementKind.QUERY,
    "SHOW": StatementKind.SHOW, "DESCRIBE": StatementKind.DESCRIBE, "DESC": StatementKind.DESCRIBE,
    "EXPLAIN": StatementKind.EXPLAIN, "SET": StatementKind.SET, "RESET": StatementKind.RESET,
    "CREATE": StatementKind.CREATE, "REPLACE": StatementKind.CREATE, "DROP": StatementKind.DROP,
    "ALTER": StatementKind.ALTER, "INSERT": StatementKind.INSERT, "USE": StatementKind.USE,
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
        return spec_of(self.kind).returns_rows


def classify(text: str) -> StatementKind:
    """Kind of one statement from its leading words: a feature's kind first, then Spark's."""
    words = text.strip().upper().replace("(", "( ").split()
    if not words:
        return StatementKind.OTHER
    feature_kind = grammar().feature_kind(words)
    if feature_kind is not None:
        return feature_kind
    first, second = words[0], words[1] if len(words) > 1 else ""
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


MAX_NESTING = 256


def check_text(script: str) -> None:
    """Refuse text that is not valid Unicode: a lone UTF-16 surrogate (``"\\ud800"`` in JSON) cannot
    reach Spark, the store or a JSON answer."""
    if script.isascii():
        return
    try:
        script.encode("utf-8")
    except UnicodeEncodeError as exc:
        before = script[:exc.start]
        line, position = before.count("\n") + 1, exc.start - (before.rfind("\n") + 1)
        raise InvalidStatementError(
            f"the statement holds a lone UTF-16 surrogate (U+{ord(script[exc.start]):04X}) at line {line}, "
            f"position {position}: that is not valid Unicode text. Remove it, or send the character it was "
            f"meant to be as one code point (a JSON client must pair \\ud83d with its low surrogate)",
            line=line, position=position) from None


def check_nesting(tokens, max_nesting: int) -> None:
    """Refuse parentheses nested deeper than ``max_nesting``: Spark's parser and planner recurse
    once per level, and thousands of levels end in a StackOverflowError after seconds of work."""
    depth = deepest = 0
    for token in tokens:
        if token.token_type == TokenType.L_PAREN:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > max_nesting:
                    raise InvalidStatementError(
                        f"the statement is too deeply nested: more than {max_nesting} levels of parentheses "
                        f"(setting statement.max_nesting). Flatten it: use a WITH clause, a temporary view "
                        f"or several statements instead of nesting", error_class="STATEMENT_TOO_DEEPLY_NESTED")
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1


def split_script(script: str, max_chars: int | None = None, max_nesting: int = MAX_NESTING) -> list[Statement]:
    """Statements of a script in order; empty statements (``;;``) are skipped.

    Raises InvalidStatementError for empty text, text over ``max_chars``, text that is not valid
    Unicode, or parentheses nested deeper than ``max_nesting``.
    """
    if script is None or not script.strip():
        raise InvalidStatementError("the statement is empty: type a SQL statement such as SELECT 1")
    if max_chars is not None and len(script) > max_chars:
        raise InvalidStatementError(
            f"the statement is {len(script):,} characters long; the limit is {max_chars:,} "
            f"(setting statement.max_chars). Split it, or load large data from a file or table.")
    check_text(script)
    try:
        tokens = _SPARK.tokenize(script)
    except TokenError as exc:
        # Let Spark report the exact position (e.g. an unterminated string) on the whole text.
        if ";" not in script:
            return [Statement(script.strip(), classify(script), 0, _line_of(script, 0), 0)]
        raise InvalidStatementError(f"the script cannot be split into statements: {exc}. "
                                    f"Check for an unterminated string or comment.") from None
    check_nesting(tokens, max_nesting)
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
