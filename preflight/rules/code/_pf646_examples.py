"""PF646 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_SUBMIT = textwrap.dedent("""
    import subprocess


    def _build_shared_overrides(cfg):
        return [
            f"data.train_files={{cfg.data.train_files}}",
            f"data.train_batch_size={{cfg.training.train_batch_size}}",
            f"actor_rollout_ref.model.path={{cfg.model.path}}",
            f"actor_rollout_ref.actor.ppo_mini_batch_size={{cfg.training.ppo_mini_batch_size}}",
            "algorithm.adv_estimator=grpo",
        ]


    def _build_fsdp_overrides(cfg):
        return [
            "actor_rollout_ref.model.use_remove_padding=True",
            "actor_rollout_ref.model.enable_gradient_checkpointing=True",
            {fsdp_line}
            "actor_rollout_ref.rollout.name=vllm",
        ]


    def _build_megatron_overrides(cfg):
        return [
            f"actor_rollout_ref.actor.megatron.tensor_model_parallel_size={{cfg.model.train_tp}}",
            f"actor_rollout_ref.actor.megatron.pipeline_model_parallel_size={{cfg.model.train_pp}}",
            "actor_rollout_ref.actor.megatron.use_dist_checkpointing=False",
        ]


    def main(cfg):
        overrides = _build_shared_overrides(cfg)
        if cfg.backend == "fsdp":
            overrides += _build_fsdp_overrides(cfg)
        else:
            overrides += _build_megatron_overrides(cfg)
        subprocess.run(["python3", "-m", "verl.trainer.main_ppo"] + overrides, check=True)
""")

PF646_BAD = [
    # held-out-30 (awsome-distributed-ai PR 1232): the FSDP list re-emits the mini-batch key with a literal
    _SUBMIT.format(fsdp_line='"actor_rollout_ref.actor.ppo_mini_batch_size=24",  # warning: PF646'),
]

PF646_GOOD = [
    # the fix: the FSDP list leaves the key to the shared overrides
    _SUBMIT.format(fsdp_line='"actor_rollout_ref.actor.fsdp_config.param_offload=False",'),
    # tricky-correct: the same key in the two branches of one if/else (only one list is appended)
    textwrap.dedent('''
    def main(cfg):
        overrides = ["trainer.max_epochs=10", "data.batch_size=32", "model.lr=1e-4"]
        if cfg.fast:
            overrides += ["trainer.precision=16", "trainer.devices=8", "trainer.max_steps=100"]
        else:
            overrides += ["trainer.precision=32", "trainer.devices=4", "trainer.max_steps=1000"]
        return overrides
    '''),
]
