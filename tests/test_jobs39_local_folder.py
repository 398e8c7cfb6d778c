"""The model in real jobs (issue 15, branch jobs39): a local copy of a Hub model handed to the trainer, its
folder named after the repository it was downloaded from, through an option documented as the model
(``--pretrain``) or a Hydra ``<role>.model.path`` key. Small projects of our own in the shapes of the
real-jobs benchmark, each citing the repository, path and commit it follows, with twins that must state
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, write
from preflight.adapters.model_local_folder import catalog_download, help_model_option

# OpenRLHF's Ray PPO driver (TideDra/lmm-r1 @ f917f18 openrlhf/cli/train_ppo_ray.py:374-376: ``--pretrain``
# "HF model name or path", ``--reward_pretrain`` and ``--critic_pretrain`` with the same help) launched by a
# script that sets the folder in a variable (examples/scripts/lmm_r1/train_direct_rl_geo.sh:9,82;
# RUCAIBox/R1-Searcher @ 631167c scripts/qwen_reinforce_plus_train.sh:19,52).
DRIVER = """\
    import argparse

    import torch

    p = argparse.ArgumentParser()
    p.add_argument("--pretrain", type=str, default=None, help="HF model name or path")
    p.add_argument("--reward_pretrain", type=str, default=None, help="HF model name or path")
    p.add_argument("--critic_pretrain", type=str, default=None, help="HF model name or path")
    p.add_argument("--micro_train_batch_size", type=int, default=1, help="batch size per GPU")
    args = p.parse_args()
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters())
"""

LAUNCH = """\
    #!/bin/bash
    MODEL_PATH={path}
    python train_ppo_ray.py \\
       --pretrain ${MODEL_PATH} \\
       --micro_train_batch_size 2{extra}
"""


def _ppo(cli, tmp_path: Path, path: str, extra: str = "") -> dict:
    write(tmp_path, {"train_ppo_ray.py": DRIVER, "run.sh": LAUNCH.replace("{path}", path).replace("{extra}", extra)})
    return plan_of(cli, "run.sh", cwd=tmp_path)


@pytest.mark.parametrize("path, hub", [
    ("/opt/aps/workdir/model/Qwen2.5-7B", "Qwen/Qwen2.5-7B"),
    ("./models/Qwen2.5-VL-3B-Instruct", "Qwen/Qwen2.5-VL-3B-Instruct"),
    ("~/ckpts/meta-llama-3-8b", "meta-llama/Meta-Llama-3-8B"),
])
def test_a_local_download_of_a_catalog_model_through_pretrain_is_that_model(cli, tmp_path: Path, path: str,
                                                                            hub: str) -> None:
    got = fact(_ppo(cli, tmp_path, path), "model.ref")
    assert got is not None and got.value == hub
    assert got.confidence == "low"  # a folder's name, not its config
    assert got.source.key == "--pretrain" and path in got.source.detail


@pytest.mark.parametrize("path", [
    "/opt/models/Qwen2.5-7B-sft",   # someone's fine-tune: the shape is not known from the name
    "./checkpoints/checkpoint-500",  # names nothing in the catalog
    "/opt/models/${SIZE}",           # not known statically
])
def test_a_local_folder_named_like_no_catalog_model_states_nothing(cli, tmp_path: Path, path: str) -> None:
    assert fact(_ppo(cli, tmp_path, path), "model.ref") is None


def test_a_folder_beside_the_job_is_its_own_checkpoint_not_a_download(cli, tmp_path: Path) -> None:
    (tmp_path / "models" / "Qwen2.5-7B").mkdir(parents=True)
    assert fact(_ppo(cli, tmp_path, "./models/Qwen2.5-7B"), "model.ref") is None


def test_the_reward_model_option_is_not_the_trained_model(cli, tmp_path: Path) -> None:
    # only --reward_pretrain is given a Hub id: the documented-as-model option of another role states nothing
    write(tmp_path, {"train_ppo_ray.py": DRIVER,
                     "run.sh": "python train_ppo_ray.py --reward_pretrain Qwen/Qwen2.5-7B --micro_train_batch_size 2\n"})
    assert fact(plan_of(cli, "run.sh", cwd=tmp_path), "model.ref") is None


def test_two_documented_model_options_given_state_nothing() -> None:
    class Opt:
        def __init__(self, help: str) -> None:
            self.help = help

    options = {"pretrain": Opt("HF model name or path"), "init_from": Opt("pretrained model name or path"),
               "lr": Opt("learning rate"), "resume": Opt("model path of a checkpoint to resume from")}
    assert help_model_option(options, ["pretrain", "lr"]) == "pretrain"
    assert help_model_option(options, ["pretrain", "resume"]) == "pretrain"  # a checkpoint is not the model
    assert help_model_option(options, ["resume"]) is None
    assert help_model_option(options, ["pretrain", "init_from"]) is None
    assert help_model_option(options, ["lr"]) is None


def test_catalog_download_reads_only_the_last_folder_exactly() -> None:
    assert catalog_download("/data/Qwen2.5-7B/") == "Qwen/Qwen2.5-7B"
    assert catalog_download("qwen2.5-7b") == "Qwen/Qwen2.5-7B"  # case-insensitive, as the catalog is
    assert catalog_download("/data/Qwen2.5") is None
    assert catalog_download("https://example.com/Qwen2.5-7B") is None
    assert catalog_download(None) is None


# verl's trainer given the folder as a Hydra override (cmu-l3/l1 @ 93dd330 scripts/train/run_l1_exact.sh:35
# ``actor_rollout_ref.model.path=$MODEL_PATH``; PeterGriffinJin/Search-R1 @ a14dc3a train_ppo.sh:42)
APP = """\
    import hydra
    import torch


    @hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
    def main(config):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())


    if __name__ == "__main__":
        main()
