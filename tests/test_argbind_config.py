"""argbind: a YAML named by --args.load, its $include chain and the launch line bound to function
parameters (adapters/argbind_config.py). Fixture of our own, rewriting the shape of
descriptinc/descript-audio-codec @ c7cfc5d scripts/train.py:31-32,350-388,432-440
(``AdamW = argbind.bind(torch.optim.AdamW, "generator")``, ``Accelerator = argbind.bind(ml.Accelerator,
without_prefix=True)``, ``@argbind.bind(without_prefix=True) def train(args, accel, batch_size=12,
num_workers=8)`` -> ``accel.prepare_dataloader(..., num_workers=num_workers, batch_size=batch_size)``)
and conf/ablations/baseline.yml (``$include: [conf/base.yml, conf/1gpu.yml]``), with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "scripts/train.py": """\
        import argbind
        import torch
        from audiotools import ml

        AdamW = argbind.bind(torch.optim.AdamW, "generator")
        Accelerator = argbind.bind(ml.Accelerator, without_prefix=True)

        @argbind.bind(without_prefix=True)
        def train(args, accel, batch_size: int = 12, val_batch_size: int = 10, num_workers: int = 8):
            model = torch.nn.Linear(4, 4)
            optimizer = AdamW(model.parameters())
            train_dataloader = accel.prepare_dataloader(range(10), num_workers=num_workers, batch_size=batch_size)
            val_dataloader = accel.prepare_dataloader(range(10), num_workers=num_workers, batch_size=val_batch_size)
            for batch in train_dataloader:
                loss = model(batch).sum()
                loss.backward()
                optimizer.step()

        if __name__ == "__main__":
            args = argbind.parse_args()
            with argbind.scope(args):
                with Accelerator() as accel:
                    train(args, accel)
    """,
    "conf/base.yml": """\
        AdamW.lr: 0.0001
        amp: false
        num_workers: 32
        batch_size: 72
        train/AudioDataset.n_examples: 100
    """,
    "conf/1gpu.yml": """\
        batch_size: 12
        num_workers: 4
    """,
    "conf/baseline.yml": """\
        $include:
          - conf/base.yml
          - conf/1gpu.yml
    """,
}


def test_argbind_yaml_chain_reaches_the_loader(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "--", "python", "scripts/train.py", "--args.load", "conf/baseline.yml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.source.path, micro.source.line) == (12, "conf/1gpu.yml", 1)
    assert fact(plan, "data.num_workers").value == 4
    precision = fact(plan, "precision.mode")
    assert (precision.value, precision.source.path) == ("fp32", "conf/base.yml")
    assert fact(plan, "optimizer.name").value == "AdamW"


def test_launch_line_overrides_the_file(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "--", "python", "scripts/train.py", "--args.load", "conf/baseline.yml",
                   "--batch_size", "6", "--amp", "true", cwd=tmp_path)
    assert (fact(plan, "batch.micro").value, fact(plan, "precision.mode").value) == (6, "amp_fp16")


def test_without_args_load_nothing_is_bound(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "--", "python", "scripts/train.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 72
    assert fact(plan, "precision.mode") is None or fact(plan, "precision.mode").adapter != "argbind"
