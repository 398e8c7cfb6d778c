"""PF537: `model.generate` on the model `accelerator.prepare` returned, under a multi-process DDP launch
(accelerate issue 109), run the way a user runs `preflight audit` with the launch command."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import write

TRAIN = """\
    import torch
    from accelerate import Accelerator


    def main(model, optimizer, loader, prompts):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        return evaluate(model, prompts)


    def evaluate(model, prompts):
        with torch.no_grad():
            return [model.generate(**p, max_new_tokens=32) for p in prompts]
    """


def found(cli, root: Path, train: str, launch: str) -> list[tuple[int, str]]:
    write(root, {"train.py": train})
    res = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", "--", *launch.split(), cwd=root)
    doc = json.loads(res.out)
    return [(f["line"], f["message"]) for f in doc["findings"] if f["code"] == "PF537"]


def test_generate_in_the_evaluation_helper_under_a_multi_gpu_launch_is_an_error(cli, tmp_path):
    out = found(cli, tmp_path, TRAIN, "accelerate launch --multi_gpu --num_processes 2 train.py")
    assert [line for line, _ in out] == [17]
    assert "DistributedDataParallel" in out[0][1] and "unwrap_model(model)" in out[0][1]


def test_one_process_is_quiet(cli, tmp_path):
    assert found(cli, tmp_path, TRAIN, "accelerate launch --num_processes 1 train.py") == []


def test_the_unwrapped_model_is_quiet(cli, tmp_path):
    fixed = TRAIN.replace("return evaluate(model, prompts)", "return evaluate(accelerator.unwrap_model(model), prompts)")
    assert fixed != TRAIN
    assert found(cli, tmp_path, fixed, "accelerate launch --multi_gpu --num_processes 2 train.py") == []
