"""A Hydra ``trainer:`` node naming the project's own subclass of the Lightning ``Trainer``
(``adapters/hydra_local_trainer.py``).

ai4co/rl4co @ 7a15396 ``configs/trainer/default.yaml`` (``_target_: rl4co.utils.trainer.RL4COTrainer``,
``precision: "16-mixed"``) and ``rl4co/utils/trainer.py:19-115`` (``class RL4COTrainer(Trainer)``, whose
``__init__`` hands ``precision=precision`` on unchanged, rewrites ``strategy`` to a ``DDPStrategy`` when several
GPUs are visible, and passes ``**kwargs`` to ``super().__init__``). The fixture is our own small rewrite of that
shape; the twins set a key in the class, rebind it, or subclass something that is not Lightning's Trainer."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "src/train.py": """\
        import hydra
        from lightning import LightningModule

        from pkg.trainer import MyTrainer


        @hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
        def main(cfg):
            model: LightningModule = hydra.utils.instantiate(cfg.model)
            trainer: MyTrainer = hydra.utils.instantiate(cfg.trainer, callbacks=[], logger=[])
            trainer.fit(model=model)


        if __name__ == "__main__":
            main()
    """,
    "src/pkg/__init__.py": "",
    "src/pkg/trainer.py": """\
        from lightning import Trainer
        from lightning.pytorch.strategies import DDPStrategy


        class MyTrainer(Trainer):
            def __init__(self, accelerator="auto", strategy="auto", devices="auto", precision="16-mixed",
                         gradient_clip_val=1.0, **kwargs):
                if strategy == "auto" and devices != 1:
                    strategy = DDPStrategy(find_unused_parameters=True)
                super().__init__(accelerator=accelerator, strategy=strategy, devices=devices,
                                 precision=precision, gradient_clip_val=gradient_clip_val, **kwargs)
    """,
    "configs/train.yaml": """\
        defaults:
          - _self_
          - trainer: default
        model:
          _target_: torch.nn.Linear
          in_features: 4
          out_features: 4
    """,
    "configs/trainer/default.yaml": """\
        _target_: pkg.trainer.MyTrainer
        accelerator: auto
        precision: bf16-mixed
        strategy: auto
        max_epochs: 3
    """,
}


def _got(cli, tmp_path, files):
    write(tmp_path, files)
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    return {f: fact(plan, f) for f in ("precision.mode", "dist.nodes", "batch.grad_accum", "dist.sharding")}


def test_keys_the_subclass_hands_on_and_lightning_defaults_for_the_rest(cli, tmp_path):
    got = _got(cli, tmp_path, FILES)
    assert got["precision.mode"] is not None and got["precision.mode"].value == "amp_bf16"
    for field in ("dist.nodes", "batch.grad_accum"):
        assert got[field] is not None and got[field].value == 1 and got[field].confidence == "medium", field
    # the class rewrites strategy: neither the node's "auto" nor Lightning's default is read
    assert got["dist.sharding"] is None


def test_twin_a_key_the_subclass_sets_itself_takes_no_lightning_default(cli, tmp_path):
    files = dict(FILES)
    files["src/pkg/trainer.py"] = files["src/pkg/trainer.py"].replace(
        "gradient_clip_val=gradient_clip_val, **kwargs)",
        "gradient_clip_val=gradient_clip_val, accumulate_grad_batches=4, **kwargs)")
    got = _got(cli, tmp_path, files)
    assert got["batch.grad_accum"] is None or got["batch.grad_accum"].value != 1
    assert got["dist.nodes"] is not None and got["dist.nodes"].value == 1


def test_twin_a_rebound_precision_is_not_the_nodes(cli, tmp_path):
    files = dict(FILES)
    files["src/pkg/trainer.py"] = files["src/pkg/trainer.py"].replace(
        "        if strategy ==", "        precision = \"32-true\" if accelerator == \"cpu\" else precision\n"
        "                if strategy ==")
    got = _got(cli, tmp_path, files)
    assert got["precision.mode"] is None


def test_twin_a_class_that_is_no_lightning_trainer_is_not_read(cli, tmp_path):
    files = dict(FILES)
    files["src/pkg/trainer.py"] = files["src/pkg/trainer.py"].replace(
        "from lightning import Trainer", "from transformers import Trainer")
    got = _got(cli, tmp_path, files)
    assert got["precision.mode"] is None and got["dist.nodes"] is None and got["batch.grad_accum"] is None


def test_a_subclass_that_hands_everything_on(cli, tmp_path):
    files = dict(FILES)
    files["src/pkg/trainer.py"] = """\
        import lightning.pytorch as pl


        class MyTrainer(pl.Trainer):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)

            def export_csv_log(self):
                return None
    """
    files["configs/trainer/default.yaml"] = files["configs/trainer/default.yaml"].replace(
        "strategy: auto", "strategy: auto\n        devices: 2\n        accumulate_grad_batches: 2")
    got = _got(cli, tmp_path, files)
    assert got["precision.mode"].value == "amp_bf16" and got["batch.grad_accum"].value == 2
    assert got["dist.nodes"].value == 1
