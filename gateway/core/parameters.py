"""Named parameter markers (``:name``, Spark's own syntax) and the typed values bound to them.

Markers are found in the code regions of ``sql_lexer`` (never inside a string, a quoted name or a
comment) and bound through Spark's ``args`` (``spark.sql(text, args={...})``): a value is a value,
never SQL text. A ``::`` cast (``x::INT``) and a path after a name or a closing bracket
(``v:a``, ``f(x):a``) are not markers.
"""
from __future__ import annotations

import base64
import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple, Optional

from gateway.errors import InvalidRequestError
from gateway.core.sql_lexer import CODE, COMMENT, regions

MAX_PARAMETERS = 1_000
MAX_VALUE_CHARS = 1_000_000
MAX_ARRAY_ITEMS = 10_000
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MARKER = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)")
# The character before ``:`` that makes it something else: a cast (``::``), or a path on a value.
_NOT_AFTER = re.compile(r"[\w$:)\]`'\"]")
# The typed form of a value: ``{"type": "DATE", "value": "2024-01-31"}``.
TYPES = ("STRING", "INT", "BIGINT", "DOUBLE", "DECIMAL", "BOOLEAN", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ",
         "BINARY", "ARRAY")


class Marker(NamedTuple):
    """A ``:name`` marker: its name and the offset of its colon in the text."""

    name: str
    offset: int


def markers(text: str) -> list[Marker]:
    """Every ``:name`` marker of ``text`` outside strings, quoted names and comments, in order.

    Examples:
        >>> [m.name for m in markers("SELECT * FROM t WHERE id = :id AND s = ':x' -- :y")]
        ['id']
        >>> markers("SELECT a::INT FROM t")
        []
    """
    if ":" not in text:
        return []
    found: list[Marker] = []
    for region in regions(text):
        if region.kind != CODE:
            continue
        for match in _MARKER.finditer(text, region.start, region.end):
            start = match.start()
            if start > 0 and _NOT_AFTER.match(text, start - 1):
                continue
            found.append(Marker(match.group(1), start))
    return found


def marker_names(text: str) -> list[str]:
    """The distinct marker names of ``text``, in order of first use."""
    return list(dict.fromkeys(m.name for m in markers(text)))


def check_parameters(parameters: Any) -> dict[str, Any]:
    """The given parameters as Python values Spark's ``args`` binds (date, datetime, Decimal, …).

    A value is a JSON scalar (string, whole number, number, true/false, null), a list of values, or the
    typed form ``{"type": "DATE", "value": "2024-01-31"}`` (types: ``TYPES``); Python callers may pass
    ``date``, ``datetime``, ``Decimal`` and ``bytes`` as they are. Anything else is a clear error.
    """
    if parameters is None:
        return {}
    if not isinstance(parameters, dict):
        raise InvalidRequestError(f"parameters must be a mapping of marker name to value (for :name markers), "
                                  f"not {type(parameters).__name__}")
    if len(parameters) > MAX_PARAMETERS:
        raise InvalidRequestError(f"{len(parameters)} parameters given; at most {MAX_PARAMETERS} are allowed")
    values: dict[str, Any] = {}
    for name, value in parameters.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise InvalidRequestError(
                f"parameter name {str(name)[:60]!r} is not a marker name: use letters, digits and _ "
                f"(not first), without the colon (the marker :id is the parameter 'id')")
        values[name] = _value(name, value)
    return values


