"""Hazard families. Each module registers its variants; import it here, one line a family."""

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
    build_hazard,
    register,
)

__all__ = [
    "VARIANTS",
    "Hazard",
    "HazardContext",
    "PendingCall",
    "build_hazard",
    "cross_source",
    "execution_failure",
    "invocation_error",
    "output_drift",
    "register",
    "specification_drift",
]
