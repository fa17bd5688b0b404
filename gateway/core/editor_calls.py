"""Calls the front ends need around the editor: session options, table previews and statistics,
splitting and formatting scripts, workbench settings.

They build the SQL text here, quoted once and right, so that no front end (Streamlit pages,
REST clients) concatenates SQL itself. ``EditorCalls`` is a mixin of ``GatewayService``.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Optional

import sqlglot
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import TokenType

from gateway.core.parameters import parameter_fields
from gateway.core.catalog import quote_name
from gateway.errors import InvalidRequestError, InvalidStatementError, SqlExecutionError
from gateway.handles import OperationHandle, SessionHandle
from gateway.models import ResultType, StatementText

_SETTING_KEY = re.compile(r"^[A-Za-z0-9_.\-]+$")


def setting_key(key: Any) -> str:
    """``key`` stripped, if it is a plain Spark setting name; else InvalidRequestError (no SQL injection)."""
    if not isinstance(key, str) or not _SETTING_KEY.match(key.strip()):
        raise InvalidRequestError(f"'{key}' is not a setting name: use letters, digits, dots, dashes and "
                                  f"underscores, e.g. spark.sql.shuffle.partitions")
    return key.strip()


class EditorCalls:
    """SET/RESET one option, preview and analyze a table, split and format scripts, read settings."""

    # -- session options ---------------------------------------------------------------------------

    def set_session_option(self, session: SessionHandle, key: str, value: str) -> None:
        """``SET key=value`` in the session (through configure_session, so it is journaled like typed SQL)."""
        key = setting_key(key)
        if not isinstance(value, str):
            raise InvalidRequestError(f"the value of {key} must be text, got {type(value).__name__}")
        value = value.strip()
        if ";" in value:
            raise InvalidRequestError(f"the value of {key} cannot contain ';': Spark's SET ends at it")
        self.configure_session(session, f"SET {key}={value}")

    def reset_session_option(self, session: SessionHandle, key: Optional[str] = None) -> None:
        """``RESET key`` to its default; without a key (None or blank), ``RESET`` every setting."""
        if key is None or (isinstance(key, str) and not key.strip()):
            self.configure_session(session, "RESET")
            return
        self.configure_session(session, f"RESET {setting_key(key)}")

    # -- tables ------------------------------------------------------------------------------------

    def preview_statement(self, session: SessionHandle, name: str, limit: int = 100) -> str:
        """The ``SELECT * FROM <name> LIMIT n`` text with the name quoted, to open in an editor."""
        self.sessions.get(session)  # an unknown session fails here, as every session call does
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidRequestError(f"limit must be a whole number >= 1, got {limit!r}")
        if not isinstance(name, str):
            raise InvalidRequestError(f"the table name must be text, got {type(name).__name__}")
        return f"SELECT * FROM {quote_name(name)} LIMIT {limit}"

    def preview_table(self, session: SessionHandle, name: str, limit: int = 100) -> OperationHandle:
        """Run the preview statement; fetch its rows like any operation's."""
        return self.execute_statement(session, self.preview_statement(session, name, limit))

    def analyze_table(self, session: SessionHandle, name: str) -> None:
        """``ANALYZE TABLE … COMPUTE STATISTICS FOR ALL COLUMNS``; returns when done, raises if it failed."""
        if not isinstance(name, str):
            raise InvalidRequestError(f"the table name must be text, got {type(name).__name__}")
        statement = f"ANALYZE TABLE {quote_name(name)} COMPUTE STATISTICS FOR ALL COLUMNS"
        operation = self.execute_statement(session, statement)
        try:
            # The operation's own timeout (operation.timeout_ms) bounds the wait.
            for page in self.iter_results(session, operation, timeout_s=math.inf):
                if page.result_type is ResultType.ERROR:
                    raise SqlExecutionError(page.exception["root_cause"], page.exception)
        finally:
            self.close_operation(session, operation)

    # -- scripts -----------------------------------------------------------------------------------

    def split_statements(self, script: str) -> list[StatementText]:
        """The statements of a script as the gateway runs them (kind, index, 1-based line, offset)."""
        if not isinstance(script, str):
            raise InvalidStatementError(f"the script must be text, got {type(script).__name__}")
        return [StatementText(s.text, s.kind.value, s.index, s.line, s.offset) for s in self.runner.split(script)]

    def statement_parameters(self, script: str) -> list[dict]:
        """The parameter form of a script: one field per ``:name`` marker (see ``parameters.parameter_fields``)."""
        if not isinstance(script, str):
            raise InvalidStatementError(f"the script must be text, got {type(script).__name__}")
        if len(script) > self.runner.max_chars:
            raise InvalidStatementError(f"the script is {len(script):,} characters; at most "
                                        f"{self.runner.max_chars:,} are allowed")
        return parameter_fields(script)

    def format_statement(self, script: str) -> str:
        """The script pretty-printed statement by statement (sqlglot, Spark dialect), comments kept
        where they were and as they were typed (``--`` stays ``--``)."""
        return format_script(script, self.runner.max_chars)


