"""The plans feature's API: its protocol and value types, what a front end may use of it.

Front ends reach it through the gateway (``gateway.api(PlansApi)``, or the same calls on the gateway,
which lists the built-in features' protocols in ``GatewayContract``); its REST routes are in ``rest.py``.
"""
from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from gateway.handles import OperationHandle, SessionHandle

__all__ = ['OperationHandle', 'SessionHandle', 'PlansApi']


@runtime_checkable
class PlansApi(Protocol):
    """Compiled plans (FLIP-190)."""

    def compile_plan(self, session: SessionHandle, statement: str, path: Optional[str] = None,
                     overwrite: bool = False) -> dict:
        """The plan of a SELECT, INSERT or CTAS (nothing runs); written to ``path`` when given."""

    def execute_plan(self, session: SessionHandle, plan: str) -> OperationHandle:
        """Run a plan file as ``EXECUTE PLAN 'file'`` does, asynchronously like ``execute_statement``: the
        plan's statement runs only if nothing it depends on changed, else the operation's error says what."""

    def explain_plan(self, session: SessionHandle, plan) -> dict:
        """A plan (file name or dict) and its differences from the session now: ``{plan, differences, path}``."""

    def load_plan(self, path: str) -> dict:
        """A plan file, validated (format and version)."""

    def list_plans(self) -> list[str]:
        """Plan files under the plans directory, relative names."""

    def diff_plans(self, left, right) -> dict:
        """Differences of two plans (file names or dicts): changes, text diffs, one-sided nodes."""

    def plan_text(self, plan: dict, which: str = "optimized") -> str:
        """The text of a plan's ``analyzed`` or ``optimized`` section."""

    def plan_graph(self, plan: dict, which: str = "optimized", highlight: tuple = (),
                   highlight_color: Optional[str] = None) -> str:
        """A plan section as a Graphviz DOT graph, the nodes in ``highlight`` filled."""
