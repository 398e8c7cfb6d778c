"""A trainer class's ``self.config`` read as the job's YAML (adapters/config_key_batch.py ``_self_config``), and
``grad_accum_steps`` named like an accumulation count (adapters/config_key_families.py): Stability-AI/StableCascade
@ 7a7d341 ``train/base.py:117`` ``real_batch_size = self.config.batch_size // (self.world_size *
self.config.grad_accum_steps)`` with ``configs/training/finetune_c_3b_lora.yaml:13,16`` ``batch_size: 32``,
``grad_accum_steps: 4``. Twins: ``self.model.batch_size`` (not the config object) and a use with no process count
stay unknown."""

from __future__ import annotations

from preflight.adapters.config_key_batch import plain_batch_use

BASE = """\
from torch.utils.data import DataLoader


class DataCore:
    def setup_data(self, dataset):
        real_batch_size = {expr}
        return DataLoader(dataset, batch_size=real_batch_size, num_workers=8)
"""


def test_self_config_divided_by_the_world_is_the_global_batch():
    text = BASE.format(expr="self.config.batch_size // (self.world_size * self.config.grad_accum_steps)")
    got = plain_batch_use([("train/base.py", text)], "batch_size", None)
    assert got is not None and got[0] == "batch.global" and got[1].startswith("train/base.py:")


def test_twin_another_attribute_is_not_the_config():
    text = BASE.format(expr="self.model.batch_size // (self.world_size * self.config.grad_accum_steps)")
    assert plain_batch_use([("train/base.py", text)], "batch_size", None) is None


def test_twin_no_process_count_says_nothing():
    text = BASE.format(expr="self.config.batch_size // self.config.grad_accum_steps")
    assert plain_batch_use([("train/base.py", text)], "batch_size", None) is None