# -- formatting with comments kept ----------------------------------------------------------------

_SPARK = Dialect.get_or_raise("spark")
_PLACED = re.compile(r"/\*\s*__wb_comment_(\d+)__\s*\*/")


@dataclass
class _Statement:
    tokens: list
    leading: list[str]      # comments on their own lines before it
    inline: list[tuple[int, int]]   # spans of comments between its tokens
    trailing: list[str]     # comments after its last token (before its ';' or on the ';' line)


def format_script(script: str, max_chars: Optional[int] = None) -> str:
    """Pretty SQL, statement by statement; every comment of ``script`` appears once in the result.

    sqlglot turns comments into ``/* */`` and loses the ones between statements, so comments are
    cut out first: those between statements are put back verbatim around the formatted text, those
    inside a statement go through sqlglot as numbered placeholders and are swapped back after.
    Raises InvalidStatementError for text sqlglot cannot parse (naming the statement's line).
    """
    if not isinstance(script, str) or not script.strip():
        raise InvalidStatementError("the statement is empty: type a SQL statement such as SELECT 1")
    if max_chars is not None and len(script) > max_chars:
        raise InvalidStatementError(f"the text is {len(script):,} characters long; the limit is {max_chars:,} "
                                    f"(setting statement.max_chars)")
    try:
        tokens = _SPARK.tokenize(script)
    except TokenError as exc:
        raise InvalidStatementError(f"the text cannot be formatted: {exc}. Check for an unterminated string "
                                    f"or comment.") from None
    statements, closing = _statements_with_comments(script, tokens)
    if not statements:
        raise InvalidStatementError("the text holds only comments or semicolons: type a SQL statement")
    terminator = ";" if len(statements) > 1 else ""
    blocks = []
    for statement in statements:
        body = _format_one(script, statement) + terminator
        for i, comment in enumerate(statement.trailing):
            body += ("\n" if i and statement.trailing[i - 1].startswith("--") else " ") + comment
        blocks.append("\n".join(statement.leading + [body]))
    return "\n\n".join(blocks) + "".join("\n" + c for c in closing)


def _statements_with_comments(script: str, tokens: list) -> tuple[list[_Statement], list[str]]:
    """Group tokens into statements and give every comment a place: leading, inline or trailing."""
    statements: list[_Statement] = []
    current = _Statement([], [], [], [])
    pending: list[str] = []            # comments waiting for the next statement
    ended_at: Optional[int] = None     # end of the ';' that closed the last statement
    previous_end = 0
    for token in tokens + [None]:
        gap_end = token.start if token is not None else len(script)
        for start, end in _comment_spans(script, previous_end, gap_end):
            text = script[start:end]
            if current.tokens:
                if token is not None and token.token_type != TokenType.SEMICOLON:
                    current.inline.append((start, end))
                elif token is None and "\n" in script[previous_end:start]:
                    pending.append(text)      # below the last statement: closes the script
                else:
                    current.trailing.append(text)
            elif statements and ended_at is not None and "\n" not in script[ended_at:start]:
                statements[-1].trailing.append(text)   # on the line of the previous ';'
            else:
                pending.append(text)
        if token is None:
            break
        if token.token_type == TokenType.SEMICOLON:
            if current.tokens:
                statements.append(current)
                current = _Statement([], [], [], [])
            ended_at = token.end + 1
        else:
            if not current.tokens:
                current.leading, pending = pending, []
            current.tokens.append(token)
        previous_end = token.end + 1
    if current.tokens:
        statements.append(current)
    return statements, pending


