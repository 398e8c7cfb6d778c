"""PF516 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF516_BAD = [
    textwrap.dedent("""
    # --- train.py
    import hydra

    trainer = hydra.utils.instantiate(cfg.trainer)
    # --- config.yaml
    trainer:
      _target_: lightning.Trainer
      devices: 4
      strategy: ddp
      use_distributed_sampler: false  # error: PF516
"""),
]

PF516_GOOD = [
    textwrap.dedent("""
    # --- train.py
    import hydra

    trainer = hydra.utils.instantiate(cfg.trainer)
    # --- config.yaml
    trainer:
      _target_: lightning.Trainer
      devices: 4
      strategy: ddp
"""),
    textwrap.dedent("""
    # --- train.py
    import hydra
    from torch.utils.data.distributed import DistributedSampler

    trainer = hydra.utils.instantiate(cfg.trainer)
    sampler = DistributedSampler(dataset)
    # --- config.yaml
    trainer:
      _target_: lightning.Trainer
      devices: 4
      strategy: ddp
      use_distributed_sampler: false
"""),
    # NeMo's Megatron models build rank-aware data samplers themselves and its configs switch
    # Lightning's off (the shape of NeMo's megatron_gpt_config.yaml trainer section, seen in
    # public configs found by searching for `use_distributed_sampler: false`)
    """
# --- megatron_gpt_pretraining.py
from nemo.collections.nlp.models.language_modeling.megatron_gpt_model import MegatronGPTModel
from nemo.collections.nlp.parts.megatron_trainer_builder import MegatronTrainerBuilder
from nemo.core.config import hydra_runner


@hydra_runner(config_path="conf", config_name="megatron_gpt_config")
def main(cfg):
    trainer = MegatronTrainerBuilder(cfg).create_trainer()
    trainer.fit(MegatronGPTModel(cfg.model, trainer))
# --- conf/megatron_gpt_config.yaml
trainer:
  devices: 8
  accelerator: gpu
  precision: bf16
  use_distributed_sampler: False
model:
  micro_batch_size: 4
  global_batch_size: 256
""",
]
