"""The module statements (FLIP-68 syntax), parsed with sqlglot's Spark tokenizer, and their handlers.

    SHOW [FULL] MODULES
    LOAD MODULE name [WITH ('type'='…', 'key'='value', …)]
    UNLOAD MODULE name
    USE MODULES name [, name …]
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import Token, TokenType

from gateway.errors import InvalidStatementError

_SPARK = Dialect.get_or_raise("spark")
_SHOW = re.compile(r"^\s*SHOW\s+(FULL\s+)?MODULES\s*;?\s*$", re.IGNORECASE)
_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
SYNTAX = {
    "SHOW": "SHOW [FULL] MODULES",
    "LOAD": "LOAD MODULE name [WITH ('type'='…', 'key'='value', …)]",
    "UNLOAD": "UNLOAD MODULE name",
    "USE": "USE MODULES name [, name …]",
}


@dataclass
class ModuleStatement:
    verb: str                                   # SHOW, LOAD, UNLOAD, USE
    names: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    full: bool = False


def parse(text: str) -> ModuleStatement:
    """Parse one module statement; a malformed one is an InvalidStatementError showing the syntax."""
    show = _SHOW.match(text)
    if show:  # by pattern: sqlglot's Spark tokenizer reads "FULL MODULES" as one string token
        return ModuleStatement("SHOW", full=bool(show.group(1)))
    try:
        tokens = [t for t in _SPARK.tokenize(text) if t.token_type != TokenType.SEMICOLON]
    except TokenError as exc:
        raise InvalidStatementError(f"the module statement cannot be read: {exc}") from None
    words = [t.text.upper() for t in tokens]
    verb = words[0] if words else ""
    reader = _Reader(tokens, SYNTAX.get(verb, "; ".join(SYNTAX.values())))
    if verb == "SHOW":
        raise InvalidStatementError(f"{text.strip()[:80]!r} is not a module statement; the syntax is {SYNTAX['SHOW']}")
    if verb == "LOAD":
        reader.expect("LOAD")
        reader.expect("MODULE")
        name = reader.name()
        properties = reader.properties() if reader.accept("WITH") else {}
        reader.end()
        return ModuleStatement("LOAD", [name], properties)
    if verb == "UNLOAD":
        reader.expect("UNLOAD")
        reader.expect("MODULE")
        name = reader.name()
        reader.end()
        return ModuleStatement("UNLOAD", [name])
    if verb == "USE":
        reader.expect("USE")
        reader.expect("MODULES")
        names = [reader.name()]
        while reader.accept(","):
            names.append(reader.name())
        reader.end()
        return ModuleStatement("USE", names)
    raise InvalidStatementError(f"not a module statement: {text[:60]!r}; the module statements are "
                                f"{'; '.join(SYNTAX.values())}")


class _Reader:
    def __init__(self, tokens: list[Token], syntax: str) -> None:
        self.tokens, self.syntax, self.at = tokens, syntax, 0

    def _fail(self, wanted: str):
        found = repr(self.tokens[self.at].text) if self.at < len(self.tokens) else "the end"
        raise InvalidStatementError(f"expected {wanted} but found {found}; the syntax is {self.syntax}")

    def accept(self, word: str) -> bool:
        if self.at < len(self.tokens) and self.tokens[self.at].text.upper() == word:
            self.at += 1
            return True
        return False

    def expect(self, word: str) -> None:
        if not self.accept(word):
            self._fail(word)

    def end(self) -> None:
        if self.at != len(self.tokens):
            self._fail("the end of the statement")

    def name(self) -> str:
        if self.at < len(self.tokens):
            token = self.tokens[self.at]
            if token.token_type in (TokenType.IDENTIFIER, TokenType.STRING) or _WORD.match(token.text):
                self.at += 1
                return token.text
        self._fail("a module name")

    def _string(self, what: str) -> str:
        parts = []
        while self.at < len(self.tokens) and self.tokens[self.at].token_type == TokenType.STRING:
            parts.append(self.tokens[self.at].text)  # adjacent literals join, as in Spark
            self.at += 1
        if not parts:
            if what == "a property name" and self.at < len(self.tokens) and _WORD.match(self.tokens[self.at].text):
                self.at += 1
                return self.tokens[self.at - 1].text
            self._fail(what)
        return "".join(parts)

    def properties(self) -> dict[str, str]:
        self.expect("(")
        values: dict[str, str] = {}
        while True:
            key = self._string("a property name").lower()
            self.expect("=")
            if key in values:
                raise InvalidStatementError(f"the property {key!r} is given twice; the syntax is {self.syntax}")
            values[key] = self._string("a quoted property value")
            if self.accept(")"):
                return values
            if not self.accept(","):
                self._fail("',' or ')'")


def _literal(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _rows_frame(spark, full: bool, infos):
    """SHOW [FULL] MODULES as a VALUES query: a local relation, no Python worker (createDataFrame
    from a list goes through a Python RDD)."""
    columns = ["`module name`", "used", "type", "version"] if full else ["`module name`"]
    rows = [(i.name, i.used, i.type, i.version)[:len(columns)] for i in infos]
    if not rows:
        nulls = ", ".join(f"CAST(NULL AS {'BOOLEAN' if c == 'used' else 'STRING'}) AS {c}" for c in columns)
        return spark.sql(f"SELECT {nulls} WHERE false")
    values = ", ".join("(" + ", ".join(_literal(v) for v in row) + ")" for row in rows)
    return spark.sql(f"SELECT * FROM VALUES {values} AS modules({', '.join(columns)})")


def handle(manager, statement) -> Optional[object]:
    """Run one module statement on a session's ModuleManager."""
    parsed = parse(statement.text)
    if parsed.verb == "SHOW":
        return _rows_frame(manager.spark, parsed.full, manager.list_modules(parsed.full))
    if parsed.verb == "LOAD":
        manager.load(parsed.names[0], parsed.properties)
    elif parsed.verb == "UNLOAD":
        manager.unload(parsed.names[0])
    else:
        manager.use(parsed.names)
    return None
