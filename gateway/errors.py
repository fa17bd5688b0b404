"""One error family for the gateway: every failure a client can see is a GatewayError.

Each error knows the HTTP status a REST front end should answer with, so that
protocols stay thin (Datasette's pattern).
"""
from __future__ import annotations

from typing import Any


class GatewayError(Exception):
    """Base of every error the gateway raises on purpose."""

    http_status = 500

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_json(self) -> dict:
        return {"root_cause": self.message, "exception_stack": "", "error_class": type(self).__name__,
                **{k: v for k, v in self.details.items() if v is not None}}


class ConfigurationError(GatewayError):
    """The configuration file or environment is wrong, or a prerequisite (Java) is missing."""


class JavaNotFoundError(ConfigurationError):
    """Spark needs Java 17 or newer; say which one to install."""


class DataDirectoryInUseError(ConfigurationError):
    """Another live process holds the data directory; names the directory, the holder and what to set."""

    http_status = 409


class SessionNotFoundError(GatewayError):
    http_status = 404


class OperationNotFoundError(GatewayError):
    http_status = 404


class SessionLimitError(GatewayError):
    http_status = 429


class InvalidStatementError(GatewayError):
    """The text is empty, cannot be tokenized, is too long, or is not allowed in this call."""

    http_status = 400


class InvalidTokenError(GatewayError):
    http_status = 400


class OperationStateError(GatewayError):
    """The operation is in a state that does not allow the call (e.g. fetching a closed one)."""

    http_status = 409


class SqlExecutionError(GatewayError):
    """Spark rejected or failed a statement; carries Spark's error class, SQLSTATE and position."""

    http_status = 400

    def __init__(self, message: str, error: dict) -> None:
        super().__init__(message)
        self.error = error

    def to_json(self) -> dict:
        return dict(self.error)


class ObjectNotFoundError(GatewayError):
    """A catalog object (table, function) the call names does not exist."""

    http_status = 404


class InvalidRequestError(GatewayError):
    """An argument of the call is malformed (an empty name, a bad kind, a bad position)."""

    http_status = 400


class ResourceError(GatewayError):
    """A jar or function resource cannot be fetched, is missing, or was removed from the session."""

    http_status = 400


class StoreUnavailableError(GatewayError):
    """The workbench store (drafts, saved queries, history) cannot be reached or migrated right now."""

    http_status = 503


class BusyError(GatewayError):
    """The session (429) or the gateway (503) has too much waiting work to take this call now; the
    message says what to do (fetch or close results, cancel a statement, try again later)."""

    http_status = 503

    def __init__(self, message: str, http_status: int = 503) -> None:
        super().__init__(message)
        self.http_status = http_status


class EngineDownError(GatewayError):
    """The Spark driver JVM has stopped: nothing can run until the process is restarted."""

    http_status = 503


class InternalError(GatewayError):
    """A bug in the gateway's own code (not a Spark failure): HTTP 500, with a log line."""

    http_status = 500


class AuthenticationError(GatewayError):
    """A login or a token that does not identify a user (wrong password, unknown or revoked token)."""

    http_status = 401


class TooManyLoginsError(GatewayError):
    """Wrong passwords or tokens in a row: logins of that user or from that address wait (auth.login_*)."""

    http_status = 429


class PermissionDeniedError(GatewayError):
    """The user is known but may not do this (an admin's call, an admin-only feature)."""

    http_status = 403
