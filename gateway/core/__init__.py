"""The gateway's core: sessions, operations, the statement runner, results, serialization, catalog.

Nothing here knows a feature by name: features plug in through ``gateway.features``.
"""
