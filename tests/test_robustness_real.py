"""Bad or empty input on real jobs (bench/robustness/sweep.py): one clear message, a documented
exit code, never a silent empty answer. The inputs are rebuilt from the shapes the sweep met in
public repositories; they are written here from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# DeepSpeed-Chat's step1 folder: the DeepSpeed config is built in Python, no .json/.yaml beside it
DS_IN_PYTHON = """\
    def get_train_ds_config(offload, stage=2):
        return {"train_batch_size": 32, "zero_optimization": {"stage": stage}}
"""


def test_validate_on_a_folder_without_configs_says_nothing_was_validated(cli, tmp_path):
    write(tmp_path, "step1/main.py", DS_IN_PYTHON)
    write(tmp_path, "step1/training_scripts/run.sh", "deepspeed main.py --zero_stage 2\n")
    result = cli("validate", "step1", cwd=tmp_path)
    assert result.code == 0  # as `check` on a folder without Python: a CI step must not fail
    assert result.out == "No config files found: nothing was validated.\n"
    assert result.err == ("preflight: warning: no config files (.json, .yaml, .yml) found under step1 "
                          "(nothing was validated)\n")
    assert "no problems" not in result.out


def test_validate_json_on_a_folder_without_configs_warns_on_stderr(cli, tmp_path):
    write(tmp_path, "step1/main.py", DS_IN_PYTHON)
    result = cli("validate", "--format", "json", "step1", cwd=tmp_path)
    assert result.code == 0
    doc = json.loads(result.out)
    assert doc["files"] == [] and doc["counts"]["checked"] == 0
    assert "no config files (.json, .yaml, .yml) found under step1" in result.err


def test_validate_a_folder_with_a_config_is_not_called_empty(cli, tmp_path):
    write(tmp_path, "step1/main.py", DS_IN_PYTHON)
    write(tmp_path, "step1/ds.json", '{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}\n')
    result = cli("validate", "step1", cwd=tmp_path)
    assert result.code == 0
    assert result.out == "Validated 1 file (deepspeed): no problems\n"
    assert result.err == ""


def test_validate_a_folder_of_unrecognised_yaml_counts_them_and_does_not_warn(cli, tmp_path):
    # a folder whose YAML files are no training config (a CI workflow): counted, not "no config files"
    write(tmp_path, "conf/.github/ci.yaml", "on: push\n")
    write(tmp_path, "conf/mkdocs.yml", "site_name: docs\nnav:\n  - index.md\n")
    result = cli("validate", "conf", cwd=tmp_path)
    assert result.code == 0
    assert result.out == ("conf/mkdocs.yml: note: not validated: no DeepSpeed, accelerate, TrainingArguments/"
                          "SFTConfig, Lightning Trainer or GPT-NeoX settings recognised [not-recognised]\n"
                          "Validated 0 files: no problems; 1 file not recognised as a config\n")
    assert result.err == ""


def test_validate_a_missing_file_is_an_input_error_not_an_empty_run(cli, tmp_path):
    result = cli("validate", "nowhere.json", cwd=tmp_path)
    assert result.code == 3
    assert "nowhere.json: error: no such file" in result.out
    assert "No config files found" not in result.out and result.err == ""


# --------------------------------------------------------------------------- a long main() in bounded time


def _chained_main(links: int, pad: int) -> str:
    """A long ``main()`` whose names are rebound under ``if`` tests that read other rebound names (the
    shape of huggingface/parler-tts training/run_parler_tts_training.py, rebuilt): the value flow
    walked the whole function again for every name and every test it decided."""
    lines = ["import argparse", "import torch", "from torch.utils.data import DataLoader", "", "",
             "def main():", "    parser = argparse.ArgumentParser()",
             '    parser.add_argument("--batch_size", type=int, default=8)',
             '    parser.add_argument("--flag", type=int, default=1)', "    args = parser.parse_args()",
             "    v0 = args.flag", "    v0 = v0 + 1"]
    for i in range(1, links + 1):
        lines += [f"    v{i} = v{i - 1} + 1", f"    if v{i - 1} > 0:", f"        v{i} = v{i} + 1"]
    lines += [f"    print('step', {j}, [x for x in range({j})])" for j in range(pad)]
    lines += ["    bs = args.batch_size", "    if args.flag > 0:", "        bs = bs * 2",
              "    model = torch.nn.Linear(4, 4).cuda()", "    opt = torch.optim.AdamW(model.parameters())",
              "    loader = DataLoader(list(range(64)), batch_size=bs)", "    for batch in loader:",
              "        loss = model(batch).sum()", "        loss.backward()", "        opt.step()",
              "        opt.zero_grad()", "", "", 'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(lines)


def test_audit_of_a_long_main_with_chained_rebindings_finishes_in_bounded_work(cli, tmp_path):
    import time

    (tmp_path / "train.py").write_text(_chained_main(12, 300), encoding="utf-8")
    start = time.process_time()
    result = cli("audit", "train.py", "--emit-plan", "json", "--no-cache", "-j", "1", cwd=tmp_path)
    spent = time.process_time() - start
    assert result.code == 0, result.err
    plan = json.loads(result.out)
    micro = plan["fields"]["batch.micro"]
    winner = micro[0] if isinstance(micro, list) else micro
    assert winner["value"] == 16  # bs = 8, doubled under `if args.flag > 0` (default 1)
    # aa61fa3a: over 25 s of CPU and killed at 300 s (2 cores, loaded); with the walks kept on the
    # nodes: 1.7 s. The bound leaves room for a slow machine.
    assert spent < 20, f"audit took {spent:.1f} s of CPU"
