"""A DeepSpeed config that is a Hydra section, converted to a dict and updated by the script before
``deepspeed.initialize(config=...)``: the script's writes decide the batch keys (bigohofone/
assignment1-basics-solution cs336_basics/solutions/_train_model.py:42-63 @ the set-49 commit: the
section's ``train_batch_size: 'auto'`` is replaced by ``ds_config.update({"train_batch_size":
global_bsz, ...})``)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
    import deepspeed
    import hydra
    from omegaconf import DictConfig, OmegaConf

    from mypkg.model import TransformerLM


    @hydra.main(version_base=None, config_path="configs", config_name="config")
    def main(config: DictConfig):
        rank, wsz = setup_dist(config)
        global_bsz = config.training.batch_size
        local_bsz = global_bsz // wsz
        model = TransformerLM(d_model=512)
        ds_config = OmegaConf.to_container(config.deepspeed, resolve=True)
        ds_config.update({
            "train_batch_size": global_bsz,
            "train_micro_batch_size_per_gpu": local_bsz,
            "gradient_accumulation_steps": 1,
        })
        model_engine, optimizer, _, _ = deepspeed.initialize(model=model, config=ds_config)


    if __name__ == "__main__":
        main()
"""

CONFIG = """\
    defaults:
      - training: default
      - deepspeed: stage2
      - _self_
"""

TRAINING = """\
    batch_size: 32
    lr: 1e-3
"""

STAGE2 = """\
    train_batch_size: 'auto'
    train_micro_batch_size_per_gpu: 'auto'
    gradient_accumulation_steps: 'auto'
    zero_optimization:
      stage: 2
"""


def _files(script: str = SCRIPT) -> dict[str, str]:
    return {"train.py": script, "configs/config.yaml": CONFIG, "configs/training/default.yaml": TRAINING,
            "configs/deepspeed/stage2.yaml": STAGE2}


def test_script_update_of_the_handed_section_gives_the_batch(cli, tmp_path: Path) -> None:
    write(tmp_path, _files())
    plan = plan_of(cli, "--", "deepspeed", "--num_gpus=8", "train.py", "training.batch_size=64", cwd=tmp_path)
    assert winner(plan, "batch.global") == 64
    assert winner(plan, "batch.grad_accum") == 1
    assert winner(plan, "dist.sharding") == "zero2"
    # local_bsz = global_bsz // wsz is not read; the micro-batch is the quotient 64 / (8 x 1)
    assert winner(plan, "batch.micro") == 8
    assert fact(plan, "batch.micro").adapter == "derive"
    # the global batch is cited from the section's file, with no YAML line (the script set it)
    assert fact(plan, "batch.global").source.path == "configs/deepspeed/stage2.yaml"
    assert fact(plan, "batch.global").source.line is None
    assert any("train.py:15: the script sets train_batch_size" in n and ": 64" in n for n in plan["notes"])
    assert any("train_micro_batch_size_per_gpu" in n and "not known statically" in n for n in plan["notes"])


def test_item_assignment_is_read_like_update(cli, tmp_path: Path) -> None:
    script = SCRIPT.replace("""        ds_config.update({
            "train_batch_size": global_bsz,
            "train_micro_batch_size_per_gpu": local_bsz,
            "gradient_accumulation_steps": 1,
        })
""", """        ds_config["train_micro_batch_size_per_gpu"] = config.training.batch_size
        ds_config["gradient_accumulation_steps"] = 4
""")
    write(tmp_path, _files(script))
    plan = plan_of(cli, "--", "deepspeed", "--num_gpus=2", "train.py", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32
    assert winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "batch.global") == 256


def test_update_under_a_branch_is_present_but_unknown(cli, tmp_path: Path) -> None:
    # a write under an if: the key is not 'auto' any more, but its value is not decided statically
    script = SCRIPT.replace("""        ds_config.update({""", """        if config.training.lr > 0:
            ds_config.update({""").replace("""            "train_batch_size": global_bsz,
            "train_micro_batch_size_per_gpu": local_bsz,
            "gradient_accumulation_steps": 1,
        })""", """                "train_batch_size": global_bsz,
                "train_micro_batch_size_per_gpu": local_bsz,
                "gradient_accumulation_steps": 1,
            })""")
    write(tmp_path, _files(script))
    plan = plan_of(cli, "--", "deepspeed", "--num_gpus=8", "train.py", "training.batch_size=64", cwd=tmp_path)
    for field in ("batch.global", "batch.micro", "batch.grad_accum"):
        assert not any(f["adapter"] == "deepspeed" for f in plan["fields"].get(field, [])), field


def test_update_of_another_dict_leaves_the_auto_keys_unknown(cli, tmp_path: Path) -> None:
    # the script updates a different dict: the section's 'auto' values stay unknown, nothing is invented
    write(tmp_path, _files(SCRIPT.replace("ds_config.update({", "other = {}\n        other.update({")))
    plan = plan_of(cli, "--", "deepspeed", "--num_gpus=8", "train.py", "training.batch_size=64", cwd=tmp_path)
    assert winner(plan, "batch.global") is None
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "dist.sharding") == "zero2"
