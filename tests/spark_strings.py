"""Spark's string form (``CAST(x AS STRING)``) of a value as each workbench path delivers it.

The tests of every value (tests/gateway/core/test_spark_values.py) and the corpus test
(tests/corpus/test_spark_corpus.py) compare what the gateway, REST (JSON and Arrow), the DB-API
client and the downloads give with Spark's own string cast of the same expression in the same
session. Each path has its own value form (JSON text, Arrow, native Python, CSV text, Parquet);
``spark_string(value, type_json, zone)`` renders any of them as Spark would, guided by the
column's type JSON. Written for these tests from Spark's documented formats: dates and
timestamps ``yyyy-MM-dd HH:mm:ss[.ffffff]`` with trailing zeros dropped, zoned timestamps in the
session zone, day-time intervals ``INTERVAL 'd hh:mm:ss.ffffff' DAY TO SECOND``, doubles as Java's
``Double.toString``, nested values ``[a, b]``, ``{k -> v}``, ``{a, b}`` with ``null`` inside.
"""
from __future__ import annotations

import base64
import datetime as dt
import decimal
import math
import re
from typing import Any, Optional
from zoneinfo import ZoneInfo

_ISO = re.compile(r"^([+-]?\d{4,})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?(Z)?$")
_EPOCH_DAYS = 719_468  # days from 0000-03-01 to 1970-01-01 (Howard Hinnant's days_from_civil)


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date, any year (datetime stops at year 1)."""
    year -= month <= 2
    era = year // 400  # floor division
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - _EPOCH_DAYS


def civil_from_days(days: int) -> tuple[int, int, int]:
    days += _EPOCH_DAYS
    era = days // 146097  # floor division (Hinnant's C code adjusts truncating division for this)
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


def year_text(year: int) -> str:
    """A year as Spark's cast writes it: four digits at least, ``+`` past 9999, ``-`` before year 0."""
    return ("+" if year > 9999 else "-" if year < 0 else "") + f"{abs(year):04d}"


def _micros_of_text(text: str) -> int:
    """Micros since the epoch of an ISO date-time text read as UTC wall time (any year)."""
    match = _ISO.match(text)
    assert match, f"not an ISO date-time: {text!r}"
    year, month, day, hour, minute, second, fraction, _ = match.groups()
    micros = int((fraction or "0").ljust(6, "0")[:6])
    seconds = days_from_civil(int(year), int(month), int(day)) * 86400 + int(hour or 0) * 3600 \
        + int(minute or 0) * 60 + int(second or 0)
    return seconds * 1_000_000 + micros


def _text_of_micros(micros: int) -> str:
    """Spark's ``yyyy-MM-dd HH:mm:ss[.f]`` of a wall time in micros since the epoch."""
    days, rest = divmod(micros, 86_400_000_000)
    year, month, day = civil_from_days(days)
    seconds, fraction = divmod(rest, 1_000_000)
    hour, seconds = divmod(seconds, 3600)
    minute, second = divmod(seconds, 60)
    text = f"{year_text(year)}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d}"
    if fraction:
        text += "." + f"{fraction:06d}".rstrip("0")
    return text


def _zone_offset_micros(utc_micros: int, zone: str) -> int:
    """The zone's offset at a UTC instant; before year 2 its earliest rule (local mean time), after
    9999-12-30 its rule then (datetime holds neither end)."""
    tz = ZoneInfo(zone)
    floor, ceiling = _micros_of_text("0002-01-01T00:00:00"), _micros_of_text("9999-12-30T00:00:00")
    instant = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(
        microseconds=min(max(utc_micros, floor), ceiling))
    return int(instant.astimezone(tz).utcoffset() / dt.timedelta(microseconds=1))


def _utc_micros(value: Any) -> int:
    """A zoned timestamp from any path (UTC text with Z, an aware datetime, Arrow's micros) in micros."""
    if isinstance(value, str):
        return _micros_of_text(value.rstrip("Z").replace(" ", "T"))
    if isinstance(value, dt.datetime):
        assert value.tzinfo is not None, f"a TIMESTAMP_LTZ came without its zone: {value!r}"
        return (value - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) // dt.timedelta(microseconds=1)
    return int(value)


def _wall_micros(value: Any) -> int:
    if isinstance(value, str):
        return _micros_of_text(value.replace(" ", "T"))
    if isinstance(value, dt.datetime):
        assert value.tzinfo is None, f"a TIMESTAMP (without zone) came with one: {value!r}"
        return (value - dt.datetime(1970, 1, 1)) // dt.timedelta(microseconds=1)
    return int(value)


