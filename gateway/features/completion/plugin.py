"""The completion feature: candidates from a parse of the statement, per-session caches patched from
DDL statements and refreshed in the background after them; its calls and REST route."""
from __future__ import annotations

import logging
import re

from gateway.api.plugins import Feature
from gateway.errors import AuthenticationError, InvalidRequestError
from gateway.identity import COMPLETION_SCOPE, SESSION_CREDENTIAL_PREFIX, SESSION_CREDENTIALS, acting_as, required_principal
from gateway.features.completion.api import CompletionApi
from gateway.features.completion.completer import Completer, answering_now
from gateway.features.completion.schemas import answer, read_prefetch, read_request, read_wait
from gateway.models import Candidate

log = logging.getLogger(__name__)

# How long the editor's credential (REST complete-statement of one session, gateway/rest/authn.py) lives: the editor gets a
# new one with a render once half of it has passed; an expired one makes the editor fall back visibly.
CREDENTIAL_TTL_S = 1800.0
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


class CompletionFeature(Feature):
    name = "completion"
    api = CompletionApi
    description = ("Completion from a parse of the statement: tables, views, CTEs, columns, struct fields, "
                   "functions with signatures, keywords.")

    def start(self, host) -> None:
        super().start(host)
        self.completer = Completer()

    def check_statement(self, session, statement) -> None:
        """Not a guard: what a DDL statement creates or drops is offered at once (never refuses one)."""
        try:
            self.completer.statement_seen(session, statement.text)
        except Exception:  # noqa: BLE001 - completion's guess must never stop a statement
            log.debug("completion could not read the statement's change", exc_info=True)

    def schema_changed(self, session) -> None:
        self.completer.invalidate(session)

    def close_session(self, session) -> None:
        self.completer.forget(session)
        SESSION_CREDENTIALS.revoke_session(str(getattr(session, "handle", session)))

    def calls(self):
        return {"complete_statement": self.complete_statement, "complete_candidates": self.complete_candidates,
                "warm_completion": self.warm_completion, "refresh_completion": self.refresh_completion,
                "completion_dictionary": self.completion_dictionary,
                "completion_credential": self.completion_credential,
                "complete_with_credential": self.complete_with_credential}

    def complete_statement(self, session, statement: str, position: int) -> list[str]:
        return [c.value for c in self.complete_candidates(session, statement, position)]

    def complete_candidates(self, session, statement: str, position: int) -> list[Candidate]:
        return self.completer.complete(self.host.session(session), statement, position)

    def warm_completion(self, session) -> None:
        self.completer.warm(self.host.session(session))

    def refresh_completion(self, session) -> None:
        self.completer.drop(self.host.session(session))

    def wait_fresh(self, timeout_s: float = 30.0) -> bool:
        """Wait until the background refresh after DDL is done (tests, benchmarks)."""
        return self.completer.wait_fresh(timeout_s)

    def completion_dictionary(self, session, columns_of=None) -> dict:
        return self.completer.dictionary(self.host.session(session), columns_of)

    def completion_credential(self, session, origin=None) -> dict:
        if origin is not None and not (isinstance(origin, str) and _ORIGIN.match(origin)):
            raise InvalidRequestError(f"origin {origin!r} is not a web origin: give scheme://host[:port] "
                                      f"(e.g. http://127.0.0.1:8501), or none")
        handle = str(self.host.session(session).handle)  # the caller's own session, else SessionNotFoundError
        principal = required_principal("a completion credential")
        token, _ = SESSION_CREDENTIALS.mint(principal, handle, COMPLETION_SCOPE, CREDENTIAL_TTL_S,
                                            origin.lower() if origin else None)
        from gateway.rest.server import rest_url_of
        # Minted with or without REST: the UI's own route (ui/completion_route.py) takes it too.
        return {"token": token, "expires_in_s": CREDENTIAL_TTL_S, "session": handle, "url": rest_url_of(self.host)}

    def complete_with_credential(self, credential, session, request, superseded=None) -> dict:
        if not isinstance(credential, str) or not credential.startswith(SESSION_CREDENTIAL_PREFIX):
            raise AuthenticationError("completion needs the editor's session credential (Authorization: Bearer "
                                      "wbs_…): reload the page for a new one")
        principal = SESSION_CREDENTIALS.check(credential, str(session), COMPLETION_SCOPE)
        names = read_prefetch(request)
        if names is not None:  # the editor saw a table named: its columns load now, before the dot asks for them
            with acting_as(principal):
                loading = self.completer.prefetch(self.host.session(session), names)
            return answer([], False, loading)
        statement, position, details = read_request(request)
        if not read_wait(request):  # the editor: answer from what is known, name the tables still loading
            with acting_as(principal), answering_now(superseded) as loading:
                found = self.host.complete_candidates(session, statement, position)
            return answer(found, details, loading)
        with acting_as(principal):  # the boundary: as that user, its own session only
            found = self.host.complete_candidates(session, statement, position)
        return answer(found, details)

    def rest_routers(self):
        from gateway.features.completion.rest import router
        return [router]
