"""Hazard families. Each module registers its variants; import it here, one line a family.

``register`` is the deprecated name of ``register_hazard`` (the same decorator).
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
    register,
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
    "register",
    "register_hazard",
    "specification_drift",
    "tier_of",
]
