"""Subtopic templates, one module per domain."""
