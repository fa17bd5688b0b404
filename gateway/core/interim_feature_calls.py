"""Stand-ins for three contract calls the lead's jars and plans features will provide
(``create_function``, ``plan_text``, ``plan_graph``), so that the pages can already use the
contract instead of building SQL or importing feature modules. Delete this file, and its
base class entry in ``GatewayService``, when the features' own calls land.
"""
from __future__ import annotations

from typing import Optional

from gateway.errors import InvalidRequestError
from gateway.features.jars.function_sql import create_function_statement
from gateway.features.plans import plan_dot
from gateway.features.plans import plan_text as _plan_text
from gateway.features.plans.graph import HIGHLIGHT
from gateway.handles import SessionHandle

_PLAN_SECTIONS = ("analyzed", "optimized")


class InterimFeatureCalls:
    def create_function(self, session: SessionHandle, name: str, class_name: str, jar: str,
                        temporary: bool = True, language: str = "JAVA") -> None:
        """CREATE [TEMPORARY] FUNCTION name AS 'class' LANGUAGE … USING JAR 'jar', quoted right."""
        self.configure_session(session, create_function_statement(name, class_name, temporary, [jar], language))

    def plan_text(self, plan: dict, which: str = "optimized") -> str:
        """The text of a plan's analyzed or optimized section."""
        if which not in _PLAN_SECTIONS:
            raise InvalidRequestError(f"which must be one of {', '.join(_PLAN_SECTIONS)}, got {which!r}")
        return _plan_text(plan, which)

    def plan_graph(self, plan: dict, which: str = "optimized", highlight: tuple = (),
                   highlight_color: Optional[str] = None) -> str:
        """DOT of a plan section: one box per node; nodes in ``highlight`` filled with the colour."""
        return plan_dot(self.plan_text(plan, which), highlight, highlight_color=highlight_color or HIGHLIGHT)