def _comment_spans(script: str, start: int, end: int) -> list[tuple[int, int]]:
    """``--`` and (nested) ``/* */`` comments in a stretch between two tokens."""
    spans, i = [], start
    while i < end:
        if script.startswith("--", i):
            stop = script.find("\n", i, end)
            stop = end if stop < 0 else stop
            spans.append((i, stop))
            i = stop
        elif script.startswith("/*", i):
            depth, j = 1, i + 2
            while j < end and depth:
                if script.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif script.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def _format_one(script: str, statement: _Statement) -> str:
    first, last = statement.tokens[0], statement.tokens[-1]
    source, cursor, comments = [], first.start, []
    for start, end in statement.inline:
        source.append(script[cursor:start])
        source.append(f"/*__wb_comment_{len(comments)}__*/")
        comments.append(script[start:end])
        cursor = end
    source.append(script[cursor:last.end + 1])
    line = script.count("\n", 0, first.start) + 1
    try:
        formatted = sqlglot.transpile("".join(source), read="spark", write="spark", pretty=True)
    except (ParseError, TokenError) as exc:
        raise InvalidStatementError(f"the statement at line {line} cannot be formatted: {_reason(exc)}. "
                                    f"Fix it (or run it to see Spark's error) and format again.") from None
    if len(formatted) != 1:
        raise InvalidStatementError(f"the statement at line {line} formats into {len(formatted)} statements; "
                                    f"separate statements with ';'")
    return _put_back(formatted[0], comments, line)


def _reason(exc: Exception) -> str:
    """sqlglot's description of a parse error and the word it stopped at (its column counts placeholders)."""
    errors = getattr(exc, "errors", None) or []
    if errors and errors[0].get("description"):
        near = errors[0].get("highlight")
        return errors[0]["description"] + (f" near {near!r}" if near else "")
    return (str(exc).splitlines() or [type(exc).__name__])[0].rstrip(".")


def _put_back(text: str, comments: list[str], line: int) -> str:
    """Swap the placeholders for the comments; a ``--`` comment ends its line, so what follows it moves down."""
    found = [int(m.group(1)) for m in _PLACED.finditer(text)]
    for index, comment in enumerate(comments):
        if found.count(index) != 1:
            raise InvalidStatementError(
                f"formatting the statement at line {line} would {'lose' if index not in found else 'repeat'} "
                f"the comment {comment!r}: sqlglot keeps no comment at that place. Move the comment to the "
                f"end of a line or above the statement, then format again.")
    out, cursor = [], 0
    for match in _PLACED.finditer(text):
        out.append(text[cursor:match.start()])
        comment = comments[int(match.group(1))]
        out.append(comment)
        cursor = match.end()
        if comment.startswith("--"):
            line_end = text.find("\n", cursor)
            line_end = len(text) if line_end < 0 else line_end
            rest = text[cursor:line_end]
            if rest.strip():
                line_start = "".join(out).rfind("\n") + 1
                current_line = "".join(out)[line_start:]
                indent = current_line[:len(current_line) - len(current_line.lstrip())]
                out.append("\n" + indent)
                # The rest of the line may hold another placeholder: keep scanning from it.
                skip = len(rest) - len(rest.lstrip())
                cursor += skip
    out.append(text[cursor:])
    return "".join(out)
