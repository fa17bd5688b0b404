"""The workbench's version, apart so that anything can read it without importing the gateway."""
__version__ = "0.1.0"
