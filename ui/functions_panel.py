"""Function browser: built-in, user and module functions; usage, arguments and examples."""
from __future__ import annotations

import re
from typing import Optional

import pandas as pd
import streamlit as st

from gateway import FunctionKind, GatewayError

MAX_LISTED = 1_000
_KINDS = {"All": None, "Built-in": FunctionKind.BUILTIN, "User": FunctionKind.USER}
_SECTIONS = re.compile(r"^\s*(Arguments|Examples|Note|Since|Group|Deprecated)\s*:\s*(.*)$")


def functions(gateway, session) -> list:
    return gateway.list_functions(session)


def search(infos: list, needle: str, kind: Optional[FunctionKind]) -> list:
    needle = needle.strip().lower()
    found = [f for f in infos if (kind is None or f.kind == kind) and needle in f.name.lower()]
    return sorted(found, key=lambda f: (f.name.lower() != needle, not f.name.lower().startswith(needle),
                                        f.name.lower()))


def sections(extended: str) -> dict[str, str]:
    """Split DESCRIBE FUNCTION EXTENDED's text into Arguments, Examples, Since …"""
    parts, current, lines = {}, "Description", []
    for line in (extended or "").splitlines():
        match = _SECTIONS.match(line)
        if match:
            if any(l.strip() for l in lines):
                parts[current] = "\n".join(lines).strip("\n")
            current, lines = match.group(1), [match.group(2)] if match.group(2).strip() else []
        else:
            lines.append(line)
    if any(l.strip() for l in lines):
        parts[current] = "\n".join(lines).strip("\n")
    return parts


def render_list(gateway, session) -> Optional[str]:
    needle = st.text_input("Search functions", key="function_search", placeholder="e.g. upper, date_, json")
    kind = st.segmented_control("Kind", list(_KINDS), default="All", key="function_kind") or "All"
    infos = functions(gateway, session)
    found = search(infos, needle, _KINDS[kind])
    st.caption(f"{len(found):,} of {len(infos):,} functions")
    if not found:
        st.info("No function matches. Shorten the search; user functions come from "
                "`CREATE FUNCTION`, modules (`LOAD MODULE`) and jars (`ADD JAR`).")
        return None
    shown = found[:MAX_LISTED]
    listing = pd.DataFrame({"function": [f.name for f in shown],
                            "kind": ["temporary" if f.is_temporary else
                                     ("built-in" if f.kind == FunctionKind.BUILTIN else "user") for f in shown]})
    picked = st.dataframe(listing, hide_index=True, on_select="rerun", selection_mode="single-row",
                          key="function_list", width="stretch", height=min(36 * (len(shown) + 1) + 4, 560))
    rows = picked.selection.rows if picked and picked.selection else []
    if rows:
        st.session_state.selected_function = shown[rows[0]].identifier if shown[rows[0]].kind == FunctionKind.USER \
            and not shown[rows[0]].is_temporary else shown[rows[0]].name
    elif needle.strip() and found and found[0].name.lower() == needle.strip().lower():
        st.session_state.selected_function = found[0].name
    return st.session_state.get("selected_function")


def render_detail(gateway, session, name: str) -> None:
    try:
        detail = gateway.get_function(session, name)
    except GatewayError as exc:
        st.warning(f"`{name}` cannot be described: {exc.message}")
        return
    flags = ["built-in" if detail.kind == FunctionKind.BUILTIN else "user function"]
    if detail.is_temporary:
        flags.append("temporary (this session only)")
    st.subheader(detail.name)
    st.caption(" · ".join(flags) + (f" · class `{detail.class_name}`" if detail.class_name else ""))
    if detail.usage:
        st.markdown("**Usage**")
        st.code(detail.usage.strip(), language="text", wrap_lines=True)
    parts = sections(detail.extended_description or "")
    for title in ("Arguments", "Examples", "Note", "Since", "Deprecated"):
        if parts.get(title):
            st.markdown(f"**{title}**")
            st.code(_dedent(parts[title]), language="sql" if title == "Examples" else "text", wrap_lines=True)
    resources = getattr(detail, "resources", None)
    if resources:
        st.markdown("**Resources (jars)**")
        for resource in resources:
            st.write(f"`{resource}`")
    if not detail.usage and not parts:
        st.info("Spark has no description for this function.")


def _dedent(text: str) -> str:
    import textwrap
    return textwrap.dedent(text).strip()
