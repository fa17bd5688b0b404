"""What one user's statement may do to the shared driver (issue 27, items 1, 2 and 4; docs/users.md).

Every statement runs with the rights of the workbench process, in the one driver JVM that every
session shares. Before Spark sees a statement, ``EngineGuard.check_statement`` (a runner guard,
once per statement, in the worker):

- for everyone: refuses block comments nested deeper than ``statement.max_comment_nesting``.
  Spark's lexer takes time and heap that grow far faster than the text (measured on Spark 4.3,
  2 cores, busy: depth 100 1.5 s, 400 15 s, 800 94 s and 850 MiB; the issue's 50,000 held 3 GB
  for minutes while every other user waited);
- for a non-admin (auth on; with ``auth.mode = none`` the one local user is the admin): asks
  Spark's analyzer what the statement would run (``gateway.spark.plan_guard``) and refuses a
  program run on the server (TRANSFORM … USING), JVM reflection (reflect, java_method), a write
  to a directory, a read of the server's files (LOAD DATA, a table at a LOCATION), code loading
  (ADD JAR/FILE/ARCHIVE, CREATE FUNCTION … AS 'class') and text that is only analysed while it
  runs (EXECUTE IMMEDIATE, BEGIN … END), each unless ``auth.non_admin_allow`` names it.
"""
from __future__ import annotations

import logging

from gateway.config import WorkbenchConfig
from gateway.errors import ConfigurationError, InvalidStatementError, PermissionDeniedError
from gateway.core.operations import current_operation
from gateway.core.parameters import placeholder_text
from gateway.spark.backend import backend_name
from gateway.spark.errors import ENGINE_ERRORS
from gateway.spark.plan_guard import EngineAccess, PlanNotCheckable, describe, first_line, plan_capabilities

log = logging.getLogger(__name__)

ALLOW_NAMES = tuple(access.value for access in EngineAccess)


def allowed_accesses(config: WorkbenchConfig) -> frozenset:
    """auth.non_admin_allow, checked: a typo must not leave a hole or silently stay closed."""
    names = config["auth.non_admin_allow"]
    unknown = [name for name in names if str(name) not in ALLOW_NAMES]
    if unknown:
        raise ConfigurationError(f"auth.non_admin_allow has {', '.join(map(repr, unknown))}, which "
                                 f"{'is' if len(unknown) == 1 else 'are'} not known; use some of "
                                 f"{', '.join(ALLOW_NAMES)} (docs/users.md)")
    return frozenset(EngineAccess(str(name)) for name in names)


class EngineGuard:
    def __init__(self, config: WorkbenchConfig, restrictions, handlers: dict) -> None:
        self.restrictions = restrictions
        self.handlers = handlers  # the kinds the gateway runs itself: Spark's parser does not know them all
        self.allowed = allowed_accesses(config)
        self.max_comment_nesting = int(config["statement.max_comment_nesting"])

    def check_statement(self, session, statement) -> None:
        """A runner guard: before every statement of every session."""
        self.check_comments(statement.analysis.comment_depth)
        if not self.restrictions.restricted(session) or len(self.allowed) == len(EngineAccess):
            return
        checked = self._checked_text(statement)
        try:
            findings = plan_capabilities(session.spark, checked, self.allowed)
        except PlanNotCheckable:
            raise PermissionDeniedError(
                f"statements of {session.user!r} cannot be checked on {backend_name(session.spark)} (it offers no Catalyst "
                f"plans), so they are refused: an admin can run them, or allow them all with auth.non_admin_allow "
                f"= {list(ALLOW_NAMES)}") from None
        except ENGINE_ERRORS:
            if statement.kind in self.handlers and checked is statement.text:
                return  # a statement of the gateway's own (LOAD MODULE, COMPILE PLAN …): its feature checks it
            # With bound values it would run (Spark binds them) though its check could not be analysed
            # (reflect(:cls, …) with a NULL class): refused with the check's own error, fail closed.
            raise  # Spark cannot parse or analyse it: it would not run either; its own error says why
        if findings:
            log.warning("refused for %s: %s: %s", session.user, describe(findings), first_line(statement.text))
            names = ", ".join(repr(f.access.value) for f in findings)
            raise PermissionDeniedError(
                f"this statement is not allowed for {session.user!r}: Spark's plan of it has {describe(findings)}, "
                f"which reaches the server's programs, files or JVM outside Spark's tables. An admin can run it, "
                f"make you one (`python -m gateway users set-admin {session.user}`), or allow it for every user "
                f"with the setting auth.non_admin_allow = [{names}]")

    @staticmethod
    def _checked_text(statement) -> str:
        """The text whose plan is checked: with ``:name`` markers bound, a typed NULL in each (Spark's parser
        cannot analyse an unbound marker, and the values themselves never become text)."""
        operation = current_operation()
        if operation is None or not operation.parameters or ":" not in statement.text:
            return statement.text
        return placeholder_text(statement.text, operation.parameters)

    def check_comments(self, depth: int) -> None:
        """``depth``: the statement's comment nesting, read by its one analysis (the splitter's lexer)."""
        if 0 < self.max_comment_nesting < depth:
            raise InvalidStatementError(
                f"the statement nests block comments {depth:,} deep; at most {self.max_comment_nesting} are accepted "
                f"(setting statement.max_comment_nesting): Spark's lexer needs time and memory that grow much faster "
                f"than the text. Close each /* before opening the next", error_class="COMMENTS_TOO_DEEPLY_NESTED")
