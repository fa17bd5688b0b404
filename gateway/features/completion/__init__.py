"""Schema-aware statement completion."""
