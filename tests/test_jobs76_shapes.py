"""Set 36's misses (branch jobs76): fixtures of our own copying the real code's shape, each with a
must-read test and silent twins.

- a command substitution with a pipe inside the single-quoted payload of ``srun ... bash -c '...'``:
  ShareGPT4Omni/ShareGPT4Video @ 7e02ee6 ``scripts/train/8b/lora_finetune_153k.sh:21-68`` (``torchrun
  --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE --node_rank $SLURM_NODEID --master_addr $(scontrol show
  hostname $SLURM_NODELIST | head -n1) ... llava/train/train_mem.py ...``); the same payload in the
  ShareGPT4V and LLaVA-NeXT/MinerU training scripts (public code search: ten hits for ``--master_addr
  $(scontrol show hostname``, several with ``ACCELERATE_CPU_AFFINITY=1 torchrun`` inside the payload).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.adapters.shell import read_shell
from preflight.adapters.shell_lex import command_tokens

TRAIN = textwrap.dedent("""\
    import argparse
    import torch
    from transformers import AutoModelForCausalLM

    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="gpt2")
    p.add_argument("--per_device_train_batch_size", type=int, default=1)
    args = p.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=args.per_device_train_batch_size)
    for batch in loader:
        loss = model(batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
""")

SRUN_BASH_C = """\
    #!/bin/bash
    export GPUS_PER_NODE=8
    export NNODES=2
    export BATCH_SIZE=4
    export MASTER_PORT=29508
    SRUN_ARGS=${SRUN_ARGS:-""}
    PYTHONPATH="$(dirname $0)/..":$PYTHONPATH \\
    srun -p mllm \\
        --nodes=$NNODES \\
        --ntasks-per-node=1 \\
        --gres=gpu:$GPUS_PER_NODE \\
        --kill-on-bad-exit=1 \\
        ${SRUN_ARGS} \\
        bash -c 'torchrun --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE --node_rank $SLURM_NODEID --master_addr $(scontrol show hostname $SLURM_NODELIST | head -n1) --master_port ${MASTER_PORT} train.py \\
        --model_name_or_path facebook/opt-350m \\
        --per_device_train_batch_size ${BATCH_SIZE}'
"""


def _job(tmp_path: Path, script: str, name: str = "scripts/run.sh") -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(script))


def _facts(cli, name: str, cwd: Path) -> dict:
    res = cli("audit", name, "--emit-plan", "json", cwd=cwd)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)["fields"]


def test_srun_bash_c_payload_with_a_piped_substitution_is_the_launch(cli, tmp_path):
    _job(tmp_path, SRUN_BASH_C)
    fields = _facts(cli, "scripts/run.sh", tmp_path)
    assert fields["dist.nodes"][0]["value"] == 2
    assert fields["dist.devices_per_node"][0]["value"] == 8
    assert fields["dist.world_size"][0]["value"] == 16
    assert fields["batch.micro"][0]["value"] == 4
    assert fields["model.ref"][0]["value"] == "facebook/opt-350m"


def test_the_substitution_is_one_word_and_its_pipe_does_not_end_the_command():
    tokens = command_tokens("torchrun --nnodes 2 --master_addr $(scontrol show hostname $SLURM_NODELIST | head -n1)"
                            " --master_port 1 train.py --a 1")
    assert tokens == ["torchrun", "--nnodes", "2", "--master_addr",
                      "$(scontrol show hostname $SLURM_NODELIST | head -n1)", "--master_port", "1", "train.py",
                      "--a", "1"]
    back = command_tokens("MASTER=`scontrol show hostnames | head -n 1` torchrun train.py --b 2 | tee log.txt")
    assert back == ["MASTER=`scontrol show hostnames | head -n 1`", "torchrun", "train.py", "--b", "2"]
    nested = command_tokens("python train.py --tag $(date +%s)_$(echo \"a b\" | tr ' ' _) --c 3")
    assert nested == ["python", "train.py", "--tag", "$(date +%s)_$(echo \"a b\" | tr ' ' _)", "--c", "3"]


def test_env_word_inside_the_payload_is_read_too():
    text = SRUN_BASH_C.replace("bash -c 'torchrun", "bash -c 'ACCELERATE_CPU_AFFINITY=1 torchrun")
    tokens = [ln.tokens for ln in read_shell(textwrap.dedent(text), "run.sh").launches]
    assert len(tokens) == 1 and "train.py" in tokens[0]
    assert tokens[0][tokens[0].index("--nnodes") + 1] in ("2", "$NNODES")


def test_twin_payload_that_only_prints_a_host_is_no_launch():
    text = SRUN_BASH_C.replace("bash -c 'torchrun --nnodes", "bash -c 'echo --nnodes")
    lines = read_shell(textwrap.dedent(text), "run.sh").launches
    assert [ln.info.script for ln in lines] in ([], [None])  # srun alone runs no script of the job


def test_twin_pipe_outside_a_substitution_still_ends_the_command():
    assert command_tokens("python train.py --a 1 | tee $(date +%s).log") == ["python", "train.py", "--a", "1"]
    # an unclosed substitution is not a word of its own: the line is cut at the pipe as before
    assert command_tokens("python train.py --a $(hostname | head") == ["python", "train.py", "--a", "$(hostname"]


# LTH14/rcg @ its pinned commit (set 36): main_rdm.py:176 ``loss_scaler = NativeScaler()``, engine_rdm.py:29-50 the
# loop calls ``loss_scaler(loss, optimizer, ...)`` with no autocast around the forward; util/misc.py:255-271 MAE's
# ``NativeScalerWithGradNormCount`` builds ``torch.cuda.amp.GradScaler()``. facebookresearch/mae's own
# engine_pretrain.py:47 wraps the forward in ``torch.cuda.amp.autocast()`` (the twin).
RCG = {
    "main.py": """\
        import torch
        from engine import train_one_epoch
        from util.misc import NativeScalerWithGradNormCount as NativeScaler

        import argparse


        def main(args):
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
            data_loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size)
            loss_scaler = NativeScaler()
            for epoch in range(args.epochs):
                train_one_epoch(model, data_loader, optimizer, loss_scaler)


        if __name__ == '__main__':
            parser = argparse.ArgumentParser()
            parser.add_argument('--batch_size', type=int, default=8)
            parser.add_argument('--lr', type=float, default=1e-4)
            parser.add_argument('--epochs', type=int, default=1)
            main(parser.parse_args())
    """,
    "engine.py": """\
        import torch


        def train_one_epoch(model, data_loader, optimizer, loss_scaler):
            for step, samples in enumerate(data_loader):
                loss = model(samples).mean()
                loss_scaler(loss, optimizer, parameters=model.parameters(), update_grad=True)
    """,
    "util/__init__.py": "",
    "util/misc.py": """\
        import torch


        class NativeScalerWithGradNormCount:
            state_dict_key = "amp_scaler"

            def __init__(self):
                self._scaler = torch.cuda.amp.GradScaler()

            def __call__(self, loss, optimizer, parameters=None, update_grad=True):
                self._scaler.scale(loss).backward()
                if update_grad:
                    self._scaler.unscale_(optimizer)
                    self._scaler.step(optimizer)
                    self._scaler.update()
    """,
}


def _precision_by_absence(cli, tmp_path, files, *argv):
    from plan_helpers import plan_of, write

    from preflight.plan import TrainingPlan

    write(tmp_path, files)
    plan = plan_of(cli, "main.py", *argv, cwd=tmp_path)
    facts = [f for f in TrainingPlan.from_dict(plan).facts("precision.mode") if f.adapter == "visible_code"]
    return facts, plan


def test_a_grad_scaler_without_autocast_is_fp32(cli, tmp_path):
    facts, plan = _precision_by_absence(cli, tmp_path, RCG)
    assert [f.value for f in facts] == ["fp32"]
    assert facts[0].confidence == "medium" and "GradScaler only scales the loss" in (facts[0].source.detail or "")
    from plan_helpers import fact

    assert fact(plan, "precision.mode").value == "fp32"


def test_twin_mae_autocast_around_the_forward_is_not_fp32(cli, tmp_path):
    files = dict(RCG)
    files["engine.py"] = files["engine.py"].replace(
        "            loss = model(samples).mean()",
        "            with torch.cuda.amp.autocast():\n                loss = model(samples).mean()")
    facts, plan = _precision_by_absence(cli, tmp_path, files)
    assert facts == []
    from plan_helpers import fact

    got = fact(plan, "precision.mode")
    assert got is None or got.value != "fp32"


def test_twin_a_half_cast_or_an_fp16_option_keeps_it_unknown(cli, tmp_path):
    files = dict(RCG)
    files["main.py"] = files["main.py"].replace("torch.nn.Linear(4, 4)", "torch.nn.Linear(4, 4).half()")
    facts, _ = _precision_by_absence(cli, tmp_path, files)
    assert facts == []


def test_twin_an_fp16_option_on_the_launch_line_keeps_it_unknown(cli, tmp_path):
    facts, _ = _precision_by_absence(cli, tmp_path, RCG, "--", "--fp16")
    assert facts == []


# microsoft/Graphormer @ ac154fe examples/property_prediction/zinc.sh:5-27, run from that folder (README.md:67-69):
# fairseq's console script with a --user-dir plug-in; the same head in many public scripts (``CUDA_VISIBLE_DEVICES=0
# fairseq-train data-bin/... --max-tokens 4000 --batch-size 32 --update-freq 16 ...``, fairseq's own examples).
GRAPHORMER = {
    "examples/property_prediction/zinc.sh": """\
        # Copyright (c) Microsoft Corporation.
        #!/usr/bin/env bash

        CUDA_VISIBLE_DEVICES=0 fairseq-train \\
        --user-dir ../../graphormer \\
        --num-workers 16 \\
        --ddp-backend=legacy_ddp \\
        --dataset-name zinc \\
        --task graph_prediction \\
        --arch graphormer_slim \\
        --optimizer adam --adam-betas '(0.9, 0.999)' --adam-eps 1e-8 --clip-norm 5.0 --weight-decay 0.01 \\
        --lr 2e-4 --end-learning-rate 1e-9 \\
        --batch-size 64 \\
        --fp16 \\
        --encoder-layers 12 \\
        --max-epoch 10000 \\
        --save-dir ./ckpts
    """,
    "graphormer/__init__.py": "from . import models\n",
    "graphormer/models/__init__.py": "",
    "graphormer/models/graphormer.py": """\
        import torch.nn as nn
        from fairseq.models import FairseqEncoderModel, register_model


        @register_model("graphormer")
        class GraphormerModel(FairseqEncoderModel):
            def __init__(self, args, encoder):
                super().__init__(encoder)
                self.proj = nn.Linear(args.encoder_embed_dim, 1)
    """,
}


def _fairseq_plan(cli, tmp_path, files, script="zinc.sh", cwd="examples/property_prediction"):
    from plan_helpers import plan_of, write

    write(tmp_path, files)
    return plan_of(cli, script, cwd=tmp_path / cwd)


def test_fairseq_train_line_is_the_job(cli, tmp_path):
    from plan_helpers import fact

    plan = _fairseq_plan(cli, tmp_path, GRAPHORMER)
    want = {"dist.world_size": 1, "dist.nodes": 1, "dist.sharding": "none", "batch.micro": 64, "batch.grad_accum": 1,
            "batch.global": 64, "precision.mode": "fp16", "optimizer.name": "adam", "data.num_workers": 16,
            "memory.gradient_checkpointing": False, "compile.enabled": False, "peft.method": "none"}
    for field, value in want.items():
        got = fact(plan, field)
        assert got is not None and got.value == value, field
        assert got.confidence != "high", field  # fairseq's meaning, its version not pinned
    micro = fact(plan, "batch.micro")
    assert micro.source.key == "--batch-size" and micro.source.line == 4 and micro.source.path == "zinc.sh"
    assert any("fairseq-train runs fairseq's own trainer" in n for n in plan["notes"])


def test_fairseq_flags_change_the_reading(cli, tmp_path):
    from plan_helpers import fact

    files = dict(GRAPHORMER)
    files["examples/property_prediction/zinc.sh"] = files["examples/property_prediction/zinc.sh"].replace(
        "CUDA_VISIBLE_DEVICES=0 fairseq-train", "CUDA_VISIBLE_DEVICES=0,1,2,3 fairseq-train").replace(
        "--fp16 \\", "--bf16 --update-freq 4,2 --checkpoint-activations \\").replace("--num-workers 16 \\\n", "")
    plan = _fairseq_plan(cli, tmp_path, files)
    got = {f: fact(plan, f).value for f in ("dist.world_size", "dist.sharding", "batch.grad_accum", "batch.global",
                                              "precision.mode", "memory.gradient_checkpointing", "data.num_workers")}
    assert got == {"dist.world_size": 4, "dist.sharding": "ddp", "batch.grad_accum": 4, "batch.global": 1024,
                   "precision.mode": "bf16", "memory.gradient_checkpointing": True, "data.num_workers": 1}


def test_twin_fairseq_without_visible_devices_or_with_max_tokens_stays_unknown(cli, tmp_path):
    """No CUDA_VISIBLE_DEVICES and no --distributed-world-size: one process per GPU of a machine not known;
    --max-tokens beside --batch-size: the batch is bounded by tokens too; a --user-dir that checkpoints
    itself: checkpointing not known."""
    from plan_helpers import fact

    files = dict(GRAPHORMER)
    files["examples/property_prediction/zinc.sh"] = files["examples/property_prediction/zinc.sh"].replace(
        "CUDA_VISIBLE_DEVICES=0 fairseq-train", "fairseq-train").replace("--batch-size 64", "--batch-size 64 "
                                                                         "--max-tokens 4000")
    files["graphormer/models/graphormer.py"] += ("        from torch.utils.checkpoint import checkpoint\n"
                                                 "        out = checkpoint(nn.Identity(), 1.0)\n")
    plan = _fairseq_plan(cli, tmp_path, files)
    for field in ("dist.world_size", "dist.nodes", "dist.sharding", "batch.micro", "batch.global",
                  "memory.gradient_checkpointing"):
        assert fact(plan, field) is None, field
    assert fact(plan, "precision.mode").value == "fp16"


def test_twin_a_python_script_with_fairseq_like_flags_is_not_read_as_fairseq(cli, tmp_path):
    from plan_helpers import plan_of, write

    from preflight.plan import TrainingPlan

    write(tmp_path, {"train.py": TRAIN, "run.sh": "python train.py --fp16 --batch-size 64 --optimizer adam\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert all(f.adapter != "fairseq_cli" for field in ("precision.mode", "batch.micro", "optimizer.name")
               for f in TrainingPlan.from_dict(plan).facts(field))


# akaxlh/LightGCL @ its pinned commit (set 36): parser.py:3-21 ``def parse_args(): parser = argparse.ArgumentParser(...);
# ...; return parser.parse_args()`` then ``args = parse_args()`` at module level; main.py:7 ``from parser import args``
# and main.py:51 ``DataLoader(train_data, batch_size=args.inter_batch, ...)``.
LIGHTGCL = {
    "parser.py": """\
        import argparse

        def parse_args():
            parser = argparse.ArgumentParser(description='Model Params')
            parser.add_argument('--batch', default=256, type=int, help='batch size')
            parser.add_argument('--inter_batch', default=4096, type=int, help='batch size')
            parser.add_argument('--lr', default=1e-3, type=float)
            return parser.parse_args()
        args = parse_args()
    """,
    "main.py": """\
        import torch
        import torch.utils.data as data
        from parser import args

        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
        train_data = list(range(100))
        train_loader = data.DataLoader(train_data, batch_size=args.inter_batch, shuffle=True, num_workers=0)
        for batch in train_loader:
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """,
}


def _micro(cli, tmp_path, files, *argv):
    from plan_helpers import fact, plan_of, write

    write(tmp_path, files)
    return fact(plan_of(cli, "main.py", *argv, cwd=tmp_path), "batch.micro")


def test_options_imported_from_a_local_parser_module(cli, tmp_path):
    micro = _micro(cli, tmp_path, LIGHTGCL)
    assert micro is not None and micro.value == 4096 and micro.source.path == "main.py" and micro.source.line == 8
    assert "parser.py:6" in (micro.source.detail or "")


def test_options_imported_from_a_local_parser_module_take_the_launch_line(cli, tmp_path):
    micro = _micro(cli, tmp_path, LIGHTGCL, "--", "--inter_batch", "512")
    assert micro is not None and micro.value == 512


def test_twin_an_imported_name_not_bound_to_the_parsed_options_stays_unknown(cli, tmp_path):
    for name, bound in (("twice", "args = parse_args()\nargs = load_yaml()"), ("other", "args = load_config()")):
        files = dict(LIGHTGCL)
        files["parser.py"] = files["parser.py"].replace("args = parse_args()", bound)
        (tmp_path / name).mkdir()
        assert _micro(cli, tmp_path / name, files) is None, name
