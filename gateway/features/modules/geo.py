"""The geographic functions as vectorized (Arrow) pandas UDFs: the ``geo`` module's first implementation.

``LOAD MODULE geo`` now gives the Spark SQL functions of ``geo_sql.py`` (same results, no Python
worker, run on any executor). This one stays as an example of a ``python`` module, loadable with
``LOAD MODULE geo_pandas WITH ('type'='python', 'module'='gateway.features.modules.geo')``, and is
what ``benchmarks/geo_udfs.py`` measures the SQL functions against.

Angles are degrees, distances kilometres on a sphere of the mean Earth radius (6371.0088 km).
Out-of-range input (latitude beyond ±90, longitude beyond ±180, a geohash precision outside
1..12, a character that is not geohash base32) gives NULL, like Spark's lenient functions.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from gateway.features.modules.python_module import module_function

__version__ = "1.0.0"
# What compiled plans record as these functions' implementation: the module's first home, kept when the code
# moved to gateway/features/modules/, so that plans compiled before still run.
__implementation__ = "gateway.modules.geo"

EARTH_RADIUS_KM = 6371.0088
_BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz"
_DECODE = {c: i for i, c in enumerate(_BASE32)}


def _valid(lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    return (np.abs(lat) <= 90) & (np.abs(lon) <= 180)


def _floats(*series: pd.Series) -> list[np.ndarray]:
    return [pd.to_numeric(s, errors="coerce").astype("float64").to_numpy() for s in series]


@module_function("double", description="Great-circle distance in km between two points (haversine).")
def haversine_km(lat1: pd.Series, lon1: pd.Series, lat2: pd.Series, lon2: pd.Series) -> pd.Series:
    a1, o1, a2, o2 = _floats(lat1, lon1, lat2, lon2)
    p1, p2 = np.radians(a1), np.radians(a2)
    dp, dl = p2 - p1, np.radians(o2 - o1)
    h = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    km = 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))
    return pd.Series(np.where(_valid(a1, o1) & _valid(a2, o2), km, np.nan))


@module_function("double", description="Initial bearing in degrees (0 = north, clockwise) from point 1 to 2.")
def initial_bearing(lat1: pd.Series, lon1: pd.Series, lat2: pd.Series, lon2: pd.Series) -> pd.Series:
    a1, o1, a2, o2 = _floats(lat1, lon1, lat2, lon2)
    p1, p2, dl = np.radians(a1), np.radians(a2), np.radians(o2 - o1)
    y = np.sin(dl) * np.cos(p2)
    x = np.cos(p1) * np.sin(p2) - np.sin(p1) * np.cos(p2) * np.cos(dl)
    bearing = (np.degrees(np.arctan2(y, x)) + 360.0) % 360.0
    return pd.Series(np.where(_valid(a1, o1) & _valid(a2, o2), bearing, np.nan))


def _encode_one(lat: float, lon: float, precision: int) -> str:
    lat_lo, lat_hi, lon_lo, lon_hi = -90.0, 90.0, -180.0, 180.0
    chars, bits, value, even = [], 0, 0, True
    while len(chars) < precision:
        if even:
            mid = (lon_lo + lon_hi) / 2
            value = value * 2 + (lon >= mid)
            lon_lo, lon_hi = (mid, lon_hi) if lon >= mid else (lon_lo, mid)
        else:
            mid = (lat_lo + lat_hi) / 2
            value = value * 2 + (lat >= mid)
            lat_lo, lat_hi = (mid, lat_hi) if lat >= mid else (lat_lo, mid)
        even, bits = not even, bits + 1
        if bits == 5:
            chars.append(_BASE32[value])
            bits, value = 0, 0
    return "".join(chars)


@module_function("string", description="Geohash of a point with 1..12 characters.")
def geohash_encode(lat: pd.Series, lon: pd.Series, precision: pd.Series) -> pd.Series:
    a, o, p = _floats(lat, lon, precision)
    ok = _valid(a, o) & (p >= 1) & (p <= 12) & (p == np.floor(np.nan_to_num(p)))
    return pd.Series([_encode_one(x, y, int(n)) if good else None for x, y, n, good in zip(a, o, p, ok)],
                     dtype=object)


def _decode_one(text) -> tuple[float, float]:
    if not isinstance(text, str) or not text or len(text) > 12:
        return (np.nan, np.nan)
    lat_lo, lat_hi, lon_lo, lon_hi, even = -90.0, 90.0, -180.0, 180.0, True
    for char in text.lower():
        value = _DECODE.get(char)
        if value is None:
            return (np.nan, np.nan)
        for shift in range(4, -1, -1):
            bit = (value >> shift) & 1
            if even:
                mid = (lon_lo + lon_hi) / 2
                lon_lo, lon_hi = (mid, lon_hi) if bit else (lon_lo, mid)
            else:
                mid = (lat_lo + lat_hi) / 2
                lat_lo, lat_hi = (mid, lat_hi) if bit else (lat_lo, mid)
            even = not even
    return ((lat_lo + lat_hi) / 2, (lon_lo + lon_hi) / 2)


@module_function("struct<lat: double, lon: double>", description="Centre of a geohash cell as (lat, lon).")
def geohash_decode(hash: pd.Series) -> pd.DataFrame:
    points = [_decode_one(h) for h in hash]
    return pd.DataFrame({"lat": [p[0] for p in points], "lon": [p[1] for p in points]}, dtype="float64")


@module_function("boolean", description="True when a point lies in a box (min_lon > max_lon crosses 180°).")
def in_bbox(lat: pd.Series, lon: pd.Series, min_lat: pd.Series, min_lon: pd.Series, max_lat: pd.Series,
            max_lon: pd.Series) -> pd.Series:
    a, o, lo_a, lo_o, hi_a, hi_o = _floats(lat, lon, min_lat, min_lon, max_lat, max_lon)
    within_lat = (a >= lo_a) & (a <= hi_a)
    crosses = lo_o > hi_o  # a box over the antimeridian, e.g. 170 .. -170
    within_lon = np.where(crosses, (o >= lo_o) | (o <= hi_o), (o >= lo_o) & (o <= hi_o))
    known = ~np.isnan(a) & ~np.isnan(o) & ~np.isnan(lo_a) & ~np.isnan(lo_o) & ~np.isnan(hi_a) & ~np.isnan(hi_o)
    result = pd.Series(within_lat & within_lon, dtype="boolean")
    result[~known] = pd.NA
    return result
