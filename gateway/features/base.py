"""The plugin API lives in ``gateway.api.plugins`` (it depends on nothing in core); the old name stays."""
from gateway.api.plugins import (ENTRY_POINT_GROUP, Feature, FeatureHost, FeatureNotInstalledError,  # noqa: F401
                                 PageSpec, Setting, StatementHandler, StatementSpec, feature_classes,
                                 feature_settings, feature_statements)
