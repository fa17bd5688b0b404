"""A ``python`` module for the tests: one name clashes with a SQL module, one with a built-in."""
import pandas as pd

from gateway.features.modules import module_function

__version__ = "3.0"


@module_function("string", vectorized=False)
def pick(x):
    """Which module answered."""
    return "python"


@module_function("string")
def lower(s: pd.Series) -> pd.Series:
    """Shadows the built-in lower when this module stands before core."""
    return "py-lower:" + s.astype(str)
