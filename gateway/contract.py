"""``GatewayContract``: the core's sections (``gateway.api``) and the built-in features' protocols in one
type, for front ends that use the whole gateway (the Streamlit pages, REST). Each section is small and
lives on its own: read ``gateway/api/`` and ``gateway/features/<name>/api.py``.

A call of a feature that is not installed raises ``FeatureNotInstalledError`` (HTTP 501).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from gateway.api import (CORE_SECTIONS, CatalogApi, EngineApi, IdentityApi, OperationsApi, ResultsApi, SessionsApi,
                         WorkspaceApi)
from gateway.features.completion.api import CompletionApi
from gateway.features.jars.api import JarsApi
from gateway.features.modules.api import ModulesApi
from gateway.features.plans.api import PlansApi

# The built-in features' protocols: the gateway answers their calls itself (FeatureNotInstalledError when
# the feature is off); an outside feature's protocol is reached with ``gateway.api(Protocol)``.
FEATURE_SECTIONS: tuple[type, ...] = (CompletionApi, ModulesApi, JarsApi, PlansApi)


@runtime_checkable
class GatewayContract(SessionsApi, OperationsApi, ResultsApi, CatalogApi, WorkspaceApi, IdentityApi, EngineApi,
                      CompletionApi, ModulesApi, JarsApi, PlansApi, Protocol):
    """Every section of the gateway, core and built-in features."""


__all__ = ["CORE_SECTIONS", "FEATURE_SECTIONS", "GatewayContract"]
