"""What a non-admin may not do when authentication is on (docs/users.md).

The workbench runs every statement with the rights of its process. With users, a non-admin
must not read the server's files or put code into the driver:

- ``spark.sql.runSQLOnFiles`` is off in their sessions (``SELECT … FROM text.`file:///etc/passwd```
  is refused by Spark), set again before each of their statements so that a RESET cannot bring it
  back, and a SET of it is refused; so is a SET of Spark's parser cache settings
  (``spark.sql.parser.manageParserCaches`` and its flush bounds): every session shares those caches
  (gateway/spark/parser_cache.py);
- they run only the statement kinds whose ``StatementSpec`` says ``access=Access.USERS`` (core's queries,
  DDL and DML, SET …, and each feature's kinds that it opens); a kind declared ``Access.ADMINS``
  (``EXECUTE IMMEDIATE``) or declaring nothing (a statement nobody can read, a feature's kind that
  did not say) is refused, so a statement the gateway cannot read is never let through;
- a statement that loads code (its analysis: a kind declared ``loads_code`` such as ``ADD JAR/FILE/ARCHIVE``
  or a feature's ``LOAD MODULE``, and ``CREATE FUNCTION … AS 'class'`` with or without ``USING JAR``) is
  refused when it names a local path (no scheme, ``file:``, ``local:``), and with ``auth.admin_only_code``
  (the default) it is for admins;
- a protocol call marked ``@loads_code`` (jar uploads, loading modules, creating functions) is checked the
  same way (``@loads_code(uri=…)`` names the parameter whose local path is refused), and one marked
  ``@admin_only`` is for admins (``gateway.api.calls``);
- where the backend has Spark's parser, a statement of Spark's grammar is read by it too: a plan that
  adds jars, files or archives or creates a function from a class is code whatever the tokens said.

Statements are checked by their session's owner (``Session.admin``, fixed when it was opened) on
their ``StatementAnalysis`` (``gateway.core.statement_analysis``); contract calls by the caller's principal.
This module names no feature: every decision reads what the kinds and calls declare.
"""
from __future__ import annotations

import functools
import inspect
from typing import Callable, Optional
from urllib.parse import urlparse

from gateway.api.calls import code_loading, is_admin_only
from gateway.api.plugins import Access
from gateway.config import WorkbenchConfig, auth_mode
from gateway.core.statement_analysis import StatementKind, spec_of
from gateway.errors import PermissionDeniedError
from gateway.identity import current_principal
from gateway.spark.parser import CODE_PLANS, statement_node
from gateway.spark.parser_cache import SETTINGS as PARSER_CACHE_SETTINGS

RUN_SQL_ON_FILES = "spark.sql.runSQLOnFiles"
_LOCAL_SCHEMES = frozenset({"", "file", "local"})
# Spark's kinds whose words may hide a plan that loads code (CREATE … FUNCTION … AS 'class'): Spark's parser
# is asked about them; every other kind's leading words rule it out, or declare it (``loads_code``).
_MAY_HIDE_CODE = frozenset({StatementKind.CREATE, StatementKind.CREATE_FUNCTION})
_ADMINS_ONLY = "code in the driver is for admins (auth.admin_only_code)"


def is_local_uri(uri: str) -> bool:
    scheme = urlparse(uri.strip()).scheme.lower()
    return scheme in _LOCAL_SCHEMES or len(scheme) == 1  # c:\… is a drive, not a scheme


