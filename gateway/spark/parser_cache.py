"""Spark's SQL parser caches in the shared driver: bounded, and counted.

ANTLR keeps a DFA cache per grammar decision that grows with every new shape of text parsed and, by
default, lives as long as the JVM (static in Spark's ``SqlBaseParser``). Every session of the workbench
shares one driver, and the workbench parses every statement with Spark's grammar (its engine guard,
restrictions and features read plans): without a bound, any user who sends statements of new shapes
(deeply nested, wide, generated) grows the shared heap for good. Measured on Spark 4.3 (2 cores, 2 GiB
driver, ``benchmarks/driver_heap.py``): four rounds of such statements left 1.39M ``ATNConfig`` and 16k
``DFAState[]`` live, about 106 MiB, still rising by 20-30 MiB a round.

Spark 4 can manage those caches itself (SPARK-47404): with ``spark.sql.parser.manageParserCaches`` its
parsers use caches it owns and, after a parse, drops them once their states exceed
``spark.sql.parser.parserDfaCacheFlushRatio`` percent of the driver's memory (estimated at
``AbstractParser.BYTES_PER_DFA_STATE`` bytes a state). The workbench turns that on by default
(``PARSER_CACHE_CONF``); ``[spark.conf]`` may set other values. A flush costs the next statements a cold parse
(a few ms each); ordinary use stays far below the bound.
"""
from __future__ import annotations

from typing import NamedTuple

from gateway.spark.backend import Capability, jvm

MANAGE = "spark.sql.parser.manageParserCaches"
FLUSH_RATIO = "spark.sql.parser.parserDfaCacheFlushRatio"
# 2 % of the driver heap by Spark's estimate of a state's bytes: 4,400 states with 2 GiB (an estimated 43 MiB,
# measured 28 MiB); a session's ordinary statements use a few hundred.
PARSER_CACHE_CONF = {MANAGE: "true", FLUSH_RATIO: "2"}
SETTINGS = (MANAGE, FLUSH_RATIO, "spark.sql.parser.parserDfaCacheFlushThreshold")

_PACKAGE = "org.apache.spark.sql.catalyst.parser"
_WHAT = "counting the states of Spark's parser caches"


class DfaStates(NamedTuple):
    """States in Spark's parser DFA caches: the managed ones, and ANTLR's static ones (the JVM's life)."""

    managed: int
    static_parser: int
    static_lexer: int


def dfa_states(spark) -> DfaStates:
    """Counted in the driver (one Py4J call per grammar decision of the static caches: for tests and benchmarks,
    not for every statement)."""
    view = jvm(spark, Capability.PLAN_INTERNALS, _WHAT)
    managed = int(view.org.apache.spark.sql.catalyst.parser.AbstractParser.getDFACacheNumStates())
    return DfaStates(managed, _static_states(view, "SqlBaseParser"), _static_states(view, "SqlBaseLexer"))


def managed_bytes(spark) -> tuple[int, int]:
    """(states, estimated bytes) of the managed caches: one Py4J call, for the memory guard's message."""
    parser = jvm(spark, Capability.PLAN_INTERNALS, _WHAT).org.apache.spark.sql.catalyst.parser.AbstractParser
    states = int(parser.getDFACacheNumStates())
    return states, states * int(parser.BYTES_PER_DFA_STATE())


def _static_states(view, grammar: str) -> int:
    from py4j.java_gateway import get_field

    field = view.java.lang.Class.forName(f"{_PACKAGE}.{grammar}").getDeclaredField("_decisionToDFA")  # protected
    field.setAccessible(True)
    return sum(int(get_field(dfa, "states").size()) for dfa in field.get(None))
