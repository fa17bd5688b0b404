"""Parse the plan statements (the grammar is ours, so sqlglot's tokenizer, not its parser).

    COMPILE PLAN 'file.json' [IF NOT EXISTS] FOR <statement>
    COMPILE AND EXECUTE PLAN 'file.json' FOR <statement>
    EXECUTE PLAN 'file.json'
    EXPLAIN PLAN 'file.json'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from gateway.errors import InvalidStatementError
from gateway.core.statements import StatementKind, classify

_SPARK = Dialect.get_or_raise("spark")
_HEAD = re.compile(r"^\s*(COMPILE\s+AND\s+EXECUTE\s+PLAN|COMPILE\s+PLAN|EXECUTE\s+PLAN|EXPLAIN\s+PLAN)\b",
                   re.IGNORECASE)
# Statements a plan can hold: they read tables and produce rows or write them.
PLANNABLE = {StatementKind.QUERY: "QUERY", StatementKind.INSERT: "INSERT",
             StatementKind.INSERT_OVERWRITE: "INSERT", StatementKind.CREATE_TABLE_AS: "CREATE_TABLE_AS"}


@dataclass(frozen=True)
class PlanStatement:
    action: str                    # COMPILE, COMPILE_AND_EXECUTE, EXECUTE, EXPLAIN
    path: str                      # the file name as written
    inner: Optional[str] = None    # the statement after FOR
    if_not_exists: bool = False
    inner_kind: Optional[StatementKind] = None


def parse_plan_statement(text: str) -> PlanStatement:
    head = _HEAD.match(text)
    if head is None:
        raise InvalidStatementError(f"not a plan statement: {text[:60]!r}. {_USAGE}")
    action = {"COMPILE PLAN": "COMPILE", "COMPILE AND EXECUTE PLAN": "COMPILE_AND_EXECUTE",
              "EXECUTE PLAN": "EXECUTE", "EXPLAIN PLAN": "EXPLAIN"}[" ".join(head.group(1).upper().split())]
    rest = text[head.end():]
    try:
        # Only what follows the keywords: sqlglot reads EXPLAIN/EXECUTE as commands that swallow the rest.
        tokens = _SPARK.tokenize(rest)
    except TokenError as exc:
        raise InvalidStatementError(f"the plan statement cannot be read: {exc}. Check its quotes.") from None
    words = [t.text.upper() for t in tokens]
    keywords, at = " ".join(head.group(1).upper().split()).split(), 0
    if at >= len(tokens) or tokens[at].token_type != TokenType.STRING:
        raise InvalidStatementError(f"{' '.join(keywords)} needs the plan file as a quoted string, "
                                    f"like {' '.join(keywords)} 'daily.json'. {_USAGE}")
    path = tokens[at].text
    at += 1
    if action in ("EXECUTE", "EXPLAIN"):
        if at < len(tokens):
            raise InvalidStatementError(f"unexpected {tokens[at].text!r} after the plan file; "
                                        f"{action} PLAN takes only the file, like {action} PLAN 'daily.json'")
        return PlanStatement(action, path)
    if_not_exists = False
    if words[at:at + 3] == ["IF", "NOT", "EXISTS"]:
        if action != "COMPILE":
            raise InvalidStatementError("IF NOT EXISTS belongs to COMPILE PLAN only; "
                                        "COMPILE AND EXECUTE PLAN runs an existing plan file as it is")
        if_not_exists, at = True, at + 3
    if at >= len(tokens) or words[at] != "FOR" or at + 1 >= len(tokens):
        raise InvalidStatementError(f"{action.replace('_', ' ')} PLAN '{path}' needs FOR and the statement "
                                    f"to compile, like COMPILE PLAN '{path}' FOR SELECT …")
    inner = rest[tokens[at + 1].start:].strip().rstrip(";").strip()
    kind = classify(inner)
    if kind not in PLANNABLE:
        raise InvalidStatementError(
            f"a plan holds a SELECT, an INSERT or a CREATE TABLE … AS SELECT; "
            f"{kind.value.replace('_', ' ')} statements cannot be compiled into a plan")
    return PlanStatement(action, path, inner, if_not_exists, kind)


_USAGE = ("Plan statements: COMPILE PLAN 'f.json' [IF NOT EXISTS] FOR <statement>, "
          "COMPILE AND EXECUTE PLAN 'f.json' FOR <statement>, EXECUTE PLAN 'f.json', EXPLAIN PLAN 'f.json'.")


def execute_plan_statement(path: str) -> str:
    """``EXECUTE PLAN '<path>'`` with the name quoted so that it reads back as exactly ``path``."""
    text = "EXECUTE PLAN '" + path.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if parse_plan_statement(text).path != path:
        raise InvalidStatementError(f"the plan file name {path[:80]!r} cannot be written in an EXECUTE PLAN "
                                    f"statement; rename the file (letters, digits, '_', '-', '.', '/')")
    return text