def java_double(value: float, single: bool = False) -> str:
    """Java's ``Double.toString`` (``Float.toString`` with ``single``): shortest digits, plain
    between 1e-3 and 1e7, else ``d.dddE±n``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1, value) < 0 else "0.0"
    if single:
        import numpy as np

        digits_text = np.format_float_scientific(np.float32(value), unique=True, trim="-")
    else:
        digits_text = f"{value!r}"
    number = decimal.Decimal(digits_text)
    sign, digits, exponent = number.as_tuple()
    digits = "".join(map(str, digits)).rstrip("0") or "0"
    point = len("".join(map(str, number.as_tuple().digits))) + exponent  # position of the decimal point
    prefix = "-" if sign else ""
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e7:
        if point <= 0:
            return prefix + "0." + "0" * -point + digits
        if point >= len(digits):
            return prefix + digits + "0" * (point - len(digits)) + ".0"
        return prefix + digits[:point] + "." + digits[point:]
    return prefix + digits[0] + "." + (digits[1:] or "0") + f"E{point - 1}"


_DAY_TIME_FIELDS = ("day", "hour", "minute", "second")
_WIDE = decimal.Context(prec=100)  # DECIMAL(38, s) has up to 38 digits; the default context keeps 28


def day_time_string(micros: int, spark_type: str) -> str:
    """Spark's ``INTERVAL '…' <from> TO <to>`` of a day-time interval (``interval day to second``)."""
    words = spark_type.split()[1:]  # "day", "to", "second" / "hour"
    start, end = words[0], words[-1]
    first, last = _DAY_TIME_FIELDS.index(start), _DAY_TIME_FIELDS.index(end)
    sign = "-" if micros < 0 else ""
    rest = abs(micros)
    units = (86_400_000_000, 3_600_000_000, 60_000_000, 1)
    parts = []
    for index in range(first, last + 1):
        if index == 3:  # seconds with their fraction
            seconds = decimal.Decimal(rest) / 1_000_000
            text = format(seconds.normalize(), "f") if rest else "0"
            if "." in text:
                whole, frac = text.split(".")
                text = whole + "." + frac.rstrip("0") if frac.rstrip("0") else whole
            whole, _, fraction = text.partition(".")
            parts.append(whole.rjust(2, "0") + ("." + fraction if fraction else ""))
            rest = 0
        else:
            count, rest = divmod(rest, units[index])
            parts.append(str(count) if index == 0 else f"{count:02d}")  # only days go unpadded
    if first == 0 and last > 0:
        body = parts[0] + " " + ":".join(parts[1:])
    else:
        body = ":".join(parts)
    unit = start.upper() if start == end else f"{start.upper()} TO {end.upper()}"
    return f"INTERVAL '{sign}{body}' {unit}"


def _duration_micros(value: Any) -> int:
    if isinstance(value, dt.timedelta):
        return value // dt.timedelta(microseconds=1)
    if isinstance(value, float):  # JSON seconds
        return round(value * 1_000_000)
    return int(value)  # Parquet: whole microseconds


def spark_string(value: Any, type_json: dict, zone: str, nested: bool = False) -> Optional[str]:
    """Spark's ``CAST(x AS STRING)`` of ``value`` (as any path gives it) of type ``type_json``."""
    if value is None:
        return "null" if nested else None
    name = type_json["type"]
    if type_json.get("serialized_as") == "STRING" or name in ("VARCHAR", "CHAR"):
        return value
    if name == "BOOLEAN":
        return "true" if value else "false"
    if name in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT"):
        return str(int(value))
    if name in ("FLOAT", "DOUBLE"):
        return java_double(float(value), single=name == "FLOAT")
    if name == "DECIMAL":
        number = decimal.Decimal(value) if isinstance(value, str) else decimal.Decimal(repr(value)) \
            if isinstance(value, float) else decimal.Decimal(value)
        return format(_WIDE.quantize(number, decimal.Decimal(1).scaleb(-type_json["scale"])), "f")
    if name == "DATE":
        if isinstance(value, (dt.date, dt.datetime)):
            return value.isoformat()[:10]
        if isinstance(value, int):  # days
            year, month, day = civil_from_days(value)
            return f"{year_text(year)}-{month:02d}-{day:02d}"
        return value
    if name == "TIMESTAMP":
        return _text_of_micros(_wall_micros(value))
    if name == "TIMESTAMP_LTZ":
        utc = _utc_micros(value)
        return _text_of_micros(utc + _zone_offset_micros(utc, zone))
    if name == "INTERVAL":
        return day_time_string(_duration_micros(value), type_json["spark_type"])
    if name == "VARBINARY":
        raw = base64.b64decode(value) if isinstance(value, str) else bytes(value)
        return raw.decode("utf-8", "replace")
    if name == "NULL":
        return "null" if nested else None
    if name == "ARRAY":
        return "[" + ", ".join(spark_string(v, type_json["elementType"], zone, True) for v in value) + "]"
    if name == "MAP":
        pairs = value.items() if isinstance(value, dict) else value
        return "{" + ", ".join(f"{spark_string(k, type_json['keyType'], zone, True)} -> "
                               f"{spark_string(v, type_json['valueType'], zone, True)}" for k, v in pairs) + "}"
    if name == "ROW":
        fields = type_json["fields"]
        values = [value.get(f["name"]) for f in fields] if isinstance(value, dict) else list(value)
        return "{" + ", ".join(spark_string(v, f["fieldType"], zone, True) for v, f in zip(values, fields)) + "}"
    raise AssertionError(f"no string form for type {type_json}")
