"""What the ``inspect_ai`` entry point registers: the tasks, the solver and the scorer."""

from toolchaos.integrations.inspect.scorer import toolchaos_scorer
from toolchaos.integrations.inspect.solver import toolchaos_protocol
from toolchaos.integrations.inspect.tasks import suite, toolbench_x, toolfailbench

__all__ = ["suite", "toolbench_x", "toolchaos_protocol", "toolchaos_scorer", "toolfailbench"]
