"""Model entries: what a run knows about each model, from flags or a models file (YAML)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator

from toolchaos.core.errors import BadInput

Tier = Literal["", "closed", "open-weight", "reasoning", "local", "baseline"]


class ModelEntry(BaseModel):
    """One model of a run: how to reach it, how to sample it, how to group and price it."""

    spec: str
    base_urls: list[str] = Field(default_factory=list)
    api_key_env: str | None = None
    family: str = ""
    tier: Tier = ""
    input_per_mtok: float = 0.0
    output_per_mtok: float = 0.0
    prompt_mode: bool | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    concurrency: int = 8
    timeout_s: float = 120.0
    max_retries: int = 5
    backoff_s: float = 0.5
    gguf: str | None = None
    engine: str | None = None

    @field_validator("base_urls", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """The price of some tokens, in USD."""
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1e6


def check_base_urls(entry: ModelEntry) -> None:
    """Refuse a base URL that is not an http(s) URL with a host, before anything plays.

    Raises:
        BadInput: Naming the URL and the model it was given for.
    """
    for url in entry.base_urls:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname or " " in url.strip():
            raise BadInput(
                f"the base URL {url!r} of {entry.spec} is not an http(s) URL; give the "
                "endpoint's /v1 URL, e.g. http://127.0.0.1:8000/v1"
            )


FILE_KEYS = frozenset({"models", "limits"})
"""The top-level keys of a models file (``limits:`` is read by :mod:`toolchaos.runner.limits`)."""

ENTRY_KEYS = frozenset({*ModelEntry.model_fields, "base_url"})
"""The keys one model of a models file may have (``base_url`` is ``base_urls``' alias)."""


def _refuse_unknown(path: Path, where: str, keys: set[Any], known: frozenset[str]) -> None:
    """Refuse a key a models file does not read (a misspelling would be silently ignored)."""
    for key in sorted(keys - known, key=str):
        close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(sorted(known))}"
        raise BadInput(f"{path}: {where}unknown key {key!r}{hint}")


def load_models_file(path: Path) -> list[ModelEntry]:
    """Read a models file: ``models: [{spec: ..., base_url: ..., family: ...}, ...]``."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"models file {path} does not exist") from None
    except IsADirectoryError:
        raise BadInput(f"models file {path} is a directory, not a YAML file") from None
    except UnicodeDecodeError:
        raise BadInput(
            f"models file {path} is not UTF-8 text (a binary file?); give a YAML file"
        ) from None
    except OSError as exc:
        raise BadInput(f"cannot read models file {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise BadInput(f"{path}{where}: not valid YAML") from None
    if not isinstance(data, dict) or not isinstance(data.get("models"), list):
        raise BadInput(f"{path}: expected a top-level 'models:' list")
    _refuse_unknown(path, "", set(data), FILE_KEYS)
    entries = []
    for index, item in enumerate(data["models"]):
        if isinstance(item, dict):
            _refuse_unknown(path, f"model {index + 1}: ", set(item), ENTRY_KEYS)
        if isinstance(item, dict) and "base_url" in item:
            item = {**item, "base_urls": item.pop("base_url")}
        try:
            entries.append(ModelEntry.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise BadInput(f"{path}: model {index + 1}, field {field}: {first['msg']}") from None
    if not entries:
        raise BadInput(f"{path}: the 'models' list is empty")
    return entries
