"""Jars and function resources (FLIP-214): the jar store, per-session jars, CREATE FUNCTION … USING JAR."""
