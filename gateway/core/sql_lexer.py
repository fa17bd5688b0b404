"""Where Spark's lexer puts strings, quoted names and comments: enough of it to split a script.

Spark's lexer (SqlBaseLexer.g4) nests bracketed comments (``/*/**/*/`` is one comment), continues a
``--`` comment over a backslash at the end of its line, reads ``'…'`` and ``"…"`` with backslash
escapes, ``r'…'``/``R"…"`` raw (no escapes) and ``` `…` ``` with ``````` for a backquote. A typed
literal (``X'…'``, ``DATE'…'``) is a word and a string to the lexer, so a bad one (``X'XuZ'``) is the
parser's error and stays inside its own statement. sqlglot's tokenizer neither nests comments nor
reads on past a bad literal, which is why splitting does not use it.

Every region has its offsets into the script, so a statement keeps its line and column.
"""
from __future__ import annotations

import re
from typing import NamedTuple

# The start of anything that is not plain code: a quote, a comment, a semicolon.
_SPECIAL = re.compile(r"""['"`;]|--|/\*""")
_WORD_CHAR = re.compile(r"[\w$]")
_QUOTED = {
    "'": re.compile(r"'(?:[^'\\]|\\.)*'", re.S),
    '"': re.compile(r'"(?:[^"\\]|\\.)*"', re.S),
    "r'": re.compile(r"[rR]'[^']*'"),
    'r"': re.compile(r'[rR]"[^"]*"'),
    "`": re.compile(r"`(?:[^`]|``)*`"),
}
_LINE_COMMENT = re.compile(r"--(?:\\\n|[^\r\n])*")
_BRACKET = re.compile(r"/\*|\*/")

CODE, STRING, QUOTED_NAME, COMMENT, SEMICOLON = "code", "string", "quoted_name", "comment", "semicolon"


class Region(NamedTuple):
    """A stretch of the script: ``kind`` is one of CODE, STRING, QUOTED_NAME, COMMENT, SEMICOLON;
    ``closed`` is False for a string or comment that runs to the end of the text unterminated."""

    kind: str
    start: int
    end: int
    closed: bool = True


def regions(text: str) -> list[Region]:
    """The script cut into regions, in order, covering every character."""
    out: list[Region] = []
    position, length = 0, len(text)
    while position < length:
        found = _SPECIAL.search(text, position)
        if found is None:
            out.append(Region(CODE, position, length))
            break
        start = found.start()
        token = found.group()
        raw = (token in "'\"" and start > position and text[start - 1] in "rR"
               and (start < 2 or not _WORD_CHAR.match(text, start - 2)))  # r'…' is one raw string
        if raw:
            start -= 1
        if start > position:
            out.append(Region(CODE, position, start))
        if token == ";":
            out.append(Region(SEMICOLON, start, start + 1))
            position = start + 1
        elif token == "--":
            end = _LINE_COMMENT.match(text, start).end()
            out.append(Region(COMMENT, start, end))
            position = end
        elif token == "/*":
            end, closed = _bracketed_comment_end(text, start)
            out.append(Region(COMMENT, start, end, closed))
            position = end
        else:
            match = _QUOTED["r" + token if raw else token].match(text, start)
            kind = QUOTED_NAME if token == "`" else STRING
            if match is None:  # unterminated: Spark reports it; it is the rest of the text
                out.append(Region(kind, start, length, closed=False))
                position = length
            else:
                out.append(Region(kind, start, match.end()))
                position = match.end()
    return out


def _bracketed_comment_end(text: str, start: int) -> tuple[int, bool]:
    """End of the (nested) comment opened at ``start``, and whether it was closed."""
    depth, position = 0, start
    while True:
        found = _BRACKET.search(text, position)
        if found is None:
            return len(text), False
        depth += 1 if found.group() == "/*" else -1
        position = found.end()
        if depth == 0:
            return position, True


def comment_nesting(text: str) -> int:
    """The deepest nesting of bracketed comments as Spark's lexer reads them (an unclosed one counts):
    the engine guard refuses deep ones before Spark's lexer spends minutes and gigabytes on them."""
    return max((bracket_depth(text, region) for region in regions(text)), default=0)


def bracket_depth(text: str, region: Region) -> int:
    """How deep one comment region nests ``/*`` (0 for a ``--`` comment or any other region)."""
    if region.kind != COMMENT or not text.startswith("/*", region.start):
        return 0
    depth = deepest = 0
    for found in _BRACKET.finditer(text, region.start, region.end):
        depth += 1 if found.group() == "/*" else -1
        deepest = max(deepest, depth)
    return deepest


def statement_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each statement: from its first to its last character that is not a comment
    or white space; semicolons outside strings, names and comments end a statement. Empty ones are
    skipped. A comment left open runs to the end and belongs to its statement (Spark rejects it)."""
    spans: list[tuple[int, int]] = []
    start = end = None
    for region in regions(text) + [Region(SEMICOLON, len(text), len(text))]:
        if region.kind == SEMICOLON:
            if start is not None:
                spans.append((start, end))
            start = end = None
            continue
        if region.kind == COMMENT and region.closed:
            continue
        if region.kind == CODE:
            chunk = text[region.start:region.end]
            stripped = chunk.strip()
            if not stripped:
                continue
            first = region.start + (len(chunk) - len(chunk.lstrip()))
            last = region.start + len(chunk.rstrip())
        else:
            first, last = region.start, region.end
        if start is None:
            start = first
        end = last
    return spans


def without_comments(text: str) -> str:
    """``text`` with every comment replaced by spaces (newlines kept): offsets, lines and columns
    stay where they were, and no word can hide behind or inside a comment."""
    if "--" not in text and "/*" not in text:
        return text
    parts: list[str] = []
    for region in regions(text):
        chunk = text[region.start:region.end]
        parts.append(re.sub(r"[^\n]", " ", chunk) if region.kind == COMMENT else chunk)
    return "".join(parts)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and 0-based column (Spark's ``pos``) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1)
