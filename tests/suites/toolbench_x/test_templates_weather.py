"""Weather subtopic templates: what is specific to the domain.

The generic promises (full cells, valid tasks, workflow shapes, hazards present, five
prompts per template) are checked for every domain in ``test_templates.py``. Here: the
package layout this domain set for the others, and the subtopics it promises.
"""

from __future__ import annotations

import importlib

from toolchaos.suites.toolbench_x.generate import slug, subtopics, template_package
from toolchaos.suites.toolbench_x.templates.weather import SUBTOPIC_ORDER

DOMAIN = "weather"


def test_one_module_per_subtopic_named_after_it() -> None:
    package = template_package(DOMAIN)
    modules = [importlib.import_module(f"{package}.{name}") for name in SUBTOPIC_ORDER]
    assert [m.SUBTOPIC.name for m in modules] == [s.name for s in subtopics([DOMAIN])]
    for name, module in zip(SUBTOPIC_ORDER, modules, strict=True):
        assert slug(module.SUBTOPIC.name).replace("-", "_") == name


def test_subtopics_keep_their_names_and_topic() -> None:
    subs = subtopics([DOMAIN])
    assert [s.name for s in subs][:3] == [
        "forecasts and trip weather",
        "air quality",
        "places and distances",
    ]
    assert all(s.topic == "location and environment" for s in subs)
