"""Helpers and constants shared by the commerce subtopic templates."""

from __future__ import annotations

RECENT = "2026-01-31"  # deliveries on or after this are inside the 30-day return window
