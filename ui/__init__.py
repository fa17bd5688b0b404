"""Shared UI code; the only package besides pages/ that imports streamlit."""
