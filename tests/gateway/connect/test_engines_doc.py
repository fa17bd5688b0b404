"""docs/engines.md's table "what works on which engine" agrees with the capability checks of
gateway/spark/backend.py: a row that works needs only what its engine supports; a refused row needs
something the engine does not offer. First on bad tables, so that a pass means something."""
from __future__ import annotations

from pathlib import Path

import pytest

from gateway.spark import backend
from gateway.spark.backend import Capability, supports

DOC = Path(__file__).resolve().parents[3] / "docs" / "engines.md"


def feature_rows(text: str) -> list[dict]:
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) != 5 or cells[0] in ("feature",) or set(cells[0]) <= {"-"}:
            continue
        rows.append({"feature": cells[0], "embedded": cells[1], "embedded_needs": _needs(cells[2]),
                     "connect": cells[3], "connect_needs": _needs(cells[4])})
    return rows


def _needs(cell: str) -> list[Capability]:
    if cell == "—":
        return []
    return [Capability(name.strip().strip("`")) for name in cell.split(",")]


def disagreements(rows: list[dict], offers: dict[str, callable]) -> list[str]:
    wrong = []
    for row in rows:
        for engine, offered in offers.items():
            claim = row[engine]
            if not (claim.startswith("works") or claim.startswith("refused")):
                wrong.append(f"{row['feature']} on {engine}: say 'works' or 'refused', not {claim[:30]!r}")
                continue
            able = all(offered(c) for c in row[f"{engine}_needs"])
            if claim.startswith("works") != able:
                wrong.append(f"{row['feature']} on {engine}: the table says {claim.split()[0]!r}, the capability "
                             f"checks say {'works' if able else 'refused'}")
    return wrong


@pytest.fixture(scope="module")
def connect_spark():
    """A Spark Connect session object: no RPC is made until a statement runs, so no server is needed."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    spark = ConnectSession.builder.remote("sc://127.0.0.1:9").create()
    yield spark
    spark.client.close()


def _offers(connect_spark):
    return {"embedded": lambda c: c in backend._THROUGH_THE_JVM, "connect": lambda c: supports(connect_spark, c)}


def test_the_check_finds_a_wrong_claim(connect_spark):
    bad = ("| feature | embedded | embedded needs | connect | connect needs |\n|---|---|---|---|---|\n"
           "| atomic writes | works | `plan_internals` | works | `plan_internals` |\n"
           "| cancel | refused | `spark_context` | works | `operation_tags` |\n"
           "| browsing | maybe | — | works | — |\n")
    wrong = disagreements(feature_rows(bad), _offers(connect_spark))
    assert len(wrong) == 3 and "atomic writes on connect" in wrong[0] and "cancel on embedded" in wrong[1]


def test_the_table_in_docs_engines_md_agrees_with_the_capability_checks(connect_spark):
    rows = feature_rows(DOC.read_text())
    assert len(rows) >= 15
    assert disagreements(rows, _offers(connect_spark)) == []
    # every capability a backend may lack is named by some row
    named = {c for row in rows for c in row["embedded_needs"] + row["connect_needs"]}
    assert {Capability.OPERATION_TAGS, Capability.ARROW_BATCHES, Capability.SESSION_ARTIFACTS,
            Capability.PLAN_INTERNALS, Capability.SPARK_CONTEXT, Capability.SESSION_STATE} <= named