"""

PPO_YAML = """\
    actor_rollout_ref:
      model:
        path: ~/models/deepseek-llm-7b-chat
      actor:
        strategy: fsdp
    critic:
      model:
        path: {critic}
"""


@pytest.mark.parametrize("folder, critic, hub", [
    ("/data/Qwen2.5-7B-Instruct", "${actor_rollout_ref.model.path}", "Qwen/Qwen2.5-7B-Instruct"),
    ("/data/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct"),
    ("/data/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-0.5B", None),  # two models: which one trains is not decided
    ("/data/my-policy-v3", "${actor_rollout_ref.model.path}", None),
])
def test_a_hydra_model_path_that_is_a_local_download(cli, tmp_path: Path, folder: str, critic: str,
                                                     hub: str | None) -> None:
    write(tmp_path, {"main_ppo.py": APP, "config/ppo_trainer.yaml": PPO_YAML.replace("{critic}", critic)})
    plan = plan_of(cli, "main_ppo.py", "--", f"actor_rollout_ref.model.path={folder}", cwd=tmp_path)
    got = fact(plan, "model.ref")
    if hub is None:
        assert got is None
    else:
        assert got is not None and got.value == hub


# a project's own config file naming the model by a key (PrimeIntellect-ai/prime-rl @ 559b447
# examples/basic/reverse-text/sft.toml:5-6 ``[model] name``), given a local download instead of the Hub id
SFT = """\
    def main(config):
        model = setup_model(config.model)
        for batch in config.data:
            model(batch).backward()
"""


@pytest.mark.parametrize("name, hub", [
    ("/mnt/hf/Qwen3-0.6B", "Qwen/Qwen3-0.6B"),
    ("/mnt/hf/qwen3-0.6b-reverse-sft", None),  # a fine-tune of unknown shape
])
def test_a_config_key_naming_a_local_download(cli, tmp_path: Path, name: str, hub: str | None) -> None:
    write(tmp_path, {"train.py": SFT, "sft.toml": f'[model]\nname = "{name}"\n\n[data]\nseq_len = 4096\n'})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node", "2", "train.py", "@", "sft.toml",
                   cwd=tmp_path)
    got = fact(plan, "model.ref")
    if hub is None:
        assert got is None
    else:
        assert got is not None and (got.value, got.confidence, got.source.line) == (hub, "low", 2)
        assert name in got.source.detail


def test_a_documented_model_option_given_a_list_of_files_states_nothing(cli, tmp_path: Path) -> None:
    # modelscope/DiffSynth-Studio @ the benchmark's commit diffsynth/diffusion/parsers.py:27
    # ``--model_id_with_origin_paths`` "Model ID with origin paths ... Comma-separated"
    driver = DRIVER.replace('"--pretrain", type=str, default=None, help="HF model name or path"',
                            '"--model_id_with_origin_paths", type=str, default=None, help="Model ID with origin '
                            'paths, e.g., Org/Video-1B:model*.safetensors. Comma-separated."')
    write(tmp_path, {"train.py": driver, "run.sh": "python train.py --model_id_with_origin_paths "
                     "\"/data/Qwen2.5-7B:model*.safetensors,/data/Qwen2.5-7B:vae.pth\"\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "model.ref") is None
    assert not any("is a local path" in n for n in plan["notes"])


def test_a_model_option_given_a_constructor_string_runs(cli, tmp_path: Path) -> None:
    # naver/dust3r @ the benchmark's commit: --model "AsymmetricCroCo3DStereo(pos_embed='RoPE100', ...)", a string
    # longer than a file name may be; reading it as a folder must not stop the cliargs reader
    driver = DRIVER.replace('"--pretrain", type=str, default=None, help="HF model name or path"',
                            '"--model", type=str, default=None')
    long = "Net(" + ", ".join(f"arg_{i}=({i}, 'xy')" for i in range(40)) + ")"
    write(tmp_path, {"train.py": driver, "run.sh": f"python train.py --model \"{long}\" --micro_train_batch_size 2\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 2  # the same reader's other facts are there
    assert fact(plan, "model.ref") is None
    assert not any("internal error" in n for n in plan["notes"])


def test_catalog_download_reads_a_modelscope_folder_name() -> None:
    # ModelScope's snapshot_download stores a dotted model name with ``___`` for each dot
    # (taishan1994/Llama3.1-Finetuning @ c02a6d6e ``../model_hub/LLM-Research/Meta-Llama-3___1-8B-Instruct/``)
    assert catalog_download("../model_hub/LLM-Research/Meta-Llama-3___1-8B-Instruct/") == \
        "meta-llama/Meta-Llama-3.1-8B-Instruct"
    assert catalog_download("/root/.cache/modelscope/hub/qwen/Qwen2___5-7B-Instruct") == "Qwen/Qwen2.5-7B-Instruct"
    assert catalog_download("/data/Meta-Llama-3___9-8B-Instruct") is None  # no such catalog model
    assert catalog_download("/data/Qwen2__5-7B-Instruct") is None  # two underscores: not ModelScope's mark
