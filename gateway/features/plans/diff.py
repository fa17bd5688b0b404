"""Differences between two plans, for people: what changed in versions, settings, tables,
functions, and which plan nodes are only on one side (for highlighting in the graphs)."""
from __future__ import annotations

import difflib
from collections import Counter

from gateway.features.plans.checks import column_changes
from gateway.features.plans.compiler import plan_text
from gateway.features.plans.tree import iter_nodes, parse_text_tree


def diff_plans(left: dict, right: dict) -> dict:
    """``{"changes": [{"section", "item", "left", "right"}], "<plan>_diff": [lines], "only_left"/"only_right":
    {"<plan>": [node indexes]}, "same": bool}`` for the analyzed and optimized plans."""
    changes: list[dict] = []

    def change(section: str, item: str, a, b) -> None:
        changes.append({"section": section, "item": item, "left": a, "right": b})

    for key in ("spark_version", "accepts_spark", "workbench_version", "format_version"):
        if left.get(key) != right.get(key):
            change("versions", key, left.get(key), right.get(key))
    for key in ("text", "kind", "current_catalog", "current_database"):
        if left["statement"].get(key) != right["statement"].get(key):
            change("statement", key, left["statement"].get(key), right["statement"].get(key))
    for key in sorted(set(left["config"]) | set(right["config"])):
        if left["config"].get(key) != right["config"].get(key):
            change("config", key, left["config"].get(key), right["config"].get(key))
    _diff_tables(left, right, change)
    _diff_functions(left, right, change)
    result: dict = {"changes": changes, "only_left": {}, "only_right": {}}
    for which in ("analyzed", "optimized"):
        a, b = plan_text(left, which), plan_text(right, which)
        result[f"{which}_diff"] = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "left", "right",
                                                            lineterm=""))
        result["only_left"][which], result["only_right"][which] = _one_sided_nodes(a, b)
    result["same"] = not changes and not result["analyzed_diff"] and not result["optimized_diff"]
    return result


def _diff_tables(left: dict, right: dict, change) -> None:
    a = {t["name"]: t for t in left["tables"]}
    b = {t["name"]: t for t in right["tables"]}
    for name in sorted(set(a) | set(b)):
        if name not in b:
            change("tables", name, f"{a[name]['role']}", None)
        elif name not in a:
            change("tables", name, None, f"{b[name]['role']}")
        else:
            if a[name]["role"] != b[name]["role"]:
                change("tables", name + " role", a[name]["role"], b[name]["role"])
            if a[name].get("columns") and b[name].get("columns"):
                for text in column_changes(a[name]["columns"], b[name]["columns"]):
                    change("tables", name, "", text)


def _diff_functions(left: dict, right: dict, change) -> None:
    a = {f["name"]: f for f in left["functions"]}
    b = {f["name"]: f for f in right["functions"]}
    for name in sorted(set(a) | set(b)):
        render = lambda f: f"{f['module']} {f['version']} ({f['implementation']})" if f else None  # noqa: E731
        if render(a.get(name)) != render(b.get(name)):
            change("functions", name, render(a.get(name)), render(b.get(name)))


def _one_sided_nodes(a: str, b: str) -> tuple[list[int], list[int]]:
    """Indexes of nodes whose label is on one side only (counted, so repeats match pairwise)."""
    nodes_a, nodes_b = list(iter_nodes(parse_text_tree(a))), list(iter_nodes(parse_text_tree(b)))
    count_a, count_b = Counter(n.label for n in nodes_a), Counter(n.label for n in nodes_b)
    only_a, only_b = [], []
    seen_a: Counter = Counter()
    for node in nodes_a:
        seen_a[node.label] += 1
        if seen_a[node.label] > count_b[node.label]:
            only_a.append(node.index)
    seen_b: Counter = Counter()
    for node in nodes_b:
        seen_b[node.label] += 1
        if seen_b[node.label] > count_a[node.label]:
            only_b.append(node.index)
    return only_a, only_b
