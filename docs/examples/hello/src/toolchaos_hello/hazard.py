"""One hazard variant: output drift that sends every text value back in capitals.

``get_person`` then says ``"language": "FR"`` where its docs promise a lowercase code,
and ``say_hello`` refuses ``FR``: an agent that passes the value on as it came fails,
one that normalizes it to the documented form recovers.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from toolchaos.ext import (
    Domain,
    Hazard,
    HazardContext,
    HazardFamily,
    PendingCall,
    Proposal,
    RecoveryStep,
    Results,
    TaskSpec,
    register_hazard,
)


@register_hazard
class ShoutedValues(Hazard):
    """Output drift: every string value of the result comes back upper-cased."""

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "shouted_values"
    summary: ClassVar[str] = "text values come back in capitals"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may return its text values in capitals. Convert codes back "
        "to the documented lowercase form before you use them.",
        "Reliability notice. Responses from {tool} may spell every text value in upper "
        "case, for example 'FR' for the documented 'fr'. The meaning is unchanged: convert "
        "such a code to lowercase before passing it to another tool.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """It fits a hello task whose later step reads a code from ``get_person``."""
        if task.domain != "hello":
            return []
        recipe = [RecoveryStep(action="normalize", params={"lowercase": ["language"]})]
        return [
            cls.proposal(step.tool, {}, recipe)
            for step in task.reference.steps
            if step.tool == "get_person"
        ]

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Upper-case every top-level string value."""
        if not self.fires(call.tool, call.ordinal) or not isinstance(result, dict):
            return result
        self.log(ctx, call.tool, call.ordinal, "text values in capitals")
        return {k: v.upper() if isinstance(v, str) else v for k, v in result.items()}
