"""Hazard families.

Each module registers its variants (``register_hazard``); import it here, one line a family.
"""

from toolchaos.hazards import (
    cross_source,
    execution_failure,
    invocation_error,
    output_drift,
    specification_drift,
)
from toolchaos.hazards.base import (
    VARIANTS,
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    build_hazard,
    hint_for,
    proposals,
    register_hazard,
    tier_of,
)

__all__ = [
    "VARIANTS",
    "Hazard",
    "HazardContext",
    "PendingCall",
    "Proposal",
    "Results",
    "build_hazard",
    "cross_source",
    "execution_failure",
    "hint_for",
    "invocation_error",
    "output_drift",
    "proposals",
    "register_hazard",
    "specification_drift",
    "tier_of",
]
