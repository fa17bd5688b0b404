"""Compiled, versioned plans (FLIP-190): COMPILE PLAN, EXECUTE PLAN, EXPLAIN PLAN.

A plan file records a statement and everything it depends on (Spark version, settings, tables
with schemas, functions with module versions, Spark's analyzed and optimized plans), so that
running it later either runs the same thing or says exactly what changed.
"""
from gateway.features.plans.checks import Difference, PlanMismatchError, check_plan
from gateway.features.plans.compiler import compile_plan, plan_text
from gateway.features.plans.diff import diff_plans
from gateway.features.plans.document import FORMAT, FORMAT_VERSION, PlanFormatError, dumps, stable_plan
from gateway.features.plans.plan_calls import PlanExistsError, PlanCalls
from gateway.features.plans.functions import function_versions, used_functions
from gateway.features.plans.graph import plan_dot
from gateway.features.plans.paths import PlanPathError, resolve_plan_path

__all__ = ["FORMAT", "FORMAT_VERSION", "Difference", "PlanExistsError", "PlanCalls", "PlanFormatError",
           "PlanMismatchError", "PlanPathError", "check_plan", "compile_plan", "diff_plans", "dumps",
           "function_versions", "plan_dot", "plan_text", "resolve_plan_path", "stable_plan",
           "used_functions"]
