"""Plan trees: Spark's flat JSON node list made nested and stable, text plans made stable,
and text plans parsed into nodes for drawing.

Stable means the same statement over the same tables gives the same bytes in every run:
expression ids (``#123``), JVM ids, creation times, owners and file paths are removed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

# Keys whose values change from run to run (or machine to machine) without changing the plan.
VOLATILE_KEYS = frozenset({"exprId", "resultId", "jvmId", "createTime", "lastAccessTime", "owner",
                           "createVersion", "num-children", "product-class", "stats", "locationUri",
                           "plan_id", "planId"})
_EXPR_ID = re.compile(r"#\d+")
_PATH = re.compile(r"\b(file|hdfs|s3a?|s3n|abfss?|gs|wasbs?|viewfs|dbfs):/[^\s,\]\)\"']*")
_LAMBDA = re.compile(r"\$\$Lambda[$/][\w/$.]*")


_CTE_TEXT = re.compile(r"\b(CTERelationDef|CTERelationRef) (\d+)\b")
# Node fields that hold a CTE's id, a counter that grows with every query the JVM analyzed.
_CTE_ID_FIELDS = {"CTERelationDef": "id", "CTERelationRef": "cteId"}


def stable_text(text: str) -> str:
    """A text plan without expression ids, paths or lambda class suffixes; CTE ids renumbered
    from 0 in order of appearance (they keep linking definitions to references)."""
    ctes: dict[str, int] = {}
    text = _CTE_TEXT.sub(lambda m: f"{m.group(1)} {ctes.setdefault(m.group(2), len(ctes))}", text)
    text = _EXPR_ID.sub("#x", text)
    text = _PATH.sub(lambda m: m.group(1) + ":<path>", text)
    return _LAMBDA.sub("$$Lambda", text)


def stable_value(value: Any) -> Any:
    if isinstance(value, str):
        return stable_text(value)
    return value


def short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1].rstrip("$")


def is_flat_tree(value: Any) -> bool:
    return (isinstance(value, list) and bool(value) and isinstance(value[0], dict)
            and "class" in value[0] and "num-children" in value[0])


def nest(flat: list) -> dict:
    """Spark's pre-order node list (``TreeNode.toJSON``) as one nested, stable tree."""
    return _Nester().nest(flat)


class _Nester:
    """One plan's nesting: CTE ids are renumbered consistently across the whole plan."""

    def __init__(self) -> None:
        self.ctes: dict[Any, int] = {}

    def nest(self, flat: list) -> dict:
        position = 0

        def build() -> dict:
            nonlocal position
            raw = flat[position]
            position += 1
            children = [build() for _ in range(int(raw.get("num-children", 0)))]
            return self.node(raw, children)

        return build()

    def node(self, raw: dict, children: list) -> dict:
        node: dict = {"node": short_class(raw["class"])}
        cte_field = _CTE_ID_FIELDS.get(node["node"])
        for key, value in raw.items():
            if key == cte_field:
                node[key] = self.ctes.setdefault(value, len(self.ctes))
                continue
            if key == "class" or key in VOLATILE_KEYS or _is_child_reference(value, len(children)):
                continue  # child references (indexes) are implied by "children"
            value = self.clean(value)
            if value is None or value == [] or value == {}:
                continue
            node[key] = value
        if children:
            node["children"] = children
        return node

    def clean(self, value: Any) -> Any:
        if is_flat_tree(value):
            return self.nest(value)
        if isinstance(value, list):
            return [self.clean(v) for v in value]
        if isinstance(value, dict):
            if set(value) == {"object"}:
                return short_class(str(value["object"]))
            cleaned = {}
            for key, inner in value.items():
                if key in VOLATILE_KEYS:
                    continue
                inner = self.clean(inner)
                if inner is None or inner == [] or inner == {}:
                    continue
                cleaned[key] = inner
            return cleaned
        return stable_value(value)


def _is_child_reference(value: Any, count: int) -> bool:
    """Spark writes a field that holds a child as the child's index (an int, or a list of them)."""
    if not count or isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value < count
    return (isinstance(value, list) and bool(value)
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < count for v in value))


def walk_flat(value: Any) -> Iterator[dict]:
    """Every dict with a ``class`` in Spark's raw JSON (plan nodes and expressions, nested too)."""
    if isinstance(value, dict):
        if "class" in value:
            yield value
        for inner in value.values():
            yield from walk_flat(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk_flat(inner)


# -- text trees, for drawing ---------------------------------------------------------------------

_PREFIX_UNITS = ("   ", ":  ", "+- ", ":- ")


@dataclass
class TextNode:
    index: int
    label: str
    depth: int
    children: list["TextNode"] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.label.split(" ", 1)[0].lstrip("'!*")


def parse_text_tree(text: str) -> Optional[TextNode]:
    """Spark's ``treeString`` (``+-``/``:-`` prefixes) as nodes; subquery plans become children."""
    root: Optional[TextNode] = None
    stack: list[TextNode] = []
    count = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        position = 0
        while line[position:position + 3] in _PREFIX_UNITS and position + 3 <= len(line):
            position += 3
        depth = position // 3
        label = line[position:].strip()
        if root is not None and position == 0 and depth == 0 and stack and not _looks_like_node(label):
            stack[-1].label += " " + label  # a wrapped continuation line
            continue
        node = TextNode(count, label, depth)
        count += 1
        while stack and stack[-1].depth >= depth:
            stack.pop()
        if stack:
            stack[-1].children.append(node)
        elif root is None:
            root = node
        else:
            root.children.append(node)
        stack.append(node)
    return root


def _looks_like_node(label: str) -> bool:
    return bool(re.match(r"^['!*]?[A-Z][A-Za-z0-9]*\b", label))


def iter_nodes(root: Optional[TextNode]) -> Iterator[TextNode]:
    if root is None:
        return
    yield root
    for child in root.children:
        yield from iter_nodes(child)
