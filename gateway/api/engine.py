"""Engine info: what the gateway runs on, whether its engine is alive, its settings and feature pages."""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from gateway.api.calls import admin_only, without_engine, without_principal
from gateway.api.plugins import PageSpec


@runtime_checkable
class EngineApi(Protocol):
    """Utilities (Flink's utilities section): these need no user, REST answers them on open paths; and the
    managed engines (docs/engines.md), which do."""

    @without_principal
    def get_gateway_info(self) -> dict[str, Any]:
        """Product and Spark versions, master, metastore, data directory, installed features, the store."""

    @without_principal
    @without_engine
    def get_health(self) -> dict[str, Any]:
        """``status`` UP or DOWN (the Spark driver JVM has stopped: ``reason`` says what happened), and the
        driver heap's figures. Never raises: a dead driver is reported here, not hidden."""

    @without_principal
    def api(self, protocol: type) -> Any:
        """What answers ``protocol``'s calls, behind the same boundary: a core section or a feature's protocol
        (``gateway.features.jars.api.JarsApi``, an outside feature's); FeatureNotInstalledError without it."""

    @without_principal
    def get_setting(self, key: str) -> Any:
        """A workbench setting's value (``session.idle_timeout_s``, …)."""

    @without_principal
    def list_feature_pages(self) -> list[PageSpec]:
        """The Streamlit pages of the installed features, in menu order."""

    # -- managed engines (engine.kind = managed; docs/engines.md) -----------------------------------

    @admin_only
    def admin_list_engines(self) -> list[dict[str, Any]]:
        """Every managed engine of the store: key, state, address, sessions here, uptime, heap, Spark UI link
        (empty on the other engine kinds)."""

    @admin_only
    def admin_stop_engine(self, engine_id: str) -> None:
        """Stop one managed engine by its id; its sessions' next statements get a new one."""

    def list_my_engines(self) -> list[dict[str, Any]]:
        """The managed engines the caller's sessions run on (empty on the other engine kinds)."""
