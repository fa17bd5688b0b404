"""The shipped ``geo`` module as Spark SQL functions: ``CREATE TEMPORARY FUNCTION … RETURN <expression>``.

The same five functions and the same results as the vectorized pandas UDFs in ``geo.py`` (which stays,
loadable as a ``python`` module, and is the benchmark's "before"), but they run inside the JVM: no
Python worker, nothing to install on the executors, and Spark's code generation over them. Angles are
degrees, distances kilometres on a sphere of the mean Earth radius (6371.0088 km); out-of-range input
(latitude beyond ±90, longitude beyond ±180, a geohash precision outside 1..12 or not whole, a
character that is not geohash base32) gives NULL.

A geohash interleaves the bits of the longitude and the latitude, each quantized on a grid of
2^30 cells (the bisection of the classic algorithm, exactly: every bound is a dyadic fraction).
Character c carries 5 bits: from an even c, 3 longitude bits and 2 latitude bits (lon, lat, lon,
lat, lon); from an odd c, 2 and 3 (lat, lon, lat, lon, lat).
"""
from __future__ import annotations

from gateway.features.modules.base import FunctionDefinition, Module, ModuleFactory, sha256_text

__version__ = "2.0.0"  # 1.0.0 was the pandas UDFs: compiled plans pinned to it report the change
EARTH_RADIUS_KM = 6371.0088
BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz"


def _valid(*points: tuple[str, str]) -> str:
    return " AND ".join(f"abs({lat}) <= 90 AND abs({lon}) <= 180" for lat, lon in points)


def _interleave(first: int, second: int) -> int:
    """A character's 5 bits from 3 bits of the coordinate it starts with and 2 of the other."""
    return ((first >> 2) & 1) << 4 | ((second >> 1) & 1) << 3 | ((first >> 1) & 1) << 2 | (second & 1) << 1 | first & 1


# Character for key first3 * 4 + second2; and back, per base32 character, its 3 and its 2 bits.
_CHAR_OF_KEY = "".join(BASE32[_interleave(key >> 2, key & 3)] for key in range(32))
_THREE = "".join(str(((v >> 4) & 1) << 2 | ((v >> 2) & 1) << 1 | (v & 1)) for v in range(32))
_TWO = "".join(str(((v >> 3) & 1) << 1 | ((v >> 1) & 1)) for v in range(32))
_BELOW_ONE = "0.9999999999990905052982270717620849609375D"  # 1 - 2^-40: 180° and 90° fall in the last cell


def _encode() -> str:
    """Character c from the 3 and 2 bits it takes of each coordinate's cell number: floor(x * 2^bits),
    x the coordinate scaled to [0, 1), modulo 8 or 4, looked up in one 32-character table. No lambdas
    (Spark refuses a SQL function with a higher-order function as another SQL function's argument)
    and each coordinate written once per character, so plans stay small."""
    x = f"least((lon + 180D) / 360D, {_BELOW_ONE})"
    y = f"least((lat + 90D) / 180D, {_BELOW_ONE})"
    chars = []
    for c in range(12):
        lon_bits, lat_bits = (5 * c + 1) // 2, (5 * c) // 2  # bits of each before this character
        if c % 2 == 0:  # lon, lat, lon, lat, lon
            key = f"pmod(floor({x} * {2 ** (lon_bits + 3)}D), 8) * 4 + pmod(floor({y} * {2 ** (lat_bits + 2)}D), 4)"
        else:           # lat, lon, lat, lon, lat
            key = f"pmod(floor({y} * {2 ** (lat_bits + 3)}D), 8) * 4 + pmod(floor({x} * {2 ** (lon_bits + 2)}D), 4)"
        chars.append(f"substr('{_CHAR_OF_KEY}', CAST({key} AS INT) + 1, 1)")
    return (f"CASE WHEN {_valid(('lat', 'lon'))} AND precision >= 1 AND precision <= 12 "
            f"AND precision = floor(precision) THEN left(concat({', '.join(chars)}), CAST(precision AS INT)) END")


def _decode() -> str:
    """Each character's 3 and 2 bits by translating the hash (padded with '0', value 0) into digits,
    summed into 30-bit cell numbers, then shifted back to the hash's own length."""
    padded = f"rpad(lower(hash), 12, '0')"
    three, two = f"translate({padded}, '{BASE32}', '{_THREE}')", f"translate({padded}, '{BASE32}', '{_TWO}')"
    lon_terms, lat_terms = [], []
    for c in range(12):
        lon_shift, lat_shift = 30 - (5 * c + 1) // 2, 30 - (5 * c) // 2
        digit3, digit2 = f"CAST(substr({three}, {c + 1}, 1) AS BIGINT)", f"CAST(substr({two}, {c + 1}, 1) AS BIGINT)"
        if c % 2 == 0:
            lon_terms.append(f"shiftleft({digit3}, {lon_shift - 3})")
            lat_terms.append(f"shiftleft({digit2}, {lat_shift - 2})")
        else:
            lon_terms.append(f"shiftleft({digit2}, {lon_shift - 2})")
            lat_terms.append(f"shiftleft({digit3}, {lat_shift - 3})")
    lon_bits, lat_bits = "((5 * length(hash) + 1) div 2)", "((5 * length(hash)) div 2)"
    lon = f"shiftright({' + '.join(lon_terms)}, 30 - {lon_bits})"
    lat = f"shiftright({' + '.join(lat_terms)}, 30 - {lat_bits})"
    return (f"CASE WHEN length(hash) BETWEEN 1 AND 12 AND lower(hash) RLIKE '^[{BASE32}]+$' "
            f"THEN named_struct('lat', -90D + 180D * ({lat} + 0.5D) / pow(2, {lat_bits}), "
            f"'lon', -180D + 360D * ({lon} + 0.5D) / pow(2, {lon_bits})) "
            f"ELSE named_struct('lat', CAST(NULL AS DOUBLE), 'lon', CAST(NULL AS DOUBLE)) END")


