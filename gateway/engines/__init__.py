"""Managed engines (engine.kind = managed): Spark Connect servers the workbench starts, shares, pools and
reaps itself (``EngineManager``); docs/engines.md, "Managed engines"."""
from gateway.engines.manager import EngineManager, EngineStartError

__all__ = ["EngineManager", "EngineStartError"]
