"""Session and operation handles: random UUIDs with a string form that can be parsed back."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from gateway.errors import OperationNotFoundError, SessionNotFoundError


@dataclass(frozen=True)
class _Handle:
    identifier: uuid.UUID = field(default_factory=uuid.uuid4)

    def __str__(self) -> str:
        return str(self.identifier)

    @classmethod
    def _parse(cls, text, error_type, what: str):
        if isinstance(text, cls):
            return text
        try:
            return cls(uuid.UUID(str(text)))
        except (ValueError, TypeError, AttributeError):
            raise error_type(f"{what} handle {text!r} is not a valid UUID; "
                             f"use the handle string returned when the {what} was created") from None


@dataclass(frozen=True)
class SessionHandle(_Handle):
    @classmethod
    def from_string(cls, text) -> "SessionHandle":
        return cls._parse(text, SessionNotFoundError, "session")


@dataclass(frozen=True)
class OperationHandle(_Handle):
    @classmethod
    def from_string(cls, text) -> "OperationHandle":
        return cls._parse(text, OperationNotFoundError, "operation")
