"""What a non-admin may not do when authentication is on (docs/users.md).

The workbench runs every statement with the rights of its process. With users, a non-admin
must not read the server's files or put code into the driver:

- ``spark.sql.runSQLOnFiles`` is off in their sessions (``SELECT … FROM text.`file:///etc/passwd```
  is refused by Spark), set again before each of their statements so that a RESET cannot bring it
  back, and a SET of it is refused;
- they run only the statement kinds of an allow-list (``USER_KINDS``: queries, DDL and DML, SET,
  the gateway's own statements …); any other kind (``EXECUTE IMMEDIATE``, a kind nobody listed) is
  refused, so a statement the gateway cannot read is never let through;
- a statement that loads code (its analysis: ``ADD JAR/FILE/ARCHIVE``, ``CREATE FUNCTION … AS 'class'``
  with or without ``USING JAR``, ``LOAD MODULE``) is refused when it names a local path (no scheme,
  ``file:``, ``local:``), and with ``auth.admin_only_code`` (the default) it is for admins, as are jar
  uploads and the calls that load modules or create functions;
- where the backend has Spark's parser, a statement of Spark's grammar is read by it too: a plan that
  adds jars, files or archives or creates a function from a class is code whatever the tokens said.

Statements are checked by their session's owner (``Session.admin``, fixed when it was opened) on
their ``StatementAnalysis`` (``gateway.core.statement_analysis``); contract calls by the caller's principal.
"""
from __future__ import annotations

import functools
from typing import Callable
from urllib.parse import urlparse

from gateway.config import WorkbenchConfig, auth_mode
from gateway.core.statement_analysis import StatementKind
from gateway.errors import PermissionDeniedError
from gateway.identity import current_principal
from gateway.spark.parser import CODE_PLANS, statement_node

RUN_SQL_ON_FILES = "spark.sql.runSQLOnFiles"
_LOCAL_SCHEMES = frozenset({"", "file", "local"})
# Contract calls that put code into the driver.
CODE_CALLS = frozenset({"add_jar", "upload_jar", "load_module", "create_function"})
# The statement kinds a non-admin may run (code-loading statements are checked on their own).
USER_KINDS = frozenset({
    "QUERY", "SHOW", "DESCRIBE", "EXPLAIN", "SET", "RESET", "USE", "CREATE", "CREATE_FUNCTION", "CREATE_TABLE_AS",
    "DROP", "ALTER", "INSERT", "INSERT_OVERWRITE", "TRUNCATE", "MERGE", "UPDATE", "DELETE", "CACHE", "REFRESH",
    "ANALYZE", "REPAIR", "LOAD_DATA", "COMMENT", "DECLARE", "ADD_JAR", "ADD_FILE",
    # the gateway's own statements (features)
    "SHOW_MODULES", "LOAD_MODULE", "UNLOAD_MODULE", "USE_MODULES", "REMOVE_JAR", "SHOW_JARS",
    "COMPILE_PLAN", "EXECUTE_PLAN", "EXPLAIN_PLAN",
})
# Kinds whose leading words rule out a plan that loads code: Spark's parser is not asked about them.
_NEVER_CODE = USER_KINDS - {"CREATE", "CREATE_FUNCTION", "ADD_JAR", "ADD_FILE", "LOAD_MODULE"}
_NAMED_BY_WORDS = frozenset({"ADD_JAR", "ADD_FILE", "LOAD_MODULE"})  # ADD JARS, ADD ARCHIVE … as written


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
        if analysis.kind not in USER_KINDS:
            raise self._refused(user, f"a statement of kind {analysis.kind} ({' '.join(analysis.words[:2])} …)",
                                "only the statement kinds listed in docs/users.md are open to non-admins")
        if analysis.kind == StatementKind.SET and RUN_SQL_ON_FILES.lower() in (
                statement.text.lower() + " " + "".join(analysis.words).lower()):  # its key, comments out
            raise self._refused(user, f"setting {RUN_SQL_ON_FILES}",
                                "reading files through SQL is for admins; read tables instead")
        loads_code = analysis.loads_code
        if not loads_code and analysis.core_kind and analysis.kind not in _NEVER_CODE:
            loads_code = statement_node(session.spark, statement.text) in CODE_PLANS  # Spark's own reading
        if loads_code:
            what = (" ".join(analysis.words[:2]) if analysis.kind in _NAMED_BY_WORDS
                    else analysis.kind.replace("_", " "))  # CREATE FUNCTION, not CREATE TEMPORARY
            self._check_code(user, what, analysis.resources)
        session.spark.conf.set(RUN_SQL_ON_FILES, "false")  # again: a RESET may have brought it back

    def _check_code(self, user: str, what: str, uris) -> None:
        for uri in uris:
            if is_local_uri(uri):
                raise self._refused(user, f"{what} of the local path {uri!r}",
                                    "a local path reads the server's files; ask an admin, or upload it as an admin")
        if self.admin_only_code:
            raise self._refused(user, what, "code in the driver is for admins (auth.admin_only_code)")

    # -- contract calls ------------------------------------------------------------------------------

    def gate(self, name: str, call: Callable) -> Callable:
        """A feature's contract call, checked against the caller when it puts code into the driver."""
        if name not in CODE_CALLS:
            return call
        restrictions = self

        @functools.wraps(call)
        def gated(*args, **kwargs):
            caller = current_principal()
            if restrictions.enabled and caller is not None and not caller.admin:
                if name == "add_jar":
                    uri = kwargs.get("uri", args[1] if len(args) > 1 else "")
                    restrictions._check_code(caller.name, "ADD JAR", [str(uri)])
                elif restrictions.admin_only_code:
                    raise restrictions._refused(caller.name, name.replace("_", " "),
                                                "code in the driver is for admins (auth.admin_only_code)")
            return call(*args, **kwargs)

        return gated

    @staticmethod
    def _refused(user: str, what: str, why: str) -> PermissionDeniedError:
        return PermissionDeniedError(f"{what} is not allowed for {user!r}: {why}. An admin can do it, or make you "
                                     f"one (`python -m gateway users set-admin {user}`)")
