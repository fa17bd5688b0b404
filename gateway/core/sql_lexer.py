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
from typing import NamedTuple, Optional

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
    or white space; semicolons outside strings, names, comments and ``BEGIN … END`` blocks end a
    statement. Empty ones are skipped. A comment left open runs to the end and belongs to its
    statement (Spark rejects it); so does a block left open."""
    spans: list[tuple[int, int]] = []
    start = end = None
    block: Optional[_Block] = None
    every = regions(text)
    every.append(Region(SEMICOLON, len(text), len(text)))
    for index, region in enumerate(every):
        if region.kind == SEMICOLON:
            if block is not None and not block.done and region.start < len(text):
                block.feed(";")
                continue
            if start is not None:
                spans.append((start, end))
            start = end = None
            block = None
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
            if start is None and opens_block(_words_from(text, every, index)):
                block = _Block()
            if block is not None:
                for match in _CODE_WORD.finditer(text, region.start, region.end):
                    block.feed(match.group().upper())
        else:
            first, last = region.start, region.end
            if block is not None:
                block.feed(_NAME if region.kind == QUOTED_NAME else _OTHER)
        if start is None:
            start = first
        end = last
    return spans


# -- SQL scripting: BEGIN … END compound statements ------------------------------------------------

_CODE_WORD = re.compile(r"[\w$]+|\S")
_NAME, _OTHER = "\x00name", "\x00other"   # a quoted name (may be a label), any other literal
_NOT_A_BLOCK = frozenset({";", "TRANSACTION", "WORK", "TRAN"})
# Words that start a statement and may be followed by ``:`` (a named parameter), so are no label.
_NO_LABEL = frozenset({"SELECT", "SET", "VALUES", "INSERT", "UPDATE", "DELETE", "MERGE", "WITH", "FROM",
                       "CALL", "EXECUTE", "RETURN", "SIGNAL", "RESIGNAL", "DECLARE", "TABLE"})
_HEAD_ENDS = {"IF": "THEN", "ELSEIF": "THEN", "WHEN": "THEN", "CASE": "THEN", "WHILE": "DO", "FOR": "DO",
              "UNTIL": "END"}


def _words_from(text: str, every: list[Region], index: int, count: int = 4) -> list[str]:
    """The next ``count`` tokens from region ``index`` on (words upper-cased, ``;`` for a semicolon,
    ``_OTHER``/``_NAME`` for a literal or quoted name), comments skipped."""
    out: list[str] = []
    for region in every[index:]:
        if region.kind == SEMICOLON:
            out.append(";")
        elif region.kind == CODE:
            out.extend(m.group().upper() for m in _CODE_WORD.finditer(text, region.start, region.end))
        elif region.kind != COMMENT or not region.closed:
            out.append(_NAME if region.kind == QUOTED_NAME else _OTHER)
        if len(out) >= count:
            break
    return out[:count]


def opens_block(words: list[str]) -> bool:
    """True when a statement's first words open a compound statement of SQL scripting: ``BEGIN``
    followed by its body or ``END`` (not ``BEGIN;`` nor ``BEGIN TRANSACTION``), or ``label: BEGIN``."""
    if len(words) >= 3 and words[1] == ":" and words[0] not in _NO_LABEL and words[2] == "BEGIN":
        words = words[2:]
    return len(words) >= 2 and words[0] == "BEGIN" and words[1] not in _NOT_A_BLOCK


class _Block:
    """Follows a ``BEGIN … END`` compound statement token by token, as Spark's grammar nests it: BEGIN,
    LOOP and REPEAT open a body; IF, ELSEIF, WHEN, CASE, WHILE and FOR have a head (a condition or query,
    which may hold ``CASE … END`` expressions) up to THEN or DO; ``UNTIL cond END REPEAT`` closes a
    REPEAT; END at a statement's start closes the innermost; a ``DECLARE … HANDLER`` body may be a block;
    ``label:`` may stand before any of them. Parentheses hide everything inside. ``done`` once the
    outermost END is read: the next semicolon ends the statement."""

    def __init__(self) -> None:
        self.depth = 0
        self.opened = False
        self.at_start = True         # the next word starts a statement of a body
        self.start_word = ""         # the word that started the current statement (a label before ``:``?)
        self.head_end: Optional[str] = None
        self.cases = 0               # CASE … END expressions open in a head
        self.parens = 0
        self.handler = 0             # 1: in DECLARE …, 2: in DECLARE … HANDLER (a BEGIN opens its body)

    @property
    def done(self) -> bool:
        return self.opened and self.depth == 0

    def feed(self, word: str) -> None:
        if self.done:
            return
        if word in ("(", ")"):
            self.parens += 1 if word == "(" else -1
            self.at_start = False
            return
        if self.parens > 0:
            return
        if self.head_end is not None:
            self._head(word)
            return
        if word == ";":
            self.at_start, self.handler, self.start_word = True, 0, ""
            return
        if word == ":" and self.start_word:
            self.at_start, self.start_word = True, ""  # ``label:``
            return
        if not self.at_start:
            self.start_word = ""
            if self.handler == 1 and word == "HANDLER":
                self.handler = 2
            elif self.handler == 2 and word == "BEGIN":
                self._open()
            return
        self.at_start = False
        self.start_word = word if word not in _NO_LABEL else ""
        if word in ("BEGIN", "LOOP", "REPEAT"):
            self._open()
        elif word in ("IF", "WHILE", "FOR", "CASE"):
            self.depth += 1
            self.opened = True
            self.head_end = _HEAD_ENDS[word]
        elif word in ("ELSEIF", "WHEN", "UNTIL"):
            self.head_end = _HEAD_ENDS[word]
        elif word == "ELSE":
            self.at_start = True
        elif word == "END":
            self.depth -= 1
        elif word == "DECLARE":
            self.handler = 1

    def _open(self) -> None:
        self.depth += 1
        self.opened = True
        self.at_start, self.handler, self.start_word = True, 0, ""

    def _head(self, word: str) -> None:
        if word == "CASE":
            self.cases += 1
        elif word == "END" and self.cases:
            self.cases -= 1
        elif word == self.head_end and not self.cases:
            if word == "END":      # UNTIL cond END REPEAT
                self.depth -= 1
            else:
                self.at_start = True
            self.head_end = None


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
