"""The plan feature in the gateway: its statement handlers and the calls behind the service facade."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Optional, Union

from gateway.errors import ConfigurationError, InvalidStatementError
from gateway.core.statements import Statement, classify
from gateway.features.plans.checks import Difference, PlanMismatchError, check_plan
from gateway.features.plans.compiler import compile_plan, plan_text, planning_context
from gateway.features.plans.diff import diff_plans
from gateway.features.plans.document import COMPATIBILITY, PlanFormatError, read_plan, validate, write_plan
from gateway.features.plans.paths import resolve_plan_path
from gateway.features.plans.spark_planning import force_optimized
from gateway.features.plans.syntax import parse_plan_statement

log = logging.getLogger(__name__)

FORCE_RECOMPILE = "workbench.plan.force_recompile"
_COMPILE_SCHEMA = "plan_path string, status string, statement_kind string, tables int, functions int"
_EXPLAIN_SCHEMA = "section string, item string, detail string"


class PlanExistsError(InvalidStatementError):
    """COMPILE PLAN would overwrite a plan file."""

    http_status = 409


class PlanCalls:
    """Plan files, compile/check/run, and the plan statements' handlers."""

    def __init__(self, host) -> None:
        self.host = host
        config = host.config
        self.plans_dir = Path(str(config["plans.dir"])).expanduser() if config["plans.dir"] \
            else config.data_dir / "plans"
        self.allow_absolute = bool(config["plans.allow_absolute_paths"])
        self.compatibility = str(config["plans.accept_spark"])
        if self.compatibility not in COMPATIBILITY:
            raise ConfigurationError(f"setting plans.accept_spark is {self.compatibility!r}; "
                                     f"use one of {', '.join(COMPATIBILITY)}")

    # -- files ---------------------------------------------------------------------------------

    def path(self, name: str) -> Path:
        return resolve_plan_path(name, self.plans_dir, self.allow_absolute)

    def load(self, name_or_plan: Union[str, dict]) -> dict:
        if isinstance(name_or_plan, dict):
            return validate(name_or_plan)
        return read_plan(self.path(name_or_plan))

    def list_plans(self) -> list[str]:
        if not self.plans_dir.exists():
            return []
        base = self.plans_dir.resolve()
        return sorted(str(p.relative_to(base)) for p in base.rglob("*.json") if p.is_file())

    # -- compile, check, run -------------------------------------------------------------------

    def compile(self, session, text: str) -> dict:
        return compile_plan(session, text, self.compatibility)

    def compile_to(self, session, text: str, name: str, if_not_exists: bool = False,
                   overwrite: bool = False) -> tuple[Path, dict, str]:
        """Compile into a file; returns (path, plan, status) with status compiled, recompiled or kept."""
        path = self.path(name)
        existed = path.exists()
        if existed:
            if if_not_exists:
                return path, read_plan(path), "kept: the file exists (IF NOT EXISTS)"
            if not overwrite:
                raise PlanExistsError(
                    f"the plan file {path} exists. Use COMPILE PLAN '{name}' IF NOT EXISTS FOR … to keep it, "
                    f"SET {FORCE_RECOMPILE}=true to overwrite it, or choose another name")
            try:
                read_plan(path)
            except PlanFormatError:
                raise PlanExistsError(f"{path} exists and is not a compiled plan; it is not overwritten. "
                                      f"Choose another name") from None
        plan = self.compile(session, text)
        write_plan(path, plan)
        return path, plan, "recompiled" if existed else "compiled"

    def check(self, session, plan: dict) -> list[Difference]:
        return check_plan(session, plan)

    def run(self, session, plan: dict, where: str, statement: Optional[Statement] = None):
        """Check, then run the plan's statement with its catalog, database and settings."""
        differences = self.check(session, plan)
        if differences:
            raise PlanMismatchError(where, differences)
        text = plan["statement"]["text"]
        inner = Statement(text, classify(text), statement.index if statement else 0,
                          statement.line if statement else 1, statement.offset if statement else 0)
        recorded = plan["statement"]
        with planning_context(session.spark, recorded.get("current_catalog"), recorded.get("current_database"),
                              plan["config"]):
            df = self.host.dataframe(session, inner)
            if df is not None:
                force_optimized(df)  # optimize under the plan's settings, before they are put back
        return df

    # -- statements ----------------------------------------------------------------------------

    def handle_compile(self, session, statement: Statement):
        parsed = parse_plan_statement(statement.text)
        path, plan, status = self.compile_to(session, parsed.inner, parsed.path, parsed.if_not_exists,
                                             overwrite=self._force(session))
        return session.spark.createDataFrame(
            [(str(path), status, plan["statement"]["kind"], len(plan["tables"]), len(plan["functions"]))],
            _COMPILE_SCHEMA)

    def handle_execute(self, session, statement: Statement):
        parsed = parse_plan_statement(statement.text)
        path = self.path(parsed.path)
        if parsed.action == "EXECUTE":
            plan = read_plan(path)
        elif path.exists() and not self._force(session):
            plan = read_plan(path)
            if _same_statement(plan["statement"]["text"], parsed.inner) is False:
                raise PlanExistsError(
                    f"the plan file {path} holds another statement ({plan['statement']['text'][:80]!r}); "
                    f"COMPILE AND EXECUTE PLAN runs a file as it is. Use another name, or "
                    f"SET {FORCE_RECOMPILE}=true to recompile it")
        else:
            _, plan, _ = self.compile_to(session, parsed.inner, parsed.path, overwrite=True)
        return self.run(session, plan, str(path), statement)

    def handle_explain(self, session, statement: Statement):
        parsed = parse_plan_statement(statement.text)
        path = self.path(parsed.path)
        plan = read_plan(path)
        rows = explain_rows(plan, self.check(session, plan))
        return session.spark.createDataFrame(rows, _EXPLAIN_SCHEMA)

    def _force(self, session) -> bool:
        try:
            return str(session.spark.conf.get(FORCE_RECOMPILE, "false")).strip().lower() == "true"
        except Exception:  # noqa: BLE001
            log.debug("the check answered no", exc_info=True)
            return False

    # -- service calls -------------------------------------------------------------------------

    def explain(self, session, name_or_plan: Union[str, dict]) -> dict:
        plan = self.load(name_or_plan)
        differences = self.check(session, plan)
        return {"plan": plan, "differences": [d.to_json() for d in differences],
                "path": str(self.path(name_or_plan)) if isinstance(name_or_plan, str) else None}

    def diff(self, left: Union[str, dict], right: Union[str, dict]) -> dict:
        return diff_plans(self.load(left), self.load(right))


