"""Beyond Flink: compiled plans (FLIP-190) over HTTP: compile, explain against a session, list,
read, diff, and render a plan section as text or a Graphviz graph."""
from __future__ import annotations

from typing import Any, Optional, Union

from fastapi import APIRouter, Request
from pydantic import Field

from gateway.rest.deps import service_of
from gateway import InvalidRequestError
from gateway.rest.schemas import Body

router = APIRouter(tags=["plans"])
PlanRef = Union[str, dict[str, Any]]


class CompilePlanRequest(Body):
    statement: str = Field(..., description="One SELECT, INSERT or CREATE TABLE … AS SELECT.")
    path: Optional[str] = Field(None, description="Also write the plan to this file (relative to plans.dir).")
    overwrite: bool = False


class ExplainPlanRequest(Body):
    plan: PlanRef = Field(..., description="A plan file name, or a plan document.")


class ExecutePlanRequest(Body):
    plan: str = Field(..., description="A plan file name (relative to plans.dir), as list_plans shows it.")


class ExecutePlanResponse(Body):
    operationHandle: str


class DiffPlansRequest(Body):
    left: PlanRef
    right: PlanRef


class RenderPlanRequest(Body):
    plan: PlanRef
    which: str = Field("optimized", description="analyzed or optimized")
    format: str = Field("text", description="text, or dot for a Graphviz graph")
    highlight: list[int] = Field(default_factory=list, description="Node indexes to fill (dot only).")


class PlanResponse(Body):
    plan: dict[str, Any]


class ExplainPlanResponse(Body):
    plan: dict[str, Any]
    differences: list[dict[str, Any]]
    path: Optional[str] = None


class PlansResponse(Body):
    plans: list[str]


class RenderPlanResponse(Body):
    text: str


@router.post("/sessions/{session_handle}/plans/compile", response_model=PlanResponse)
def compile_plan(request: Request, session_handle: str, body: CompilePlanRequest):
    plan = service_of(request).compile_plan(session_handle, body.statement, body.path, overwrite=body.overwrite)
    return {"plan": plan}


@router.post("/sessions/{session_handle}/plans/explain", response_model=ExplainPlanResponse)
def explain_plan(request: Request, session_handle: str, body: ExplainPlanRequest):
    return service_of(request).explain_plan(session_handle, body.plan)


@router.post("/sessions/{session_handle}/plans/execute", response_model=ExecutePlanResponse)
def execute_plan(request: Request, session_handle: str, body: ExecutePlanRequest):
    """Run a plan file as EXECUTE PLAN does; fetch its result like a statement's."""
    return {"operationHandle": str(service_of(request).execute_plan(session_handle, body.plan))}


@router.get("/plans", response_model=PlansResponse)
def list_plans(request: Request):
    return {"plans": service_of(request).list_plans()}


@router.get("/plans/{path:path}", response_model=PlanResponse)
def load_plan(request: Request, path: str):
    return {"plan": service_of(request).load_plan(path)}


@router.post("/plans/diff", response_model=dict)
def diff_plans(request: Request, body: DiffPlansRequest):
    return service_of(request).diff_plans(body.left, body.right)


@router.post("/plans/render", response_model=RenderPlanResponse)
def render_plan(request: Request, body: RenderPlanRequest):
    service = service_of(request)
    plan = body.plan if isinstance(body.plan, dict) else service.load_plan(body.plan)
    if body.format == "dot":
        return {"text": service.plan_graph(plan, body.which, tuple(body.highlight))}
    if body.format != "text":
        raise InvalidRequestError(f"format {body.format!r} is not text or dot")
    return {"text": service.plan_text(plan, body.which)}
