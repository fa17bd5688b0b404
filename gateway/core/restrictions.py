"""What a non-admin may not do when authentication is on (docs/users.md).

The workbench runs every statement with the rights of its process. With users, a non-admin
must not read the server's files or put code into the driver:

- ``spark.sql.runSQLOnFiles`` is off in their sessions (``SELECT … FROM text.`file:///etc/passwd```
  is refused by Spark), set again before each of their statements so that a RESET cannot bring it
  back, and a SET of it is refused;
- ``ADD JAR`` of a local path (no scheme, ``file:``, ``local:``) is refused;
- with ``auth.admin_only_code`` (the default), jar uploads, ``ADD JAR`` of any URI,
  ``CREATE FUNCTION … USING JAR``, and ``LOAD MODULE`` (statements and calls) are for admins.

Statements are checked by their session's owner (``Session.admin``, fixed when it was opened);
contract calls by the caller's principal.
"""
from __future__ import annotations

import functools
import re
from typing import Callable
from urllib.parse import urlparse

from gateway.config import WorkbenchConfig, auth_mode
from gateway.errors import PermissionDeniedError
from gateway.identity import current_principal

RUN_SQL_ON_FILES = "spark.sql.runSQLOnFiles"
_LOCAL_SCHEMES = frozenset({"", "file", "local"})
# Contract calls that put code into the driver.
CODE_CALLS = frozenset({"add_jar", "upload_jar", "load_module", "create_function"})
_URI = re.compile(r"""'([^']*)'|"([^"]*)"|(\S+)""")


def is_local_uri(uri: str) -> bool:
    scheme = urlparse(uri.strip()).scheme.lower()
    return scheme in _LOCAL_SCHEMES or len(scheme) == 1  # c:\… is a drive, not a scheme


def _jar_uris(text: str) -> list[str]:
    """The URIs of ``ADD JAR[S] a 'b' "c"``."""
    rest = re.sub(r"(?is)^\s*ADD\s+JARS?\s*", "", text.strip().rstrip(";"))
    return [next(g for g in match.groups() if g is not None) for match in _URI.finditer(rest)]


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
        """A runner guard: before every statement of a session."""
        if not self.restricted(session):
            return
        kind = str(getattr(statement.kind, "value", statement.kind))
        words = statement.words
        if kind == "SET" and RUN_SQL_ON_FILES.lower() in statement.text.lower():
            raise self._refused(session.user, f"setting {RUN_SQL_ON_FILES}",
                                "reading files through SQL is for admins; read tables instead")
        if words[:2] in (["ADD", "JAR"], ["ADD", "JARS"]):
            self._check_jars(session.user, _jar_uris(statement.text))
        if self.admin_only_code and (words[:2] == ["LOAD", "MODULE"] or
                                     (words[:1] == ["CREATE"] and "USING" in words and "JAR" in words)):
            raise self._refused(session.user, " ".join(words[:2]), "code in the driver is for admins "
                                "(auth.admin_only_code)")
        session.spark.conf.set(RUN_SQL_ON_FILES, "false")  # again: a RESET may have brought it back

    def _check_jars(self, user: str, uris: list[str]) -> None:
        for uri in uris:
            if is_local_uri(uri):
                raise self._refused(user, f"ADD JAR of the local path {uri!r}",
                                    "a local path reads the server's files; ask an admin, or upload it as an admin")
        if self.admin_only_code:
            raise self._refused(user, "ADD JAR", "code in the driver is for admins (auth.admin_only_code)")

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
                    restrictions._check_jars(caller.name, [str(uri)])
                elif restrictions.admin_only_code:
                    raise restrictions._refused(caller.name, name.replace("_", " "),
                                                "code in the driver is for admins (auth.admin_only_code)")
            return call(*args, **kwargs)

        return gated

    @staticmethod
    def _refused(user: str, what: str, why: str) -> PermissionDeniedError:
        return PermissionDeniedError(f"{what} is not allowed for {user!r}: {why}. An admin can do it, or make you "
                                     f"one (`python -m gateway users set-admin {user}`)")
