"""The compiled plans feature (FLIP-190): COMPILE PLAN, EXECUTE PLAN, EXPLAIN PLAN; plan files;
its settings, calls, REST routes and page."""
from __future__ import annotations

from typing import Optional

from gateway.config import Setting
from gateway.errors import InvalidRequestError
from gateway.api.plugins import Access, Feature, PageSpec, StatementSpec
from gateway.features.plans.api import PlansApi
from gateway.features.plans.compiler import plan_text
from gateway.features.plans.plan_calls import PlanCalls
from gateway.features.plans.graph import HIGHLIGHT, plan_dot
from gateway.features.plans.syntax import execute_plan_statement

COMPILE_PLAN, EXECUTE_PLAN, EXPLAIN_PLAN = "COMPILE_PLAN", "EXECUTE_PLAN", "EXPLAIN_PLAN"
_WHICH = ("analyzed", "optimized")


class PlansFeature(Feature):
    name = "plans"
    api = PlansApi
    description = "Compiled, versioned plans that run only if nothing they depend on changed (FLIP-190)."
    settings = (
        Setting("plans.dir", "", "Directory for compiled plan files; empty means <data_dir>/plans."),
        Setting("plans.allow_absolute_paths", False,
                "Let COMPILE/EXECUTE PLAN take an absolute file path, written and read as the server's user "
                "(off: plan files stay under plans.dir, and relative names never leave it)."),
        Setting("plans.accept_spark", "same-minor",
                "Spark versions a new plan accepts: same-minor (4.3.x), same-major (4.x) or same-version."),
    )
    statements = (
        StatementSpec(COMPILE_PLAN, (("COMPILE", "PLAN"),), returns_rows=True, access=Access.USERS),
        StatementSpec(EXECUTE_PLAN, (("EXECUTE", "PLAN"), ("COMPILE", "AND", "EXECUTE", "PLAN")), returns_rows=True,
                      access=Access.USERS),
        StatementSpec(EXPLAIN_PLAN, (("EXPLAIN", "PLAN"),), returns_rows=True, read_only=True, access=Access.USERS),
    )
    pages = (PageSpec("pages/plans.py", "Plans", ":material/schema:", order=50),)

    def start(self, host) -> None:
        super().start(host)
        self.plans = PlanCalls(host)

    def handlers(self):
        return {COMPILE_PLAN: self.plans.handle_compile, EXECUTE_PLAN: self.plans.handle_execute,
                EXPLAIN_PLAN: self.plans.handle_explain}

    # -- contract calls ------------------------------------------------------------------------

    def calls(self):
        return {"compile_plan": self.compile_plan, "execute_plan": self.execute_plan, "explain_plan": self.explain_plan, "load_plan": self.load_plan,
                "list_plans": self.list_plans, "diff_plans": self.diff_plans, "plan_text": self.plan_text,
                "plan_graph": self.plan_graph}

    def compile_plan(self, session, statement: str, path: Optional[str] = None, overwrite: bool = False) -> dict:
        with self.host.between_statements(session, busy_wait_s=30.0) as owner:
            if path is None:
                return self.plans.compile(owner, statement)
            return self.plans.compile_to(owner, statement, path, overwrite=overwrite)[1]

    def execute_plan(self, session, plan: str):
        if not isinstance(plan, str) or not plan.strip():
            raise InvalidRequestError(f"execute_plan takes the name of a plan file (list_plans shows them), "
                                      f"got {str(plan)[:60]!r}; compile a statement into a file first")
        self.plans.load(plan)   # a missing or damaged file is a clear error here, not a failed operation
        return self.host.execute_statement(session, execute_plan_statement(plan))

    def explain_plan(self, session, plan) -> dict:
        with self.host.between_statements(session, busy_wait_s=30.0) as owner:
            return self.plans.explain(owner, plan)

    def load_plan(self, path: str) -> dict:
        return self.plans.load(path)

    def list_plans(self) -> list[str]:
        return self.plans.list_plans()

    def diff_plans(self, left, right) -> dict:
        return self.plans.diff(left, right)

    def plan_text(self, plan: dict, which: str = "optimized") -> str:
        return plan_text(self.plans.load(plan), _section(which))

    def plan_graph(self, plan: dict, which: str = "optimized", highlight: tuple = (),
                   highlight_color: Optional[str] = None) -> str:
        return plan_dot(self.plan_text(plan, which), highlight, highlight_color=highlight_color or HIGHLIGHT)

    def rest_routers(self):
        from gateway.features.plans.rest import router
        return [router]


def _section(which: str) -> str:
    if which not in _WHICH:
        raise InvalidRequestError(f"a plan has the sections {' and '.join(_WHICH)}, not {which!r}")
    return which
