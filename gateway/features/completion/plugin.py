"""The completion feature: candidates from a parse of the statement, per-session caches patched from
DDL statements and refreshed in the background after them; its calls and REST route."""
from __future__ import annotations

import logging

from gateway.api.plugins import Feature
from gateway.features.completion.api import CompletionApi
from gateway.features.completion.completer import Completer
from gateway.models import Candidate

log = logging.getLogger(__name__)


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

    def calls(self):
        return {"complete_statement": self.complete_statement, "complete_candidates": self.complete_candidates,
                "warm_completion": self.warm_completion, "refresh_completion": self.refresh_completion,
                "completion_dictionary": self.completion_dictionary}

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

    def rest_routers(self):
        from gateway.features.completion.rest import router
        return [router]
