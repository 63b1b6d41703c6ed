"""The hello domain: people who each speak one language, and a greeting service.

Two tools: ``get_person`` reads one person (name, city, language code) and ``say_hello``
gives the greeting of a language code. A task chains them, so the greeting depends on
what the first call returned.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal, Self

from toolchaos.ext import Domain, Row, ToolError, World, lookup, register_domain, tool, tool_map

GREETINGS: dict[str, str] = {
    "de": "Guten Tag",
    "en": "Hello",
    "es": "Hola",
    "fr": "Bonjour",
    "it": "Buongiorno",
    "nl": "Goedendag",
}
"""The greeting of each language code the service knows."""

Language = Literal["de", "en", "es", "fr", "it", "nl"]

FIRST = ("Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Femke", "Goran", "Hana", "Ines", "Jonas")
CITIES = ("Lyon", "Graz", "Porto", "Gent", "Turin", "Sevilla", "Leeds", "Utrecht")


class Person(Row):
    """One person and the language they speak."""

    person_id: str
    name: str
    city: str
    language: str


class HelloWorld(World):
    """Twelve people, each with a seeded language."""

    TABLES: ClassVar[tuple[str, ...]] = ("people",)
    people: dict[str, Person]

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Twelve people; names, cities and languages drawn from ``rng``."""
        people = {}
        for i in range(12):
            person_id = f"P-{101 + i}"
            people[person_id] = Person(
                person_id=person_id,
                name=f"{rng.choice(FIRST)} {chr(ord('A') + i)}.",
                city=rng.choice(CITIES),
                language=rng.choice(sorted(GREETINGS)),
            )
        return cls(seed=seed, people=people)


get_person = lookup(
    "get_person",
    "people",
    "person_id",
    "Person",
    "Get one person: name, city and the code of the language they speak.",
    "The person id, e.g. 'P-101'.",
)


@tool()
def say_hello(world: HelloWorld, language: Language) -> dict[str, Any]:
    """The greeting of a language.

    Args:
        world: The hello world (given by the runtime, not part of the schema).
        language: The two-letter code of the language, lowercase, e.g. 'fr'.
    """
    greeting = GREETINGS.get(language)
    if greeting is None:  # the schema's enum refuses it first; a direct call lands here
        raise ToolError(f"Unknown language '{language}'", code=422, kind="unknown_language")
    return {"language": language, "greeting": greeting}


@register_domain("hello")
def hello_domain() -> Domain:
    """The hello domain (the ``toolchaos.domains`` entry point names this factory)."""
    return Domain(
        name="hello",
        topic="greetings",
        world_type=HelloWorld,
        tools=tool_map([get_person, say_hello]),
    )
