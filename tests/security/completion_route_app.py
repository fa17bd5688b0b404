"""A Streamlit script for tests/security/test_completion_route.py: the process-wide gateway (users on,
auth.mode builtin from the environment), alice's and bob's sessions with a temporary view each, credentials
of several kinds, and the completion route of ui/completion_route.py on this real Streamlit server.

What the test needs (sessions, credentials) goes to the JSON file named by COMPLETION_ROUTE_FACTS once the
route is installed; the page then shows "route ready".
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the worktree's ui/ and gateway/

from gateway import GatewayService, Principal  # noqa: E402
from gateway.identity import COMPLETION_SCOPE, SESSION_CREDENTIALS  # noqa: E402
from ui import completion_route  # noqa: E402


@st.cache_resource
def facts() -> tuple[GatewayService, dict]:
    service = GatewayService()
    found = {}
    for name in ("alice", "bob"):
        service.store.add_user(name, f"pass-word-{name}")
        user = service.as_user(Principal(name))
        session = user.open_session(name=f"{name}-route")
        user.configure_session(session, f"CREATE TEMPORARY VIEW {name}_route_view AS SELECT 1 AS {name}_route_col")
        found[f"{name}_session"] = str(session)
        found[f"{name}_token"] = user.completion_credential(session)["token"]
    bob = Principal("bob")
    found["other_scope_token"], _ = SESSION_CREDENTIALS.mint(bob, found["bob_session"], "something-else", 600)
    # Last: a mint drops the credentials expired by then, and this one must stay to be found "expired".
    found["expired_token"], _ = SESSION_CREDENTIALS.mint(bob, found["bob_session"], COMPLETION_SCOPE, 0)
    return service, found


service, known = facts()
if completion_route.install_route(service):
    out = Path(os.environ["COMPLETION_ROUTE_FACTS"])
    if not out.exists():
        partial = out.with_suffix(".part")
        partial.write_text(json.dumps(known))
        partial.rename(out)
    st.write("route ready")
else:
    st.error("the completion route could not be installed")
