"""One reading of a statement, made once, that every guard takes: its kind, what it reads and
writes, whether it writes, whether it loads code.

The reading works on the statement's tokens as Spark's lexer cuts them (``gateway.core.sql_lexer``),
with comments removed, so ``ADD /*x*/ JAR``, ``add\\njar`` and ``ADD -- c\\n JAR`` are all ADD_JAR and
``WITH … INSERT/**/INTO`` is a write. sqlglot's Spark tokenizer is not used here: it folds ``ADD JAR``,
``SHOW …`` and ``EXECUTE …`` into one command token whose rest is a string, and it does not nest
comments as Spark does. Spark's own parser is asked where it can answer and a guard needs certainty
(``spark_node``: the restrictions' check of non-admin statements); the gateway's own kinds
(LOAD MODULE, COMPILE PLAN, REMOVE JAR, …), which Spark cannot parse, are read from tokens only.

The grammar is open: core knows Spark's statement kinds; a feature adds its own kinds
(``LOAD MODULE``, ``COMPILE PLAN``, …) as ``StatementSpec`` entries of its ``statements``,
recognised by their leading words before core's rules.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple, Optional

from gateway.api.plugins import Access, StatementSpec, feature_statements
from gateway.core.sql_lexer import (CODE, COMMENT, QUOTED_NAME, SEMICOLON, STRING, bracket_depth, opens_block,
                                    regions, without_comments)
from gateway.errors import InvalidStatementError


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
    SHOW: "StatementKind"              # SHOW …, LIST FILE/ARCHIVE
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
    ADD_FILE: "StatementKind"          # ADD FILE(S) / ARCHIVE(S): files for the executors
    TRUNCATE: "StatementKind"
    MERGE: "StatementKind"
    UPDATE: "StatementKind"
    DELETE: "StatementKind"
    CACHE: "StatementKind"             # CACHE [LAZY] TABLE, UNCACHE TABLE, CLEAR CACHE
    REFRESH: "StatementKind"           # REFRESH [TABLE|FUNCTION] …, REFRESH 'path'
    ANALYZE: "StatementKind"
    REPAIR: "StatementKind"            # MSCK REPAIR TABLE, REPAIR TABLE
    LOAD_DATA: "StatementKind"
    COMMENT: "StatementKind"           # COMMENT ON …
    DECLARE: "StatementKind"           # DECLARE [OR REPLACE] [VARIABLE] v …
    EXECUTE_IMMEDIATE: "StatementKind" # EXECUTE IMMEDIATE 'sql': text the gateway cannot see
    SCRIPT: "StatementKind"            # [label:] BEGIN … END: SQL scripting's compound statement
    OTHER: "StatementKind"


USERS = Access.USERS  # core's kinds a signed-in user may run (docs/users.md)
CORE_STATEMENTS: tuple[StatementSpec, ...] = (
    StatementSpec("QUERY", returns_rows=True, read_only=True, access=USERS),
    StatementSpec("SHOW", returns_rows=True, read_only=True, access=USERS),
    StatementSpec("DESCRIBE", returns_rows=True, read_only=True, access=USERS),
    StatementSpec("EXPLAIN", returns_rows=True, read_only=True, access=USERS),
    StatementSpec("SET", configures=True, read_only=True, access=USERS),
    StatementSpec("RESET", configures=True, read_only=True, access=USERS, journaled=True),
    StatementSpec("USE", configures=True, access=USERS, journaled=True),
    StatementSpec("CREATE", configures=True, access=USERS),
    StatementSpec("CREATE_FUNCTION", configures=True, access=USERS),
    StatementSpec("CREATE_TABLE_AS", access=USERS),
    StatementSpec("DROP", configures=True, access=USERS),
    StatementSpec("ALTER", configures=True, access=USERS),
    StatementSpec("INSERT", access=USERS),
    StatementSpec("INSERT_OVERWRITE", access=USERS),
    StatementSpec("ADD_JAR", configures=True, loads_code=True, access=USERS, journaled=True, takes_resources=True),
    StatementSpec("ADD_FILE", loads_code=True, access=USERS, takes_resources=True),
    StatementSpec("TRUNCATE", access=USERS),
    StatementSpec("MERGE", access=USERS),
    StatementSpec("UPDATE", access=USERS),
    StatementSpec("DELETE", access=USERS),
    StatementSpec("CACHE", access=USERS),
    StatementSpec("REFRESH", read_only=True, access=USERS),
    StatementSpec("ANALYZE", access=USERS),
    StatementSpec("REPAIR", access=USERS),
    StatementSpec("LOAD_DATA", access=USERS),
    StatementSpec("COMMENT", access=USERS),
    StatementSpec("DECLARE", read_only=True, access=USERS),
    StatementSpec("EXECUTE_IMMEDIATE", returns_rows=True, loads_code=True, access=Access.ADMINS),  # unseen SQL: fail closed
    # A script's statements run inside Spark, past the guards that read one statement: fail closed.
    StatementSpec("SCRIPT", returns_rows=True, loads_code=True, access=Access.ADMINS),
    StatementSpec("OTHER"),  # access undeclared: for admins (fail closed)
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
        self.core = frozenset(spec.kind for spec in CORE_STATEMENTS)

    def spec(self, kind: str) -> StatementSpec:
        return self.specs.get(kind) or self.specs["OTHER"]

    def feature_kind(self, words) -> Optional[StatementKind]:
        for start, kind in self.starts:
            if tuple(words[:len(start)]) == start:
                return kind
        return None


_grammar: Optional[Grammar] = None


def grammar() -> Grammar:
    """The process's grammar: core's kinds and those of every installed feature."""
    global _grammar
    if _grammar is None:
        _grammar = Grammar(CORE_STATEMENTS + tuple(feature_statements()))
    return _grammar


def spec_of(kind: str) -> StatementSpec:
    return grammar().spec(kind)


# -- tokens ------------------------------------------------------------------------------------

WORD, PUNCT = "word", "punct"
_CODE_TOKEN = re.compile(r"[\w$]+|\S")


class Token(NamedTuple):
    """A token as Spark's lexer would cut it, comments removed: a WORD (its text upper-cased in
    ``upper``), a STRING (``text`` is the literal as written, quotes included), a QUOTED_NAME or PUNCT."""

    kind: str
    text: str
    start: int

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind == WORD else self.text


def tokens(text: str) -> list[Token]:
    """The tokens of one statement, comments dropped (a semicolon ends them, except inside a
    ``BEGIN … END`` block, where it is a PUNCT token)."""
    return _lex(text)[0]


def _lex(text: str) -> tuple[list[Token], int]:
    """The tokens of one statement and the deepest nesting of its ``/* */`` comments, in one pass."""
    out: list[Token] = []
    comment_depth = 0
    for region in regions(text):
        if region.kind == SEMICOLON:
            if not opens_block([t.upper for t in out[:4]] + [";"]):
                break
            out.append(Token(PUNCT, ";", region.start))
            continue
        if region.kind == COMMENT:
            comment_depth = max(comment_depth, bracket_depth(text, region))
            continue
        if region.kind == CODE:
            for match in _CODE_TOKEN.finditer(text, region.start, region.end):
                piece = match.group()
                out.append(Token(WORD if piece[0].isalnum() or piece[0] in "_$" else PUNCT,
                                 piece, match.start()))
        else:
            out.append(Token(region.kind, text[region.start:region.end], region.start))
    return out, comment_depth


# -- the analysis ------------------------------------------------------------------------------

@dataclass(frozen=True)
class StatementAnalysis:
    """What a statement is and does, read once (``analyse``), for every guard.

    ``words``: its tokens with comments removed, words upper-cased (strings as written).
    ``writes``: it may change a table's data or definition (other sessions must read fresh files); a
    session's own temporary view, function or variable does not (a GLOBAL TEMPORARY view is shared: it does).
    ``loads_code``: it puts code into the driver or executors (ADD JAR/FILE/ARCHIVE, CREATE FUNCTION
    … AS 'class' [USING …], LOAD MODULE, EXECUTE IMMEDIATE whose SQL the gateway cannot see).
    ``resources``: the URIs it adds or removes (ADD/REMOVE JAR, ADD FILE, USING JAR …).
    ``targets``/``reads``: the names it writes or defines, and reads, as written (token level;
    ``gateway.spark.parser.plan_objects`` gives Spark's own reading).
    ``temporary``: a TEMPORARY/TEMP object (a session's own state). ``max_depth``: deepest parentheses.
    """

    kind: StatementKind
    words: tuple[str, ...]
    writes: bool
    loads_code: bool
    resources: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    temporary: bool = False
    max_depth: int = 0
    assigns: bool = False          # SET k = v (not SET, SET -v, SET k: those only show)
    comment_depth: int = 0         # deepest nesting of /* */ comments (the engine guard's limit)

    @property
    def core_kind(self) -> bool:
        """A kind of Spark's grammar (not one the gateway handles itself): Spark's parser can read it."""
        return self.kind in grammar().core


_FIRST_WORD = {
    "SELECT": StatementKind.QUERY, "WITH": StatementKind.QUERY, "VALUES": StatementKind.QUERY,
    "TABLE": StatementKind.QUERY, "FROM": StatementKind.QUERY, "(": StatementKind.QUERY,
    "MAP": StatementKind.QUERY, "REDUCE": StatementKind.QUERY,
    "SHOW": StatementKind.SHOW, "DESCRIBE": StatementKind.DESCRIBE, "DESC": StatementKind.DESCRIBE,
    "EXPLAIN": StatementKind.EXPLAIN, "SET": StatementKind.SET, "RESET": StatementKind.RESET,
    "CREATE": StatementKind.CREATE, "REPLACE": StatementKind.CREATE, "DROP": StatementKind.DROP,
    "ALTER": StatementKind.ALTER, "INSERT": StatementKind.INSERT, "USE": StatementKind.USE,
    "TRUNCATE": StatementKind.TRUNCATE, "MERGE": StatementKind.MERGE, "UPDATE": StatementKind.UPDATE,
    "DELETE": StatementKind.DELETE, "CACHE": StatementKind.CACHE, "UNCACHE": StatementKind.CACHE,
    "REFRESH": StatementKind.REFRESH, "ANALYZE": StatementKind.ANALYZE, "MSCK": StatementKind.REPAIR,
    "REPAIR": StatementKind.REPAIR, "COMMENT": StatementKind.COMMENT, "DECLARE": StatementKind.DECLARE,
}
_SECOND_WORD = {
    ("ADD", "JAR"): StatementKind.ADD_JAR, ("ADD", "JARS"): StatementKind.ADD_JAR,
    ("ADD", "FILE"): StatementKind.ADD_FILE, ("ADD", "FILES"): StatementKind.ADD_FILE,
    ("ADD", "ARCHIVE"): StatementKind.ADD_FILE, ("ADD", "ARCHIVES"): StatementKind.ADD_FILE,
    ("LIST", "FILE"): StatementKind.SHOW, ("LIST", "FILES"): StatementKind.SHOW,
    ("LIST", "ARCHIVE"): StatementKind.SHOW, ("LIST", "ARCHIVES"): StatementKind.SHOW,
    ("LOAD", "DATA"): StatementKind.LOAD_DATA, ("CLEAR", "CACHE"): StatementKind.CACHE,
    ("EXECUTE", "IMMEDIATE"): StatementKind.EXECUTE_IMMEDIATE,
}
_CREATE_MODIFIERS = frozenset({"OR", "REPLACE", "TEMPORARY", "SYSTEM", "GLOBAL", "TEMP", "EXTERNAL"})
_QUERY_STARTS = frozenset({"SELECT", "WITH", "FROM", "VALUES", "(", "TABLE", "MAP", "REDUCE"})
_RESOURCE_KINDS = frozenset({"JAR", "FILE", "ARCHIVE"})
# Spark's own reading of ADD/REMOVE JAR arguments (SparkSqlParser.visitManageResource): quoted or bare.
_RESOURCE_ARGUMENT = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^ \n\r\t"']+)""")
_ESCAPE = re.compile(r"\\(.)", re.S)


def classify_words(words) -> StatementKind:
    """The kind from a statement's leading words (comments removed, upper case)."""
    if not words:
        return StatementKind.OTHER
    if opens_block(list(words[:4])):
        return StatementKind.SCRIPT
    feature_kind = grammar().feature_kind(words)
    if feature_kind is not None:
        return feature_kind
    first, second = words[0], words[1] if len(words) > 1 else ""
    if (first, second) in _SECOND_WORD:
        return _SECOND_WORD[(first, second)]
    if first == "INSERT" and second == "OVERWRITE":
        return StatementKind.INSERT_OVERWRITE
    if first in ("CREATE", "REPLACE"):
        head = [w for w in words[1:7] if w not in _CREATE_MODIFIERS]
        if head and head[0] == "FUNCTION":
            return StatementKind.CREATE_FUNCTION
        if head and head[0] == "TABLE" and _has_top_level_as_query(words):
            return StatementKind.CREATE_TABLE_AS
    return _FIRST_WORD.get(first, StatementKind.OTHER)


def _has_top_level_as_query(words) -> bool:
    """True when ``AS`` followed by a query stands outside any parentheses (CTAS, RTAS)."""
    depth = 0
    for current, following in zip(words, words[1:]):
        if current == "(":
            depth += 1
        elif current == ")":
            depth -= 1
        elif depth == 0 and current == "AS" and following in _QUERY_STARTS:
            return True
    return False


def _depth(words) -> int:
    depth = deepest = 0
    for word in words:
        if word == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif word == ")":
            depth -= 1
    return deepest


def unquote(literal: str) -> str:
    """A string literal's value as Spark reads it (quotes off, backslash escapes undone; raw as is)."""
    if literal[:1] in "rR" and literal[1:2] in ("'", '"'):
        return literal[2:-1]
    if literal[:1] in ("'", '"') and literal[-1:] == literal[:1] and len(literal) >= 2:
        return _ESCAPE.sub(r"\1", literal[1:-1])
    return literal


def _name_at(toks: list[Token], position: int) -> Optional[str]:
    """A multipart name starting at ``position`` (words or quoted names joined by dots), as written."""
    parts: list[str] = []
    while position < len(toks) and toks[position].kind in (WORD, QUOTED_NAME):
        parts.append(toks[position].text)
        if position + 1 < len(toks) and toks[position + 1].text == ".":
            position += 2
            continue
        break
    return ".".join(parts) or None


def _skip(words, position: int, *optional: str) -> int:
    while position < len(words) and words[position] in optional:
        position += 1
    return position


_TARGET_AFTER = {  # kind -> words that may stand between the leading word and the target's name
    "CREATE": ("OR", "REPLACE", "TEMPORARY", "TEMP", "GLOBAL", "EXTERNAL", "TABLE", "VIEW", "FUNCTION",
               "DATABASE", "SCHEMA", "NAMESPACE", "CATALOG", "MATERIALIZED", "IF", "NOT", "EXISTS", "SYSTEM",
               "VARIABLE", "INDEX"),
    "DROP": ("TEMPORARY", "TEMP", "TABLE", "VIEW", "FUNCTION", "DATABASE", "SCHEMA", "NAMESPACE", "IF", "EXISTS",
             "VARIABLE", "SYSTEM", "CATALOG", "INDEX", "MATERIALIZED"),
    "ALTER": ("TABLE", "VIEW", "DATABASE", "SCHEMA", "NAMESPACE"),
    "INSERT": ("INTO", "OVERWRITE", "TABLE"),
    "TRUNCATE": ("TABLE",), "MERGE": ("INTO",), "UPDATE": (), "DELETE": ("FROM",),
    "CACHE": ("LAZY", "TABLE"), "UNCACHE": ("TABLE", "IF", "EXISTS"), "ANALYZE": ("TABLE", "TABLES"),
    "MSCK": ("REPAIR", "TABLE"), "REPAIR": ("TABLE",), "COMMENT": ("ON", "TABLE", "COLUMN", "DATABASE", "SCHEMA"),
}


def _targets(kind: str, toks: list[Token], words) -> tuple[str, ...]:
    found: list[str] = []
    first = words[0] if words else ""
    if kind in (StatementKind.LOAD_DATA,):
        for i, word in enumerate(words):
            if word == "INTO" and i + 2 < len(words) and words[i + 1] == "TABLE":
                found.append(_name_at(toks, i + 2) or "")
    elif first in _TARGET_AFTER and kind not in (StatementKind.QUERY,):
        name = _name_at(toks, _skip(words, 1, *_TARGET_AFTER[first]))
        if name:
            found.append(name)
    if first != "INSERT":  # WITH … INSERT INTO t, FROM s INSERT INTO t … INSERT INTO u
        depth = 0
        for i, word in enumerate(words):
            depth += (word == "(") - (word == ")")
            if depth == 0 and word == "INSERT":
                name = _name_at(toks, _skip(words, i + 1, "INTO", "OVERWRITE", "TABLE"))
                if name and name.upper() not in ("DIRECTORY", "LOCAL"):
                    found.append(name)
    return tuple(n for n in found if n)


_RELATION_END = frozenset({
    "WHERE", "GROUP", "ORDER", "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "NATURAL", "ANTI", "SEMI", "ON",
    "USING", "LIMIT", "OFFSET", "UNION", "EXCEPT", "INTERSECT", "MINUS", "HAVING", "WINDOW", "LATERAL", "SELECT",
    "INSERT", "CLUSTER", "DISTRIBUTE", "SORT", "TABLESAMPLE", "PIVOT", "UNPIVOT", "QUALIFY", "WITH", "FOR", "VERSION",
    "TIMESTAMP", "OUTER", "AS", ")", ",", ";"})


def _skip_parens(words, position: int) -> int:
    depth = 0
    for index in range(position, len(words)):
        depth += (words[index] == "(") - (words[index] == ")")
        if depth == 0:
            return index + 1
    return len(words)


def _skip_alias(toks: list[Token], words, position: int) -> int:
    if position < len(words) and words[position] == "AS":
        position += 1
    if position < len(toks) and toks[position].kind in (WORD, QUOTED_NAME) and words[position] not in _RELATION_END:
        position += 1
        if position < len(words) and words[position] == "(":  # t AS x(a, b)
            position = _skip_parens(words, position)
    return position


def _relations_at(toks: list[Token], words, position: int, found: list[str]) -> None:
    """Read the relations of ``FROM a [[AS] x], (subquery) y, range(3), …`` at ``position`` into
    ``found``: names only (a subquery's own FROM is read where it stands; VALUES and table
    function calls name no table)."""
    while position < len(words):
        if words[position] == "(":
            position = _skip_alias(toks, words, _skip_parens(words, position))
        elif toks[position].kind in (WORD, QUOTED_NAME) and words[position] not in _QUERY_STARTS:
            name = _name_at(toks, position)
            position += 2 * len(name_parts(name)) - 1
            if position < len(words) and words[position] == "(":  # a table function call
                position = _skip_parens(words, position)
            else:
                found.append(name)
            position = _skip_alias(toks, words, position)
        else:
            return
        if position < len(words) and words[position] == ",":
            position += 1
            continue
        return


def _reads(toks: list[Token], words) -> tuple[str, ...]:
    """Names read: after FROM and JOIN (also ``FROM a, b``), and ``TABLE t`` as a query."""
    found: list[str] = []
    if words[:1] == ("TABLE",):
        _relations_at(toks, words, 1, found)
    for i, word in enumerate(words):
        if word in ("FROM", "JOIN"):
            _relations_at(toks, words, i + 1, found)
    return tuple(dict.fromkeys(found))


def name_parts(name: str) -> tuple[str, ...]:
    """A multipart name as written (``db.`a.b```) in its parts, backquotes off (``('db', 'a.b')``)."""
    parts: list[str] = []
    for token in tokens(name):
        if token.kind == QUOTED_NAME:
            parts.append(token.text[1:-1].replace("``", "`"))
        elif token.kind == WORD:
            parts.append(token.text)
    return tuple(parts)


def _resources(kind: str, text: str, toks: list[Token], words) -> tuple[str, ...]:
    if spec_of(kind).takes_resources:
        if len(toks) < 2:
            return ()
        rest = without_comments(text)[toks[1].start + len(toks[1].text):].rstrip().rstrip(";")
        return tuple(unquote(m.group()) for m in _RESOURCE_ARGUMENT.finditer(rest))
    if kind == StatementKind.CREATE_FUNCTION and "USING" in words:
        using = words.index("USING")
        return tuple(unquote(toks[i + 1].text) for i in range(using + 1, len(toks) - 1)
                     if words[i] in _RESOURCE_KINDS and toks[i + 1].kind == STRING)
    return ()


def _class_function(words, toks: list[Token]) -> bool:
    """CREATE FUNCTION … AS 'class' (a JVM or Python class: code), not a SQL function (RETURN …)."""
    depth = 0
    for i, word in enumerate(words[:-1]):
        depth += (word == "(") - (word == ")")
        if depth == 0 and word in ("AS", "USING", "LANGUAGE") and (toks[i + 1].kind == STRING or word != "AS"):
            if word == "LANGUAGE" and words[i + 1] == "SQL":
                continue
            return True
    return False


_CACHED_CHARS = 10_000


def analyse(text: str) -> StatementAnalysis:
    """The analysis of one statement; cached for short texts (a statement is read again by the
    worker's split and the journal), so a long one holds no memory after its run."""
    return _analyse_cached(text) if len(text) <= _CACHED_CHARS else _analyse(text)


@functools.lru_cache(maxsize=1024)
def _analyse_cached(text: str) -> StatementAnalysis:
    return _analyse(text)


def _analyse(text: str) -> StatementAnalysis:
    toks, comment_depth = _lex(text)
    words = tuple(t.upper for t in toks)
    kind = classify_words(words)
    spec = spec_of(kind)
    loads_code = spec.loads_code or (kind == StatementKind.CREATE_FUNCTION and _class_function(words, toks))
    temporary = kind in ("CREATE", "CREATE_FUNCTION", "DROP", "DECLARE") and bool(
        {"TEMPORARY", "TEMP"} & set(words[:5])) or kind == StatementKind.DECLARE
    if kind == StatementKind.QUERY:
        writes = "INSERT" in words
    else:  # a session's own temporary object moves no other session's epoch (their cached tables stay)
        writes = not spec.read_only and kind != StatementKind.USE and not (temporary and "GLOBAL" not in words[:4])
    return StatementAnalysis(
        kind=kind, words=words, writes=writes, loads_code=loads_code,
        resources=_resources(kind, text, toks, words),
        targets=_targets(kind, toks, words) if kind != StatementKind.SET else (),
        reads=_reads(toks, words) if kind not in (StatementKind.SET, StatementKind.ADD_JAR) else (),
        temporary=temporary, max_depth=_depth(words),
        assigns=kind == StatementKind.SET and "=" in words, comment_depth=comment_depth)


def classify(text: str) -> StatementKind:
    """Kind of one statement: a feature's kind first, then Spark's."""
    return analyse(text).kind
