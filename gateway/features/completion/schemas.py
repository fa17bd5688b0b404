"""The completion feature's REST bodies: the candidates of a completion (served by ``rest.py`` beside it).

A request, read and answered the same way on every HTTP path that serves one: REST's ``complete-statement``
and the SQL editor's same-origin route on Streamlit's own server (ui/completion_route.py, through the call
``complete_with_credential``). A request is the JSON object ``{"statement", "position", "details"}`` (REST also
takes them as query parameters), the answer a ``CompleteStatementResponse`` as JSON.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import Field

from gateway.errors import InvalidRequestError
from gateway.features.completion.completer import PREFETCH_MAX
from gateway.models import Candidate
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
    loading: Optional[list[str]] = Field(
        None, description="With wait=false (the editor's route): tables whose columns were not known yet and "
                          "load in the background; ask again for an answer with them.")


def read_request(data: Any, statement: Optional[str] = None, position: Optional[int] = None,
                 details: bool = False) -> tuple[str, int, bool]:
    """``(statement, position, details)`` of a request: the JSON body ``data`` (None: no body), over the
    query's ``statement`` and ``position`` where the body names them; InvalidRequestError when it is not
    a statement (text) with a position in it (a whole number >= 0)."""
    if data is not None:
        if not isinstance(data, dict):
            raise InvalidRequestError("the request body of complete-statement must be a JSON object")
        statement = data.get("statement", statement)
        position = data.get("position", position)
        details = data.get("details", details)
    if not isinstance(statement, str) or isinstance(position, bool) or not isinstance(position, int) or position < 0:
        raise InvalidRequestError("complete-statement needs statement (text) and position (a whole number >= 0), "
                                  "as query parameters or as a JSON body")
    if not isinstance(details, bool):
        raise InvalidRequestError("complete-statement's details is true or false")
    return statement, position, details


def read_wait(data: Any) -> bool:
    """A request's ``wait`` (default true): false asks for an answer from what is known now, without the
    columns of tables not loaded yet (they load in the background and the answer's ``loading`` names them)."""
    wait = data.get("wait", True) if isinstance(data, dict) else True
    if not isinstance(wait, bool):
        raise InvalidRequestError("complete-statement's wait is true (the default: columns are loaded for the "
                                  "answer) or false (answer now; ``loading`` names the tables still loading)")
    return wait


# At most as many tables per prefetch request as the engine queues (a statement naming more is rare).
MAX_PREFETCH = PREFETCH_MAX


def read_prefetch(data: Any) -> Optional[list[str]]:
    """A request's ``prefetch`` (the editor's route only): the names of tables whose columns to start loading now,
    a name the editor saw typed after FROM or JOIN, before any completion needs them; None when absent.
    InvalidRequestError when it is not a list of at most ``MAX_PREFETCH`` table names."""
    names = data.get("prefetch") if isinstance(data, dict) else None
    if names is None:
        return None
    if not isinstance(names, list) or not 0 < len(names) <= MAX_PREFETCH or \
            not all(isinstance(n, str) and 0 < len(n) <= 1000 and n.strip() for n in names):
        raise InvalidRequestError(f"complete-statement's prefetch is a list of 1 to {MAX_PREFETCH} table names "
                                  f"(text, e.g. [\"db.orders\"]) whose columns to load ahead; or leave it out")
    return names


def answer(found: list[Candidate], details: bool, loading: Optional[list[str]] = None) -> dict:
    """The JSON answer for the candidates ``found``: their values, and with ``details`` kind and detail;
    ``loading``: the tables whose columns were not known yet (loading in the background), when any."""
    out = {"candidates": [c.value for c in found]}
    if details:
        out["candidateDetails"] = [c.to_json() for c in found]
    if loading:
        out["loading"] = list(loading)
    return out
