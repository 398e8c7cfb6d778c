"""hunt46: false positives of the config rules found on real public code (docs/corpus.md, "Rules on
real code (hunt46)"); the code rules' real shapes are tricky-correct examples beside each rule."""

from __future__ import annotations

import textwrap
from pathlib import Path

# DeepSpeedExamples benchmarks/autosp/configs/autosp_config.json (shape): DeepSpeedConfig reads
# `"sequence_parallel_size" in config` to size the data-parallel world of an HF zero.init run
AUTOSP = """\
    {
      "train_micro_batch_size_per_gpu": 1,
      "gradient_accumulation_steps": 1,
      "zero_optimization": {"stage": 1},
      "bf16": {"enabled": true},
      "sequence_parallel_size": 4
    }
"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def test_deepspeed_sequence_parallel_size_is_a_key_deepspeed_reads(cli, tmp_path):
    _write(tmp_path, "ds_config.json", AUTOSP)
    result = cli("validate", "ds_config.json", cwd=tmp_path)
    assert "unknown key" not in result.out and "no problems" in result.out
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "PF601" not in result.out and "PF602" not in result.out


def test_deepspeed_sequence_parallel_size_misspelt_or_mistyped_still_reported(cli, tmp_path):
    _write(tmp_path, "typo.json", AUTOSP.replace("sequence_parallel_size", "sequence_paralel_size"))
    _write(tmp_path, "typed.json", AUTOSP.replace('"sequence_parallel_size": 4', '"sequence_parallel_size": "4"'))
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "typo.json:6:" in result.out and "PF601" in result.out and "'sequence_paralel_size'" in result.out
    assert "typed.json:6:" in result.out and "PF602" in result.out
