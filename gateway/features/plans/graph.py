"""A plan tree as Graphviz DOT (the page draws it with st.graphviz_chart); pure text, no Streamlit."""
from __future__ import annotations

import textwrap
from typing import Iterable

from gateway.features.plans.tree import iter_nodes, parse_text_tree

HIGHLIGHT = "#ffd6d6"
NORMAL = "#eef3fb"


def plan_dot(text: str, highlight: Iterable[int] = (), width: int = 48, max_lines: int = 4,
             highlight_color: str = HIGHLIGHT) -> str:
    """DOT for a text plan: one box per node (its name in bold, its arguments wrapped), root on top.

    Nodes whose index is in ``highlight`` are filled with ``highlight_color``.
    """
    marked = set(highlight)
    root = parse_text_tree(text)
    lines = ['digraph plan {', '  graph [rankdir=TB, nodesep=0.25, ranksep=0.3];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
             '  edge [dir=back, color="#7a869a"];']
    for node in iter_nodes(root):
        name, _, rest = node.label.partition(" ")
        wrapped = textwrap.wrap(rest, width)[:max_lines]
        if len(textwrap.wrap(rest, width)) > max_lines:
            wrapped[-1] += " …"
        label = "<<b>" + _html(name) + "</b>" + "".join("<br/>" + _html(w) for w in wrapped) + ">"
        color = highlight_color if node.index in marked else NORMAL
        lines.append(f'  n{node.index} [label={label}, fillcolor="{color}"];')
        for child in node.children:
            lines.append(f"  n{node.index} -> n{child.index};")
    lines.append("}")
    return "\n".join(lines)


def _html(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))
