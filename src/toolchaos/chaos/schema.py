"""Write the hazard plan's JSON Schema: ``python -m toolchaos.chaos.schema [PATH]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from toolchaos.chaos.plan import plan_schema

DEFAULT_PATH = Path("docs/hazard-plan.schema.json")


def schema_text() -> str:
    """The schema as the docs file holds it (sorted keys, two-space indent)."""
    return json.dumps(plan_schema(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Write the schema to the path given (``docs/hazard-plan.schema.json`` by default)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    path.write_text(schema_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
