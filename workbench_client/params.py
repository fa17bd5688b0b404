"""Parameters of a statement (paramstyle named, ``:name``): ``wire_parameters`` sends them to the gateway,
which binds them through Spark's ``args`` (never into the text). ``bind_parameters`` and ``sql_literal``
(literals in the text) stay for callers that need SQL text, such as a statement shown to a person."""
from __future__ import annotations

import base64
import datetime as dt
import math
import re
from decimal import Decimal

from workbench_client.errors import NotSupportedError, ProgrammingError


def quote_identifier(name: str) -> str:
    """A Spark SQL identifier in back-quotes (a back-quote inside doubled)."""
    return "`" + name.replace("`", "``") + "`"


# Strings, quoted names and comments (left alone), ``::`` casts, and ``:name`` placeholders.
_PLACEHOLDERS = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`]|``)*`|--[^\n]*|/\*.*?\*/|::"""
                           r"""|:([A-Za-z_][A-Za-z0-9_]*)""", re.S)


def bind_parameters(operation: str, parameters) -> str:
    """``:name`` placeholders (paramstyle named) replaced by Spark SQL literals, outside strings and
    comments. Without parameters (None or empty) the text goes as it is."""
    if not parameters:
        return operation
    if not isinstance(parameters, dict):
        raise ProgrammingError(f"parameters must be a mapping for :name placeholders (paramstyle named), "
                               f"not {type(parameters).__name__}")

    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        if name not in parameters:
            raise ProgrammingError(f"the statement has the placeholder :{name} but no parameter {name!r} was given "
                                   f"(given: {', '.join(sorted(parameters))})")
        return sql_literal(parameters[name])

    return _PLACEHOLDERS.sub(replace, operation)


def sql_literal(value) -> str:
    """A Python value as a Spark SQL literal."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"CAST('{value}' AS DOUBLE)"
        return repr(value) + "D"
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            utc = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
            return f"TIMESTAMP'{utc.isoformat(sep=' ')}+00:00'"  # TIMESTAMP_LTZ, the instant
        return f"TIMESTAMP_NTZ'{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date):
        return f"DATE'{value.isoformat()}'"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"X'{bytes(value).hex()}'"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple)):
        return "array(" + ", ".join(sql_literal(v) for v in value) + ")"
    raise NotSupportedError(f"cannot send a {type(value).__name__} as a SQL parameter; use str, int, float, "
                            f"Decimal, bool, date, datetime, bytes, a list of them, or None")


def wire_parameters(parameters) -> dict:
    """``parameters`` (a mapping for ``:name`` markers) as the REST body's ``parameters``: JSON values, and
    ``{"type": …, "value": …}`` where JSON has no such type (dates, timestamps, Decimal, bytes, NaN)."""
    if not isinstance(parameters, dict):
        raise ProgrammingError(f"parameters must be a mapping for :name placeholders (paramstyle named), "
                               f"not {type(parameters).__name__}")
    return {str(name): _wire_value(value) for name, value in parameters.items()}


def _wire_value(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return {"type": "DOUBLE", "value": str(value)}
        return value
    if isinstance(value, Decimal):
        return {"type": "DECIMAL", "value": str(value)}
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            return {"type": "TIMESTAMP", "value": value.isoformat()}
        return {"type": "TIMESTAMP_NTZ", "value": value.isoformat()}
    if isinstance(value, dt.date):
        return {"type": "DATE", "value": value.isoformat()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"type": "BINARY", "value": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, (list, tuple)):
        return {"type": "ARRAY", "value": [_wire_value(v) for v in value]}
    raise NotSupportedError(f"cannot send a {type(value).__name__} as a SQL parameter; use str, int, float, "
                            f"Decimal, bool, date, datetime, bytes, a list of them, or None")
