"""verl's main_ppo and the meaning of its Hydra keys for the actor (adapters/verl_ppo.py). Fixture
of our own, rewriting the shape of PeterGriffinJin/Search-R1 (vendored verl 0.1):
verl/trainer/main_ppo.py:101-106 (``@hydra.main(config_path='config', config_name='ppo_trainer')``),
verl/trainer/config/ppo_trainer.yaml (actor ``strategy: fsdp``, ``ppo_mini_batch_size``,
``ppo_micro_batch_size``, ``trainer.n_gpus_per_node``/``nnodes``) and train_ppo.sh's overrides;
with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "verl/__init__.py": "",
    "verl/trainer/__init__.py": "",
    "verl/trainer/main_ppo.py": """\
        import hydra
        import ray


        @hydra.main(config_path='config', config_name='ppo_trainer', version_base=None)
        def main(config):
            ray.init()
            ray.get(main_task.remote(config))


        @ray.remote
        def main_task(config):
            from verl.trainer.ppo.ray_trainer import RayPPOTrainer
            trainer = RayPPOTrainer(config=config)
            trainer.fit()


        if __name__ == '__main__':
            main()
    """,
    "verl/trainer/config/ppo_trainer.yaml": """\
        data:
          train_batch_size: 1024
        actor_rollout_ref:
          model:
            path: ~/models/deepseek-llm-7b-chat
            enable_gradient_checkpointing: False
          actor:
            strategy: fsdp
            ppo_mini_batch_size: 256
            ppo_micro_batch_size: 64
            fsdp_config:
              param_offload: False
          rollout:
            n: 1
        trainer:
          nnodes: 1
          n_gpus_per_node: 8
    """,
}


def _plan(cli, tmp_path, *overrides):
    write(tmp_path, FILES)
    return plan_of(cli, "--", "python3", "-m", "verl.trainer.main_ppo", *overrides, cwd=tmp_path)


def test_verl_keys_give_the_actor_plan(cli, tmp_path):
    plan = _plan(cli, tmp_path, "actor_rollout_ref.model.enable_gradient_checkpointing=true",
                 "trainer.n_gpus_per_node=8", "trainer.nnodes=1")
    assert (fact(plan, "dist.world_size").value, fact(plan, "dist.nodes").value) == (8, 1)
    assert fact(plan, "dist.sharding").value == "fsdp_full"
    assert fact(plan, "precision.mode").value == "amp_bf16"
    # 64 // 8 workers = 8 per worker; 256 // 8 = 32 per worker: 4 micro batches per step
    assert (fact(plan, "batch.micro").value, fact(plan, "batch.grad_accum").value,
            fact(plan, "batch.global").value) == (8, 4, 256)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert (ckpt.value, ckpt.source.kind) == (True, "cli")
    assert fact(plan, "peft.method").value == "none"


def test_rollout_n_and_two_nodes(cli, tmp_path):
    plan = _plan(cli, tmp_path, "trainer.nnodes=2", "actor_rollout_ref.rollout.n=4")
    assert fact(plan, "dist.world_size").value == 16
    # 256 // 16 x 4 = 64 per worker; micro 64 // 16 x 4 = 16
    assert (fact(plan, "batch.micro").value, fact(plan, "batch.grad_accum").value,
            fact(plan, "batch.global").value) == (16, 4, 1024)


def test_not_verl_main_ppo_is_silent(cli, tmp_path):
    # a copy in another package whose trainer is its own (one importing verl's RayPPOTrainer runs
    # verl: tests/test_jobs38_shapes.py)
    files = {k.replace("verl/", "mypkg/"): v.replace("from verl.", "from mypkg.") for k, v in FILES.items()}
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python3", "-m", "mypkg.trainer.main_ppo", cwd=tmp_path)
    assert fact(plan, "batch.micro") is None
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.adapter != "verl_ppo"


def test_offload_false_and_the_workers_adamw(cli, tmp_path):
    plan = _plan(cli, tmp_path, "actor_rollout_ref.actor.fsdp_config.optimizer_offload=False")
    assert fact(plan, "dist.offload_params").value == "none"
    assert fact(plan, "dist.offload_optimizer").value == "none"
    # no optim section in the fixture's actor: the optimizer is not claimed
    assert fact(plan, "optimizer.name") is None
    plan = _plan(cli, tmp_path, "actor_rollout_ref.actor.fsdp_config.param_offload=True",
                 "+actor_rollout_ref.actor.optim.lr=1e-6")
    # True is verl's offload between rollout and update, not a CPU offload of the step: no fact
    assert fact(plan, "dist.offload_params") is None
    assert fact(plan, "optimizer.name").value == "AdamW"


def test_override_of_a_missing_key_still_gives_the_plan(cli, tmp_path):
    # cmu-l3/l1 run_l1_exact.sh: `actor_rollout_ref.rollout.val_temperature=0.6` without `+` on a
    # config that lacks the key; Hydra refuses the line (PF526), the rest still says what the job is
    write(tmp_path, FILES)
    args = ("--", "python3", "-m", "verl.trainer.main_ppo", "trainer.nnodes=2",
            "actor_rollout_ref.rollout.val_temperature=0.6", "actor_rollout_ref.rollout.n_val=4")
    plan = plan_of(cli, *args, cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 16
    assert any("val_temperature" in n and "'++'" in n for n in plan["notes"])
    res = cli("audit", *args, cwd=tmp_path)
    assert "PF526" in res.out and "val_temperature" in res.out


def test_a_missing_key_with_another_failure_gives_no_plan(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "--", "python3", "-m", "verl.trainer.main_ppo", "trainer.nnodes=2",
                   "actor_rollout_ref.rollout.val_temperature=0.6", "trainer=abc", cwd=tmp_path)
    assert fact(plan, "dist.world_size") is None
