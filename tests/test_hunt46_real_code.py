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


# InternVL internvl_chat/internvl/train/internvl_chat_finetune.py:1001 (shape): the language model is
# frozen parameter by parameter, then `lm_head.requires_grad = True` is meant to unfreeze the head
UNFREEZE = """\
    import torch.nn as nn


    class Chat(nn.Module):
        def __init__(self):
            super().__init__()
            self.language_model = nn.Module()
            self.language_model.lm_head = nn.Linear(8, 8)


    def setup(model, unfreeze_lm_head):
        for p in model.language_model.parameters():
            p.requires_grad = False
        if unfreeze_lm_head:
            model.language_model.lm_head.requires_grad = {flag}
"""


def test_pf122_unfreeze_on_a_module_says_the_parameters_stay_frozen(cli, tmp_path):
    _write(tmp_path, "train.py", UNFREEZE.format(flag="True"))
    result = cli("check", "train.py", "--select", "PF122", "--no-cache", cwd=tmp_path)
    assert "train.py:15:9: PF122" in result.out
    assert "frozen ones stay frozen" in result.out and "lm_head.requires_grad_(True)" in result.out
    assert "keep requires_grad=True" not in result.out
    _write(tmp_path, "train.py", UNFREEZE.format(flag="False"))
    result = cli("check", "train.py", "--select", "PF122", "--no-cache", cwd=tmp_path)
    assert "train.py:15:9: PF122" in result.out
    assert "keep requires_grad=True" in result.out and "lm_head.requires_grad_(False)" in result.out
