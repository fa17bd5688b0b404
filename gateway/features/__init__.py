"""Features: the plugin API, and one folder per built-in feature (modules, jars, atomic, plans, completion).

A feature is a ``Feature`` subclass named by an entry point in the group ``spark_sql_workbench.features``;
see ``gateway.features.base``.
"""
from gateway.features.base import (ENTRY_POINT_GROUP, Feature, FeatureHost, FeatureNotInstalledError,  # noqa: F401
                                   PageSpec, feature_classes)
from gateway.core.statements import StatementSpec  # noqa: F401

__all__ = ["ENTRY_POINT_GROUP", "Feature", "FeatureHost", "FeatureNotInstalledError", "PageSpec", "StatementSpec",
           "feature_classes"]
