"""tools/gen_axolotl_fields.py reads axolotl's pydantic models with ast from a git snapshot: the fields
of AxolotlInputConfig / AxolotlConfigWCapabilities and their bases (aliases too), and per integration
package the fields its args.py declares. Checked on a small repository written here (not axolotl's code)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "gen_axolotl_fields.py"


def _load():
    spec = importlib.util.spec_from_file_location("gen_axolotl_fields", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _repo(tmp_path: Path) -> tuple[str, str]:
    files = {
        "src/axolotl/utils/schemas/training.py": """\
            from pydantic import BaseModel, Field
            class HyperparametersConfig(BaseModel):
                learning_rate: str | float
                adam_epsilon: float | None = None
                _private: int = 0
        """,
        "src/axolotl/utils/schemas/config.py": """\
            from typing import ClassVar
            from pydantic import BaseModel, Field
            from axolotl.utils.schemas.training import HyperparametersConfig
            class AxolotlInputConfig(HyperparametersConfig, BaseModel):
                model_config = {"populate_by_name": True}
                base_model: str
                sequence_len: int = Field(default=512, alias="max_seq_len")
                registry: ClassVar[dict] = {}
            class AxolotlConfigWCapabilities(AxolotlInputConfig):
                capabilities: dict
        """,
        "src/axolotl/integrations/liger/args.py": """\
            from pydantic import BaseModel
            class LigerArgs(BaseModel):
                liger_rope: bool | None = None
        """,
    }
    for path, text in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
    run = lambda *a: subprocess.run(["git", "-C", str(tmp_path), *a], check=True, capture_output=True,  # noqa: E731
                                    text=True).stdout.strip()
    run("init", "-q")
    run("add", "-A")
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "models")
    return str(tmp_path / ".git"), run("rev-parse", "HEAD")


def test_the_generator_reads_fields_bases_aliases_and_plugin_arguments(tmp_path):
    if subprocess.run(["git", "--version"], capture_output=True).returncode != 0:
        pytest.skip("git is not installed")
    git_dir, commit = _repo(tmp_path)
    doc = _load().build(git_dir, commit)
    assert sorted(doc["properties"]) == ["adam_epsilon", "base_model", "capabilities", "learning_rate",
                                         "max_seq_len", "sequence_len"]
    assert doc["x-plugins"] == {"axolotl.integrations.liger": ["liger_rope"]}
    assert doc["x-unknown-keys"] == "ignored" and doc["x-preflight"]["commit"] == commit
