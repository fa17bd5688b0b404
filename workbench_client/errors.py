"""The client's errors, with the DB-API 2.0 names; an HTTP error answer mapped to one of them."""
from __future__ import annotations

from typing import Optional


# -- errors (DB-API 2.0 names) --------------------------------------------------------------------

class Error(Exception):
    """A failure answered by the server (``status`` and its JSON body) or in the client."""

    def __init__(self, message: str, status: Optional[int] = None, body: Optional[dict] = None) -> None:
        super().__init__(message)
        self.status = status
        self.body = body or {}

    @property
    def error_class(self) -> Optional[str]:
        return self.body.get("error_class")

    @property
    def sqlstate(self) -> Optional[str]:
        return self.body.get("sqlstate")


class Warning(Exception):  # noqa: A001 - the DB-API name
    pass


class InterfaceError(Error):
    pass


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    """Transport trouble, an unknown (expired) session or operation, a wrong state."""


class ProgrammingError(DatabaseError):
    """The request or the SQL was wrong (HTTP 400)."""


class NotSupportedError(DatabaseError):
    pass


class DataError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class InternalError(DatabaseError):
    pass


GatewayHTTPError = Error


def _error_for(status: int, body: dict) -> Error:
    message = body.get("root_cause") or "; ".join(body.get("errors", [])) or f"HTTP {status}"
    kind = ProgrammingError if status == 400 else NotSupportedError if status == 501 else \
        InterfaceError if status in (401, 413) else OperationalError
    return kind(f"HTTP {status}: {message}", status, body)
