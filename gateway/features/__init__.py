"""Features: modules, jars, atomic writes, plans, completion. Each registers itself through one hook."""
