"""U-ViT's shape of an ml_collections config file (adapters/config_object_mlc.py), frozen copy
(adapters/config_object_casts.py) and per-process batch (adapters/config_object_per_rank.py): sub-configs made by a
``d(**kwargs)`` helper, ``config = ml_collections.FrozenConfigDict(config)`` before the reads, and ``DataLoader(
batch_size=config.train.batch_size // accelerator.num_processes)``. A fixture of our own copying the real shape,
with silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# baofff/U-ViT @ ce551708dc9c (the shape, cut down): train_ldm.py:23-62,219-268 (``config_flags.DEFINE_config_file(
# "config", None, ...)``; ``main(argv)``: ``config = FLAGS.config``, ``config.workdir = ...``, ``train(config)``;
# ``train``: ``accelerator = accelerate.Accelerator()``, ``config = ml_collections.FrozenConfigDict(config)``,
# ``mini_batch_size = config.train.batch_size // accelerator.num_processes``, ``DataLoader(batch_size=
# mini_batch_size)``), utils.py:26-49 (``get_nnet(name, **kwargs)``, ``get_optimizer(params, name, **kwargs)``
# taking the ``adamw`` arm), libs/uvit.py:107-111 (``if self.use_checkpoint: checkpoint(...)``),
# configs/imagenet256_uvit_large.py:1-73 (``def d(**kwargs): return ml_collections.ConfigDict(
# initial_dictionary=kwargs)``; ``config.train = d(batch_size=1024, ...)``; ``config.optimizer = d(name='adamw',
# ...)``; ``config.nnet = d(..., use_checkpoint=True)``).
UVIT = {
    "train_ldm.py": """\
        import ml_collections
        import torch
        from torch.utils.data import DataLoader
        import accelerate
        import utils
        from absl import flags
        from absl import app
        from ml_collections import config_flags


        def train(config):
            accelerator = accelerate.Accelerator()
            config.mixed_precision = accelerator.mixed_precision
            config = ml_collections.FrozenConfigDict(config)
            mini_batch_size = config.train.batch_size // accelerator.num_processes
            loader = DataLoader(list(range(10)), batch_size=mini_batch_size, shuffle=True, num_workers=8)
            nnet = utils.get_nnet(**config.nnet)
            optimizer = utils.get_optimizer(nnet.parameters(), **config.optimizer)
            nnet, optimizer, loader = accelerator.prepare(nnet, optimizer, loader)
            for batch in loader:
                loss = nnet(batch).mean()
                optimizer.zero_grad()
                accelerator.backward(loss)
                optimizer.step()


        FLAGS = flags.FLAGS
        config_flags.DEFINE_config_file("config", None, "Training configuration.", lock_config=False)
        flags.DEFINE_string("workdir", None, "Work unit directory.")


        def main(argv):
            config = FLAGS.config
            config.workdir = FLAGS.workdir or 'workdir'
            train(config)


        if __name__ == "__main__":
            app.run(main)
    """,
    "utils.py": """\
        import torch


        def get_nnet(name, **kwargs):
            if name == 'uvit':
                from uvit import UViT
                return UViT(**kwargs)
            raise NotImplementedError(name)


        def get_optimizer(params, name, **kwargs):
            if name == 'adam':
                from torch.optim import Adam
                return Adam(params, **kwargs)
            elif name == 'adamw':
                from torch.optim import AdamW
                return AdamW(params, **kwargs)
            else:
                raise NotImplementedError(name)
    """,
    "uvit.py": """\
        import torch
        import torch.utils.checkpoint


        class UViT(torch.nn.Module):
            def __init__(self, embed_dim=768, depth=12, use_checkpoint=False):
                super().__init__()
                self.blocks = torch.nn.ModuleList([torch.nn.Linear(embed_dim, embed_dim) for _ in range(depth)])
                self.use_checkpoint = use_checkpoint

            def forward(self, x):
                for blk in self.blocks:
                    if self.use_checkpoint:
                        x = torch.utils.checkpoint.checkpoint(blk, x)
                    else:
                        x = blk(x)
                return x
    """,
    "configs/uvit_large.py": """\
        import ml_collections


        def d(**kwargs):
            \"\"\"Helper of creating a config dict.\"\"\"
            return ml_collections.ConfigDict(initial_dictionary=kwargs)


        def get_config():
            config = ml_collections.ConfigDict()

            config.seed = 1234
            config.train = d(
                n_steps=300000,
                batch_size=1024,
                mode='cond',
            )

            config.optimizer = d(
                name='adamw',
                lr=0.0002,
                betas=(0.99, 0.99),
            )

            config.nnet = d(
                name='uvit',
                embed_dim=1024,
                depth=20,
                use_checkpoint=True
            )
            return config
    """,
}
LINE = ["--", "accelerate", "launch", "--multi_gpu", "--num_processes", "8", "--mixed_precision", "fp16",
        "train_ldm.py", "--config=configs/uvit_large.py"]
CONF = "configs/uvit_large.py"


def _at(plan: dict, field: str):
    got = ours(plan, field)
    return None if got is None else (got.value, got.source.path, got.source.line)


def test_uvit_helper_made_subconfigs_reach_the_job(cli, tmp_path):
    write(tmp_path, UVIT)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert _at(plan, "optimizer.name") == ("AdamW", CONF, 20)
    assert _at(plan, "memory.gradient_checkpointing") == (True, CONF, 29)
    assert _at(plan, "batch.micro") == (128, CONF, 15)
    assert ours(plan, "batch.micro").confidence == "medium"


def test_subconfig_from_a_literal_dict_and_a_ctor_with_a_dict(cli, tmp_path):
    """``config.optimizer = {'name': 'adamw'}`` and ``config.train = ml_collections.ConfigDict(dict(batch_size=
    1024))``: a dict set on a ConfigDict is a sub-config of its keys."""
    files = dict(UVIT)
    files[CONF] = """\
        import ml_collections


        def get_config():
            config = ml_collections.ConfigDict()
            config.train = ml_collections.ConfigDict(dict(
                n_steps=300000,
                batch_size=1024,
            ))
            config.optimizer = {
                'name': 'adamw',
                'lr': 0.0002,
            }
            config.nnet = ml_collections.ConfigDict(initial_dictionary={'name': 'uvit', 'use_checkpoint': True})
            return config
    """
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert _at(plan, "optimizer.name") == ("AdamW", CONF, 10)
    assert _at(plan, "batch.micro") == (128, CONF, 8)
    assert _at(plan, "memory.gradient_checkpointing") == (True, CONF, 14)


def test_helper_value_that_is_no_literal_stays_unknown(cli, tmp_path):
    """Twin: ``d(batch_size=int('1024'))``: that key is unknown (the others are read)."""
    files = dict(UVIT)
    files[CONF] = files[CONF].replace("batch_size=1024,", "batch_size=int('1024'),")
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert _at(plan, "optimizer.name") == ("AdamW", CONF, 20)


def test_helper_that_changes_its_keywords_is_not_followed(cli, tmp_path):
    """Twin: a ``d(**kwargs)`` that adds a key before returning is no plain helper: the file is not read."""
    files = dict(UVIT)
    files[CONF] = files[CONF].replace("    return ml_collections.ConfigDict(initial_dictionary=kwargs)",
                                      "    kwargs['extra'] = 1\n    return ml_collections.ConfigDict(kwargs)")
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None
    assert ours(plan, "batch.micro") is None


def test_config_rebound_to_a_project_function_is_not_followed(cli, tmp_path):
    """Twin: ``config = utils.finalize(config)`` (not a copy of the same keys): what it returns is not read."""
    files = dict(UVIT)
    files["train_ldm.py"] = files["train_ldm.py"].replace("ml_collections.FrozenConfigDict(config)",
                                                          "utils.finalize(config)")
    files["utils.py"] += "\n\ndef finalize(config):\n    return config\n"
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None
    assert ours(plan, "batch.micro") is None


def test_batch_divided_by_a_config_key_is_not_a_per_process_batch(cli, tmp_path):
    """Twin: ``config.train.batch_size // config.n_gpus`` divides by what the config holds, not the process
    count: no per-process batch is claimed."""
    files = dict(UVIT)
    files["train_ldm.py"] = files["train_ldm.py"].replace("// accelerator.num_processes", "// config.n_gpus")
    files[CONF] = files[CONF].replace("config.seed = 1234", "config.seed = 1234\n    config.n_gpus = 4")
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_batch_the_process_count_does_not_divide_is_not_claimed(cli, tmp_path):
    """Twin: 1024 over ``--num_processes 3``: the script's own assert would stop it; nothing is claimed."""
    write(tmp_path, UVIT)
    line = ["3" if t == "8" else t for t in LINE]
    plan = plan_of(cli, "train_ldm.py", *line, cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert _at(plan, "optimizer.name") == ("AdamW", CONF, 20)


def test_plain_local_of_the_builder_is_read(cli, tmp_path):
    """``_batch = 1024`` bound once in ``get_config()``, then ``d(batch_size=_batch)`` (a shape of the U-ViT family,
    found by ``find_string`` ``ConfigDict(initial_dictionary=kwargs)``): the key holds the literal."""
    files = dict(UVIT)
    files[CONF] = files[CONF].replace("config.seed = 1234", "_batch = 1024\n            config.seed = 1234")
    files[CONF] = files[CONF].replace("batch_size=1024,", "batch_size=_batch,")
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert _at(plan, "batch.micro") == (128, CONF, 16)


def test_plain_local_bound_twice_leaves_the_file_unread(cli, tmp_path):
    """Twin: ``_batch = 1024`` then ``_batch = 512``: which one a key took is not followed; nothing is claimed."""
    files = dict(UVIT)
    files[CONF] = files[CONF].replace(
        "config.seed = 1234", "_batch = 1024\n            _batch = 512\n            config.seed = 1234")
    files[CONF] = files[CONF].replace("batch_size=1024,", "batch_size=_batch,")
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "optimizer.name") is None
    assert any("get_config() is not a builder of literal keys" in n for n in plan["notes"])
