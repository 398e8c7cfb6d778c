"""jobs124: DeepSpeed's own accumulation steps when its JSON gives ``train_batch_size`` and
``train_micro_batch_size_per_gpu`` but no ``gradient_accumulation_steps`` (adapters/derive.py
``_ds_accum_from_batches``). Shape of firechecking/CleanTransformer (a fixture of our own):
``scripts/ft_bloom_deepspeed.sh`` ``torchrun --nproc_per_node 4 examples/ft_bloom_deepspeed.py --ds_config
scripts/ds_config_example.json``; the JSON says 32 and 8; the script's own DataLoader batches and
``deepspeed.initialize(config_params=..., model=..., model_parameters=...)`` steps the optimizer."""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse
    import deepspeed
    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--ds_config", type=str)
    parser.add_argument("--batch_size", type=int, default=8)
    args = parser.parse_args()

    model = torch.nn.Linear(4, 4)
    loader = DataLoader(list(range(64)), batch_size=args.batch_size)
    engine, optimizer, _, _ = deepspeed.initialize(config_params=args.ds_config, model=model,
                                                   model_parameters=model.parameters())
    for batch in loader:
        loss = engine(batch).sum()
        engine.backward(loss)
        engine.step()
"""


def _plan(cli, tmp_path, ds, nproc="4"):
    write(tmp_path, {"train.py": TRAIN})
    (tmp_path / "ds.json").write_text(json.dumps(ds), encoding="utf-8")
    return plan_of(cli, "--", "torchrun", "--nproc_per_node", nproc, "train.py", "--ds_config", "ds.json",
                   "--batch_size", "8", cwd=tmp_path)


def test_accumulation_is_deepspeeds_quotient(cli, tmp_path):
    plan = _plan(cli, tmp_path, {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 8})
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and (accum.value, accum.confidence, accum.adapter) == (2, "medium", "derive")
    assert "64 / (8 x 4)" in accum.source.detail


def test_a_quotient_that_does_not_divide_stays_unknown(cli, tmp_path):
    plan = _plan(cli, tmp_path, {"train_batch_size": 60, "train_micro_batch_size_per_gpu": 8})
    assert fact(plan, "batch.grad_accum") is None


def test_auto_batch_sizes_stay_unknown(cli, tmp_path):
    plan = _plan(cli, tmp_path, {"train_batch_size": "auto", "train_micro_batch_size_per_gpu": 8})
    assert fact(plan, "batch.grad_accum") is None


def test_the_jsons_own_steps_win(cli, tmp_path):
    plan = _plan(cli, tmp_path, {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 8,
                                 "gradient_accumulation_steps": 2})
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 2 and accum.adapter == "deepspeed"
