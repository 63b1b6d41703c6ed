"""Scoring: answer normalization, state match and aggregate metrics."""