def _value(name: str, value: Any, depth: int = 0) -> Any:
    if value is None or isinstance(value, (bool, int, Decimal, dt.date, bytes)):
        if isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**63:
            raise InvalidRequestError(f"parameter {name!r}: {value} does not fit a BIGINT; send it as "
                                      f'{{"type": "DECIMAL", "value": "{value}"}}')
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        if len(value) > MAX_VALUE_CHARS:
            raise InvalidRequestError(f"parameter {name!r} is {len(value):,} characters; at most "
                                      f"{MAX_VALUE_CHARS:,} are allowed")
        return value
    if isinstance(value, (list, tuple)):
        if depth > 0:
            raise InvalidRequestError(f"parameter {name!r}: an array of arrays is not supported")
        if len(value) > MAX_ARRAY_ITEMS:
            raise InvalidRequestError(f"parameter {name!r} has {len(value):,} items; at most {MAX_ARRAY_ITEMS:,}")
        items = [_value(name, item, depth + 1) for item in value]
        kinds = {type(item) for item in items if item is not None}
        if len(kinds) > 1 and not kinds <= {int, float}:
            raise InvalidRequestError(f"parameter {name!r}: the items of an array must have one type, got "
                                      f"{', '.join(sorted(k.__name__ for k in kinds))}")
        return items
    if isinstance(value, dict):
        return _typed(name, value, depth)
    raise InvalidRequestError(f"parameter {name!r}: a {type(value).__name__} cannot be bound; send a string, "
                              f"number, true/false, null, a list, or {{\"type\": …, \"value\": …}}")


def _typed(name: str, value: dict, depth: int) -> Any:
    kind, raw = value.get("type"), value.get("value")
    if set(value) - {"type", "value"} or not isinstance(kind, str) or kind.upper() not in TYPES:
        raise InvalidRequestError(f"parameter {name!r}: a typed value is {{\"type\": T, \"value\": V}} with T one of "
                                  f"{', '.join(TYPES)}; got {str(value)[:120]}")
    kind = kind.upper()
    if raw is None:
        return None
    try:
        if kind == "STRING":
            return _value(name, str(raw), depth)
        if kind in ("INT", "BIGINT"):
            number = int(raw) if not isinstance(raw, bool) else None
            if number is None or (isinstance(raw, float) and raw != number):
                raise ValueError(raw)
            if kind == "INT" and not -2**31 <= number < 2**31:
                raise ValueError(raw)
            return _value(name, number, depth)
        if kind == "DOUBLE":
            number = float(raw)
            return number
        if kind == "DECIMAL":
            number = Decimal(str(raw))
            if not number.is_finite():
                raise ValueError(raw)
            return number
        if kind == "BOOLEAN":
            if isinstance(raw, bool):
                return raw
            if str(raw).lower() in ("true", "false"):
                return str(raw).lower() == "true"
            raise ValueError(raw)
        if kind == "DATE":
            return dt.date.fromisoformat(str(raw))
        if kind == "TIMESTAMP":
            stamp = dt.datetime.fromisoformat(str(raw))
            return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.timezone.utc)
        if kind == "TIMESTAMP_NTZ":
            stamp = dt.datetime.fromisoformat(str(raw))
            if stamp.tzinfo is not None:
                raise ValueError(raw)
            return stamp
        if kind == "BINARY":
            return base64.b64decode(str(raw), validate=True)
        if kind == "ARRAY":
            if not isinstance(raw, list):
                raise ValueError(raw)
            return _value(name, raw, depth)
    except InvalidRequestError:
        raise
    except (ValueError, TypeError, InvalidOperation, OverflowError):
        pass
    examples = {"DATE": "2024-01-31", "TIMESTAMP": "2024-01-31T12:00:00+00:00", "TIMESTAMP_NTZ": "2024-01-31T12:00:00",
                "BINARY": "base64 text", "DECIMAL": "12.50", "INT": "a whole number in 32 bits",
                "BIGINT": "a whole number in 64 bits", "BOOLEAN": "true or false", "ARRAY": "a list",
                "DOUBLE": "a number"}
    raise InvalidRequestError(f"parameter {name!r}: {str(raw)[:80]!r} is not a {kind} value "
                              f"(expected {examples.get(kind, kind)})")


def missing(names: list[str], values: dict[str, Any]) -> list[str]:
    return [name for name in names if name not in values]


def missing_message(absent: list[str], statement_index: Optional[int], total: int, line: int) -> str:
    where = f" in statement {statement_index + 1} of {total} (line {line})" if total > 1 else ""
    listed = ", ".join(":" + name for name in absent)
    return (f"no value for the parameter marker{'s' if len(absent) > 1 else ''} {listed}{where}: pass "
            f"parameters={{{', '.join(repr(n) + ': …' for n in absent)}}} (in the editor, fill the form above it)")


