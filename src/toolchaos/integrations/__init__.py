"""Adapters to other evaluation ecosystems (each behind its own extra)."""