def _same_statement(a: str, b: str) -> bool:
    return " ".join(a.split()).rstrip(";") == " ".join(b.split()).rstrip(";")


def explain_rows(plan: dict, differences: list[Difference]) -> list[tuple[str, str, str]]:
    rows = [("plan", "format", f"{plan['format']} v{plan['format_version']}"),
            ("plan", "compiled", f"Spark {plan['spark_version']}, workbench {plan.get('workbench_version')}, "
                                 f"{plan.get('compiled_at', '')}"),
            ("plan", "accepts_spark", plan["accepts_spark"]),
            ("statement", plan["statement"]["kind"], plan["statement"]["text"])]
    rows += [("config", key, value) for key, value in plan["config"].items()]
    for table in plan["tables"]:
        columns = ", ".join(f"{c['name']} {c['type']}" for c in table["columns"] or [])
        rows.append(("table", table["name"], f"{table['role']} {table['kind']}: {columns}"))
    rows += [("function", f["name"], f"{f['module']} {f['version']} ({f['implementation']})")
             for f in plan["functions"]]
    rows += [("analyzed", "plan", plan_text(plan, "analyzed")),
             ("optimized", "plan", plan_text(plan, "optimized"))]
    if differences:
        rows += [("check", d.subject, d.message) for d in differences]
    else:
        rows.append(("check", "ok", "no differences: EXECUTE PLAN would run it"))
    return rows
