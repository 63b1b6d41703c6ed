"""Hazard families. Each module registers its variants; import it here, one line a family."""

from toolchaos.hazards import execution_failure, output_drift
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
    "execution_failure",
    "output_drift",
    "register",
]
