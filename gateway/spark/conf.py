"""Put a session's SQL settings back after a statement ran with its own (operation config,
atomic-write steps, plan contexts): one place that knows None means "was not set"."""
from __future__ import annotations

from typing import Optional


def restore_conf(spark, saved: dict[str, Optional[str]]) -> None:
    """Set each key back to its saved value; unset the keys that were not set before."""
    for key, value in saved.items():
        if value is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, value)
