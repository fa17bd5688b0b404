"""The completion feature: schema-aware candidates per session, caches dropped when the catalog may
have changed; its calls and REST route."""
from __future__ import annotations

from gateway.api.plugins import Feature
from gateway.features.completion.api import CompletionApi
from gateway.features.completion.completer import Completer
from gateway.models import Candidate


class CompletionFeature(Feature):
    name = "completion"
    api = CompletionApi
    description = "Context-aware completion: tables, views, columns, functions with signatures, keywords."

    def start(self, host) -> None:
        super().start(host)
        self.completer = Completer()

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
        self.completer.invalidate(self.host.session(session))

    def completion_dictionary(self, session, columns_of=None) -> dict:
        return self.completer.dictionary(self.host.session(session), columns_of)

    def rest_routers(self):
        from gateway.features.completion.rest import router
        return [router]
