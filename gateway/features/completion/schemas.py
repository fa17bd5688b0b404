"""The completion feature's REST bodies: the candidates of a completion (served by ``rest.py`` beside it)."""
from __future__ import annotations

from typing import Optional

from pydantic import Field

from gateway.rest.schemas import Body


class CandidateDetail(Body):
    value: str
    kind: str
    detail: str = ""


class CompleteStatementResponse(Body):
    candidates: list[str]
    candidateDetails: Optional[list[CandidateDetail]] = Field(
        None, description="With details=true: each candidate's kind (table, column, function, …) and detail "
                          "(column type, function signature).")