def _bbox() -> str:
    args = ("lat", "lon", "min_lat", "min_lon", "max_lat", "max_lon")
    unknown = " OR ".join(f"{a} IS NULL OR isnan({a})" for a in args)
    return (f"CASE WHEN {unknown} THEN NULL ELSE lat >= min_lat AND lat <= max_lat AND "
            f"(CASE WHEN min_lon > max_lon THEN lon >= min_lon OR lon <= max_lon "  # a box over the antimeridian
            f"ELSE lon >= min_lon AND lon <= max_lon END) END")


_P2 = "lat1 DOUBLE, lon1 DOUBLE, lat2 DOUBLE, lon2 DOUBLE"
_HAVERSINE = ("pow(sin((radians(lat2) - radians(lat1)) / 2), 2) + "
              "cos(radians(lat1)) * cos(radians(lat2)) * pow(sin(radians(lon2 - lon1) / 2), 2)")
_BEARING = ("atan2(sin(radians(lon2 - lon1)) * cos(radians(lat2)), cos(radians(lat1)) * sin(radians(lat2)) - "
            "sin(radians(lat1)) * cos(radians(lat2)) * cos(radians(lon2 - lon1)))")

# name -> (parameters, return type, body, description)
FUNCTIONS: dict[str, tuple[str, str, str, str]] = {
    "haversine_km": (_P2, "DOUBLE",
                     f"CASE WHEN {_valid(('lat1', 'lon1'), ('lat2', 'lon2'))} THEN "
                     f"2 * {EARTH_RADIUS_KM}D * asin(sqrt(least(greatest({_HAVERSINE}, 0D), 1D))) END",
                     "Great-circle distance in km between two points (haversine)."),
    "initial_bearing": (_P2, "DOUBLE",
                        f"CASE WHEN {_valid(('lat1', 'lon1'), ('lat2', 'lon2'))} THEN "
                        f"(degrees({_BEARING}) + 360D) % 360D END",
                        "Initial bearing in degrees (0 = north, clockwise) from point 1 to 2."),
    "geohash_encode": ("lat DOUBLE, lon DOUBLE, precision DOUBLE", "STRING", _encode(),
                       "Geohash of a point with 1..12 characters."),
    "geohash_decode": ("hash STRING", "STRUCT<lat: DOUBLE, lon: DOUBLE>", _decode(),
                       "Centre of a geohash cell as (lat, lon)."),
    "in_bbox": ("lat DOUBLE, lon DOUBLE, min_lat DOUBLE, min_lon DOUBLE, max_lat DOUBLE, max_lon DOUBLE", "BOOLEAN",
                _bbox(), "True when a point lies in a box (min_lon > max_lon crosses 180°)."),
}


def create_statement(name: str) -> str:
    params, returns, body, description = FUNCTIONS[name]
    comment = description.replace("'", "''")
    return f"CREATE TEMPORARY FUNCTION `{name}`({params}) RETURNS {returns} COMMENT '{comment}' RETURN {body}"


class GeoModule(Module):
    type = "geo"

    def __init__(self, name: str, properties=None) -> None:
        super().__init__(name, __version__, properties)

    def list_functions(self) -> list[str]:
        return sorted(FUNCTIONS)

    def _definition(self, name: str) -> FunctionDefinition:
        params, returns, body, description = FUNCTIONS[name]
        create = create_statement(name)
        return FunctionDefinition(
            name=name, module=self.name, module_type=self.type, version=self.version, kind="sql",
            implementation=f"sql:sha256:{sha256_text(create)}", description=description + " Spark SQL, no Python.",
            signature=f"{name}({params}) -> {returns}", register=lambda spark: spark.sql(create).collect())


class GeoModuleFactory(ModuleFactory):
    type = "geo"
    description = ("Geographic functions: haversine_km, initial_bearing, geohash_encode, geohash_decode, "
                   "in_bbox (Spark SQL functions: they run in the JVM, on any executor, with no Python).")
    properties = ()

    def create_module(self, name, properties, spark) -> GeoModule:
        return GeoModule(name, properties)