class Restrictions:
    def __init__(self, config: WorkbenchConfig) -> None:
        self.enabled = auth_mode(config) != "none"
        self.admin_only_code = bool(config["auth.admin_only_code"])

    def restricted(self, session) -> bool:
        return self.enabled and not getattr(session, "admin", True)

    # -- sessions and their statements -----------------------------------------------------------

    def open_session(self, session) -> None:
        if self.restricted(session):
            session.spark.conf.set(RUN_SQL_ON_FILES, "false")

    def check_statement(self, session, statement) -> None:
        """A runner guard: before every statement of a session, on the statement's analysis."""
        if not self.restricted(session):
            return
        analysis = statement.analysis
        user = session.user
        spec = spec_of(analysis.kind)
        if spec.access is not Access.USERS:
            raise self._refused(user, f"a statement of kind {analysis.kind} ({' '.join(analysis.words[:2])} …)",
                                self._closed_kind(analysis.kind, spec.access))
        if analysis.kind == StatementKind.SET:
            said = statement.text.lower() + " " + "".join(analysis.words).lower()  # its key, comments out
            if RUN_SQL_ON_FILES.lower() in said:
                raise self._refused(user, f"setting {RUN_SQL_ON_FILES}",
                                    "reading files through SQL is for admins; read tables instead")
            for key in PARSER_CACHE_SETTINGS:  # off or unbounded, they let one session grow the shared heap
                if key.lower() in said:
                    raise self._refused(user, f"setting {key}",
                                        "Spark's parser caches are shared by every session for the driver's life; "
                                        "an admin sets their bound in [spark.conf]")
        loads_code = analysis.loads_code
        if not loads_code and analysis.core_kind and analysis.kind in _MAY_HIDE_CODE:
            loads_code = statement_node(session.spark, statement.text) in CODE_PLANS  # Spark's own reading
        if loads_code:
            what = (" ".join(analysis.words[:2]) if spec.loads_code  # ADD JARS, ADD ARCHIVE … as written
                    else analysis.kind.replace("_", " "))  # CREATE FUNCTION, not CREATE TEMPORARY
            self._check_code(user, what, analysis.resources)
        session.spark.conf.set(RUN_SQL_ON_FILES, "false")  # again: a RESET may have brought it back

    def _check_code(self, user: str, what: str, uris) -> None:
        for uri in uris:
            if is_local_uri(uri):
                raise self._refused(user, f"{what} of the local path {uri!r}",
                                    "a local path reads the server's files; ask an admin, or upload it as an admin")
        if self.admin_only_code:
            raise self._refused(user, what, _ADMINS_ONLY)

    @staticmethod
    def _closed_kind(kind: str, access: Access) -> str:
        if kind in (StatementKind.OTHER, StatementKind.EXECUTE_IMMEDIATE):
            return "only the statement kinds listed in docs/users.md are open to non-admins"
        if access is Access.ADMINS:
            return f"the statement kind {kind} is declared for admins (its StatementSpec: access=Access.ADMINS)"
        return (f"the statement kind {kind} does not declare who may run it (its StatementSpec has no access), "
                f"so it is for admins; the feature that adds it opens it with access=Access.USERS")

    # -- contract calls ------------------------------------------------------------------------------

    def gate(self, name: str, call: Callable, declared: Optional[Callable] = None) -> Callable:
        """A feature's contract call, checked against the caller as its protocol's declaration (``declared``)
        marks it: ``@admin_only`` is for admins, ``@loads_code`` puts code into the driver. An unmarked call
        is returned as it is."""
        declared = declared if declared is not None else call
        code, admins = code_loading(declared), is_admin_only(declared)
        if code is None and not admins:
            return call
        restrictions = self
        what = name.replace("_", " ")
        signature = inspect.signature(declared)

        @functools.wraps(call)
        def gated(*args, **kwargs):
            caller = current_principal()
            if restrictions.enabled and caller is not None and not caller.admin:
                if admins:
                    raise restrictions._refused(caller.name, what, f"{name} is for admins (its protocol marks it "
                                                                   f"@admin_only)")
                uris = []
                if code.uri is not None:  # the declaration's self first: the implementation is a bound call
                    bound = signature.bind_partial(None, *args, **kwargs).arguments
                    uris = [str(bound.get(code.uri, ""))]
                if uris or restrictions.admin_only_code:
                    restrictions._check_code(caller.name, what.upper() if uris else what, uris)
            return call(*args, **kwargs)

        return gated

    @staticmethod
    def _refused(user: str, what: str, why: str) -> PermissionDeniedError:
        return PermissionDeniedError(f"{what} is not allowed for {user!r}: {why}. An admin can do it, or make you "
                                     f"one (`python -m gateway users set-admin {user}`)")