# -- the editor's form: one field per marker, its widget chosen by a comment hint ---------------------

FIELD_KINDS = ("text", "number", "date", "date range", "list")
_HINT = re.compile(r""":([A-Za-z_][A-Za-z0-9_]*)[ \t]+(text|number|date[ \t]*range|date|list[ \t]+from[ \t]+"""
                   r"""(?:"([^"\n]+)"|'([^'\n]+)'))""", re.I)


def parameter_fields(text: str) -> list[dict]:
    """The form above the editor: one field per marker of ``text``, in order of first use.

    A comment names a marker's widget: ``-- :n number``, ``-- :day date``, ``-- :country list from "Countries"``
    (the values are the first column of that saved query), ``-- :start date range`` (one range picker for
    ``:start``). Without a hint a ``:from``/``:to`` pair (``:from``/``:to`` or ``:x_from``/``:x_to``) is one
    date range; anything else is text. A field: ``{"name", "kind", "source", "pair"}`` (``pair``: the two
    markers a range fills; ``source``: the saved query's name of a list).

    Example:
        >>> [f["kind"] for f in parameter_fields("-- :c list from 'Countries'\nSELECT :c, :from, :to")]
        ['list', 'date range']
    """
    names = marker_names(text)
    if not names:
        return []
    hints: dict[str, tuple[str, Optional[str]]] = {}
    for region in regions(text):
        if region.kind != COMMENT:
            continue
        for match in _HINT.finditer(text, region.start, region.end):
            kind = re.sub(r"\s+", " ", match.group(2).lower())
            source = match.group(3) or match.group(4)
            hints.setdefault(match.group(1), ("list" if kind.startswith("list") else kind, source))
    fields: list[dict] = []
    taken: set[str] = set()
    for name in names:
        if name in taken:
            continue
        kind, source = hints.get(name, (None, None))
        partner = _range_partner(name, names) if kind in (None, "date range") else None
        if kind == "date range" or (kind is None and partner is not None and partner not in hints):
            pair = [name, partner] if partner is not None else [name]
            taken.update(pair)
            fields.append({"name": name, "kind": "date range", "source": None, "pair": pair})
            continue
        taken.add(name)
        fields.append({"name": name, "kind": kind or "text", "source": source, "pair": [name]})
    return fields


def _range_partner(name: str, names: list[str]) -> Optional[str]:
    """``to`` for ``from`` (``x_to`` for ``x_from``) when the text uses it too."""
    lowered = name.lower()
    if lowered == "from" or lowered.endswith("_from"):
        partner = name[:-4] + ("to" if name[-4:].islower() else "TO")
        return next((n for n in names if n.lower() == partner.lower()), None)
    return None


def placeholder_text(text: str, values: dict[str, Any]) -> str:
    """``text`` with each bound marker replaced by a NULL of its value's type, for a plan check that cannot
    bind ``args`` (the engine guard parses and analyses the text): the plan's shape, none of the values' text,
    so no value can change what the check sees. Never run: offsets move."""
    parts, last = [], 0
    for marker in markers(text):
        if marker.name not in values:
            continue
        parts += [text[last:marker.offset], f"CAST(NULL AS {_sql_type(values[marker.name])})"]
        last = marker.offset + 1 + len(marker.name)
    return "".join(parts) + text[last:]


def _sql_type(value: Any) -> str:
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "BIGINT"
    if isinstance(value, float):
        return "DOUBLE"
    if isinstance(value, Decimal):
        return "DECIMAL(38, 10)"
    if isinstance(value, dt.datetime):
        return "TIMESTAMP" if value.tzinfo is not None else "TIMESTAMP_NTZ"
    if isinstance(value, dt.date):
        return "DATE"
    if isinstance(value, bytes):
        return "BINARY"
    if isinstance(value, list):
        first = next((item for item in value if item is not None), "")
        return f"ARRAY<{_sql_type(first)}>"
    return "STRING"
