"""Features: one folder per built-in feature (modules, jars, atomic, plans, completion).

A feature is a ``Feature`` subclass named by an entry point in the group ``spark_sql_workbench.features``;
the plugin API is ``gateway.api.plugins``, re-exported here.
"""
from gateway.api.plugins import (ENTRY_POINT_GROUP, Feature, FeatureHost, FeatureNotInstalledError,  # noqa: F401
                                 PageSpec, Setting, StatementSpec, feature_classes)

__all__ = ["ENTRY_POINT_GROUP", "Feature", "FeatureHost", "FeatureNotInstalledError", "PageSpec", "Setting",
           "StatementSpec", "feature_classes"]
