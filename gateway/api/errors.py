"""The one error family: every failure a client can see is a ``GatewayError`` that knows its HTTP status
(defined in ``gateway.errors``; the plugin API's ``FeatureNotInstalledError`` in ``gateway.api.plugins``)."""
from __future__ import annotations

from gateway.api.plugins import FeatureNotInstalledError
from gateway.errors import (AuthenticationError, BusyError, ConfigurationError, DataDirectoryInUseError,
                            EngineDownError, GatewayError, InternalError, InvalidRequestError, InvalidStatementError,
                            InvalidTokenError, JavaNotFoundError, ObjectNotFoundError, OperationNotFoundError,
                            OperationStateError, PermissionDeniedError, ResourceError, SessionLimitError,
                            SessionNotFoundError, SqlExecutionError, StoreUnavailableError, TooManyLoginsError)

__all__ = ["AuthenticationError", "BusyError", "ConfigurationError", "DataDirectoryInUseError", "EngineDownError",
           "FeatureNotInstalledError", "GatewayError", "InternalError", "InvalidRequestError", "InvalidStatementError",
           "InvalidTokenError", "JavaNotFoundError", "ObjectNotFoundError", "OperationNotFoundError",
           "OperationStateError", "PermissionDeniedError", "ResourceError", "SessionLimitError",
           "SessionNotFoundError", "SqlExecutionError", "StoreUnavailableError", "TooManyLoginsError"]
