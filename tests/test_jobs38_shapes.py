"""Shapes of real jobs from the twenty-third held-out set (in-sample now), each rewritten small
in our own words with the repository, path and commit it comes from, beside a twin that must
stay as it was."""

from __future__ import annotations

import pytest
from plan_helpers import fact, plan_of, winner, write

# NUS-HPC-AI-Lab/OpenDiT@5cbadd03 train.py:125,218,358: CIFAR10 whose transform a project helper
# builds from --image_size (it center-crops to that size): the native 32 px is not what the model sees.
DIT_DATA = """\
    import argparse
    import torch
    from torchvision.datasets import CIFAR10
    {helper_import}

    parser = argparse.ArgumentParser()
    parser.add_argument("--image_size", type=int, default=256)
    args = parser.parse_args()
    {transform_line}
    dataset = CIFAR10("data", transform={transform}, download=True)
    loader = torch.utils.data.DataLoader(dataset, batch_size=4)
    """


@pytest.mark.parametrize("helper_import,transform_line,transform,size", [
    ("from mylib.tf import make_transform", "", "make_transform(args.image_size)", 256),
    ("from mylib.tf import make_transform", "tf = make_transform(args.image_size)", "tf", 256),
    # the twin: torchvision's own transforms, no sizing: the native 32 px stands
    ("import torchvision.transforms as T", "tf = T.Compose([T.ToTensor()])", "tf", 32),
])
def test_a_dataset_transform_built_by_a_project_helper_hides_the_native_size(
        cli, tmp_path, helper_import, transform_line, transform, size):
    write(tmp_path, {"train.py": DIT_DATA.format(helper_import=helper_import, transform_line=transform_line,
                                                 transform=transform),
                     "mylib/__init__.py": "", "mylib/tf.py": "def make_transform(n):\n    return n\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.image_size") == size


# facebookresearch/detectron2@02b5c4e tools/lazyconfig_train_net.py:128-136 with
# detectron2/engine/defaults.py:117-118 and launch.py:27-60: plain python, the script hands its
# main to detectron2's launch, which spawns --num-gpus workers on each of --num-machines machines.
D2_ENTRY = """\
    from {pkg}.engine import default_argument_parser, launch


    def main(args):
        pass


    def invoke_main():
        args = default_argument_parser().parse_args()
        launch(main, args.num_gpus, num_machines=args.num_machines, args=(args,))


    if __name__ == "__main__":
        invoke_main()
    """
D2_ENGINE = """\
    import argparse


    def default_argument_parser():
        parser = argparse.ArgumentParser()
        parser.add_argument("--num-gpus", type=int, default=1, help="number of gpus *per machine*")
        parser.add_argument("--num-machines", type=int, default=1, help="total number of machines")
        return parser


    def launch(main_func, num_gpus_per_machine, num_machines=1, args=()):
        main_func(*args)
    """


@pytest.mark.parametrize("pkg,flags,world,nodes", [
    ("detectron2", ["--num-gpus", "8"], 8, 1),
    ("detectron2", ["--num-gpus", "4", "--num-machines", "2"], 8, 2),
    ("detectron2", ["--num-machines", "1"], 1, 1),  # --num-gpus left to its declared default: one worker
    ("mylauncher", ["--num-gpus", "8"], None, None),  # someone else's launch(): its meaning is not read
])
def test_detectron2_launch_spawns_num_gpus_workers_per_machine(cli, tmp_path, pkg, flags, world, nodes):
    write(tmp_path, {"tools/train_net.py": D2_ENTRY.format(pkg=pkg), f"{pkg}/__init__.py": "",
                     f"{pkg}/engine/__init__.py": D2_ENGINE})
    plan = plan_of(cli, "tools/train_net.py", "--", *flags, cwd=tmp_path)
    assert winner(plan, "dist.world_size") == world
    assert winner(plan, "dist.nodes") == nodes


# TideDra/lmm-r1@f917f18 examples/scripts/lmm_r1/train_direct_rl_geo.sh:55-66: a reward server
# started in the background with `python -m pkg.models.remote_rm.math_verifier`, then the training
# module through `ray job submit -- python -m pkg.cli.train_ppo_ray`. The package's name
# (openrlhf) holds a training word; each module's own name decides which line trains.
RAY_SCRIPT = """\
    #!/bin/bash
    ray start --head --num-gpus 8
    python -m {pkg}.serving.{first} --port 5000 2>&1 | tee -a rm.log &
    ray job submit --address="http://127.0.0.1:8265" \\
       -- python -m {pkg}.cli.{second} --micro_train_batch_size 2 2>&1 | tee -a train.log
    """
TRAIN_MOD = """\
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--micro_train_batch_size", type=int, default=1, help="batch size per GPU")
    args = parser.parse_args()
    """
VERIFIER_MOD = """\
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    """


@pytest.mark.parametrize("pkg,first,second,chosen", [
    ("openrlhf", "math_verifier", "train_ppo_ray", "train_ppo_ray"),
    # the twin: when neither module's own name says training, the first line stays chosen
    ("openrlhf", "math_verifier", "run_ppo_ray", "math_verifier"),
])
def test_a_module_launch_line_is_ranked_by_the_module_name_not_its_package(cli, tmp_path, pkg, first, second,
                                                                           chosen):
    write(tmp_path, {"run.sh": RAY_SCRIPT.format(pkg=pkg, first=first, second=second),
                     f"{pkg}/__init__.py": "", f"{pkg}/serving/__init__.py": "", f"{pkg}/cli/__init__.py": "",
                     f"{pkg}/serving/{first}.py": VERIFIER_MOD, f"{pkg}/cli/{second}.py": TRAIN_MOD})
    res = cli("audit", "run.sh", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert "job from run.sh" in res.out + res.err
    said = next(line for line in (res.out + res.err).splitlines() if "job from run.sh" in line)
    assert f"-m {pkg}.serving.{first}" in said if chosen == first else f"-m {pkg}.cli.{second}" in said


# fundamentalvision/Deformable-DETR@11169a6 tools/run_dist_slurm.sh:12-32 and
# configs/r50_deformable_detr.sh: the srun script takes the command to run as its arguments from
# the fourth on, and that command is another shell script holding `python -u main.py`.
SLURM = """\
    #!/usr/bin/env bash
    PARTITION=$1
    GPUS=$2
    RUN_COMMAND=${@:3}
    GPUS_PER_NODE=${GPUS_PER_NODE:-8}
    srun -p ${PARTITION} --gres=gpu:${GPUS_PER_NODE} --ntasks=${GPUS} \\
        --ntasks-per-node=${GPUS_PER_NODE} ${RUN_COMMAND}
    """
INNER = """\
    #!/usr/bin/env bash
    PY_ARGS=${@:1}
    python -u main.py --output_dir exps/r50 ${PY_ARGS}
    """
MAIN = """\
    import argparse
    import torch
    parser = argparse.ArgumentParser()
    parser.add_argument("--output_dir", default="")
    parser.add_argument("--batch_size", type=int, default=2)
    args = parser.parse_args()
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=args.batch_size)
    """


def test_srun_running_a_project_shell_script_reads_its_launch_line_under_srun(cli, tmp_path):
    write(tmp_path, {"tools/run_dist_slurm.sh": SLURM, "configs/r50.sh": INNER, "main.py": MAIN})
    plan = plan_of(cli, "tools/run_dist_slurm.sh", "--", "dev", "16", "configs/r50.sh", "--batch_size", "4",
                   cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 16
    assert winner(plan, "dist.nodes") == 2
    assert winner(plan, "batch.micro") == 4


def test_srun_running_a_shell_script_without_a_launch_line_is_still_no_job(cli, tmp_path):
    write(tmp_path, {"tools/run_dist_slurm.sh": SLURM, "configs/r50.sh": "#!/bin/bash\necho hello\n",
                     "main.py": MAIN})
    res = cli("audit", "tools/run_dist_slurm.sh", "dev", "16", "configs/r50.sh", cwd=tmp_path)
    assert res.code == 3
    assert "no launch line found" in res.out + res.err
    assert "Traceback" not in res.out + res.err


# TideDra/lmm-r1@f917f18 openrlhf/cli/train_ppo_ray.py (the actor group's flags) with
# examples/scripts/lmm_r1/train_direct_rl_geo.sh:71-72: a Ray driver whose actor model trains on
# --actor_num_nodes x --actor_num_gpus_per_node workers.
RAY_DRIVER = """\
    import argparse
    import ray

    parser = argparse.ArgumentParser()
    parser.add_argument("--{nodes}", type=int, default=1, help="number of nodes for actor")
    parser.add_argument("--{gpus}", type=int, default=8, help="number of gpus per node for actor")
    parser.add_argument("--micro_train_batch_size", type=int, default=1)
    args = parser.parse_args()
    ray.init()
    """


@pytest.mark.parametrize("nodes,gpus,flags,world", [
    ("actor_num_nodes", "actor_num_gpus_per_node", ["--actor_num_nodes", "2", "--actor_num_gpus_per_node", "4"], 8),
    ("actor_num_nodes", "actor_num_gpus_per_node", ["--micro_train_batch_size", "2"], 8),  # declared defaults
    # the twin: a Ray driver without an actor group's flags: its worker count is not read
    ("num_nodes_x", "num_gpus_x", ["--num_nodes_x", "2", "--num_gpus_x", "4"], None),
])
def test_a_ray_driver_trains_on_its_actor_group(cli, tmp_path, nodes, gpus, flags, world):
    write(tmp_path, {"train_ppo_ray.py": RAY_DRIVER.format(nodes=nodes, gpus=gpus)})
    plan = plan_of(cli, "train_ppo_ray.py", "--", *flags, cwd=tmp_path)
    assert winner(plan, "dist.world_size") == world


# MoonshotAI/Moonlight@c2ad5b2 examples/toy_train.py:257-282: a Qwen2 model built from scratch from a
# transformers Qwen2Config whose width comes from the command line. 12 layers of q/k/v with biases
# (3 x (896^2 + 896)), o (896^2), a gated MLP (3 x 896 x 4864) and two norms, a tied 151936 x 896
# embedding, a final norm: 331,617,664 (the GPT formula said 252,199,808).
QWEN2 = """\
    import argparse
    import torch
    from transformers import {cls}, Qwen2ForCausalLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden_size", type=int, default=1024)
    args = parser.parse_args()
    config = {cls}(hidden_size=args.hidden_size, {mlp}num_attention_heads=16, num_hidden_layers=12,
                   num_key_value_heads=16, max_position_embeddings=513, tie_word_embeddings=True,
                   vocab_size=151936)
    model = Qwen2ForCausalLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    """


@pytest.mark.parametrize("cls,mlp,count", [
    ("Qwen2Config", "intermediate_size=4864, ", 331_617_664),
    # twins: no intermediate size given (the class default would be read, not guessed): the GPT formula
    ("Qwen2Config", "", 12 * 12 * 896 ** 2 + (151936 + 513) * 896),
])
def test_a_transformers_config_is_counted_by_its_family_layout(cli, tmp_path, cls, mlp, count):
    write(tmp_path, {"train.py": QWEN2.format(cls=cls, mlp=mlp)})
    plan = plan_of(cli, "train.py", "--", "--hidden_size", "896", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == count


def test_a_project_config_class_keeps_the_gpt_formula(cli, tmp_path):
    write(tmp_path, {"train.py": QWEN2.format(cls="MyConfig", mlp="intermediate_size=4864, ").replace(
        "from transformers import MyConfig, Qwen2ForCausalLM", "from mymodel import MyConfig, Qwen2ForCausalLM"),
        "mymodel.py": "class MyConfig:\n    pass\n\n\nclass Qwen2ForCausalLM:\n    pass\n"})
    plan = plan_of(cli, "train.py", "--", "--hidden_size", "896", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == 12 * 12 * 896 ** 2 + (151936 + 513) * 896


# NVIDIA/Megatron-LM@d98e8a6 examples/llama/train_llama3_8b_h100_fp8.sh:36-193 (flags in bash
# arrays, some elements "--flag value" expanded unquoted) and pretrain_gpt.py, whose options are
# declared in megatron/training/arguments.py and parsed inside initialize_megatron.
MEGATRON_SH = """\
    #!/bin/bash
    MODEL_ARGS=(--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32
        --group-query-attention --num-query-groups 8 --kv-channels 128 --swiglu --normalization RMSNorm
        --untie-embeddings-and-output-weights --disable-bias-linear)
    TRAINING_ARGS=(--micro-batch-size 1 --global-batch-size 128 --seq-length 8192 --bf16 {extra})
    DATA_ARGS=("--mock-data" "--vocab-size 128256" "--num-workers 1")
    torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py ${{MODEL_ARGS[@]}} ${{TRAINING_ARGS[@]}} \\
        ${{DATA_ARGS[@]}} --tensor-model-parallel-size {tp}
    """
PRETRAIN = """\
    from megatron.training import pretrain


    def model_provider():
        pass


    if __name__ == "__main__":
        pretrain(None, model_provider, None, None)
    """


@pytest.mark.parametrize("extra,tp,sharding,accum,ckpt", [
    ("--use-distributed-optimizer", 1, "zero1", 16, False),
    # tensor parallel 2: the model is split over ranks, which no data-parallel sharding value describes
    ("--recompute-granularity full", 2, None, 32, True),
])
def test_megatron_flags_map_to_the_plan(cli, tmp_path, extra, tp, sharding, accum, ckpt):
    write(tmp_path, {"train.sh": MEGATRON_SH.format(extra=extra, tp=tp), "pretrain_gpt.py": PRETRAIN,
                     "megatron/__init__.py": "", "megatron/training/__init__.py": "def pretrain(*a):\n    pass\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 1
    assert winner(plan, "batch.global") == 128
    assert winner(plan, "batch.grad_accum") == accum  # 128 / (1 x 8 / tp)
    assert winner(plan, "data.seq_len") == 8192
    assert winner(plan, "data.num_workers") == 1
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "dist.sharding") == sharding
    assert winner(plan, "memory.gradient_checkpointing") is ckpt
    assert abs(winner(plan, "model.num_parameters") - 8.03e9) < 0.01e9  # Llama-3-8B


@pytest.mark.parametrize("extra,peft", [("--q-lora-rank 1536 --kv-lora-rank 512", "none"),
                                        ("--lora-rank 8", None)])
def test_megatron_trains_every_parameter_unless_an_adapter_option_is_given(cli, tmp_path, extra, peft):
    # --q-lora-rank/--kv-lora-rank size multi-latent attention; an option naming LoRA (a fork's) leaves it unknown
    write(tmp_path, {"train.sh": MEGATRON_SH.format(extra=extra, tp=1), "pretrain_gpt.py": PRETRAIN,
                     "megatron/__init__.py": "", "megatron/training/__init__.py": "def pretrain(*a):\n    pass\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    got = fact(plan, "peft.method")
    if peft is None:
        assert got is None or got.adapter != "megatron_args"
    else:
        assert got.value == peft


def test_megatron_flags_on_a_script_that_is_not_megatron_are_not_read(cli, tmp_path):
    write(tmp_path, {"train.sh": MEGATRON_SH.format(extra="", tp=1),
                     "pretrain_gpt.py": "import argparse\nparser = argparse.ArgumentParser()\n"
                                        "args, _ = parser.parse_known_args()\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    assert winner(plan, "batch.global") is None
    assert winner(plan, "model.num_parameters") is None


# cmu-l3/l1@93dd330 main_ppo.py:18-21,110 and config/ppo_trainer.yaml: the project's own copy of
# verl's main_ppo (at its root) driving RayPPOTrainer of an installed verl, not in the repository.
def test_a_projects_copy_of_verl_main_ppo_is_read_with_verls_meaning(cli, tmp_path):
    from test_verl_ppo import FILES

    own = {"main_ppo.py": FILES["verl/trainer/main_ppo.py"].replace(
        "from verl.trainer.ppo.ray_trainer import RayPPOTrainer", "pass").replace(
        "import ray\n", "import ray\n        from verl.trainer.ppo.ray_trainer import RayPPOTrainer\n"),
        "config/ppo_trainer.yaml": FILES["verl/trainer/config/ppo_trainer.yaml"]}
    write(tmp_path, own)
    plan = plan_of(cli, "--", "python3", "main_ppo.py", "trainer.n_gpus_per_node=4", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 4
    assert winner(plan, "dist.sharding") == "fsdp_full"
    # the twin: a main_ppo.py that does not use verl's trainer says nothing of verl's keys
    write(tmp_path, {"main_ppo.py": own["main_ppo.py"].replace(
        "from verl.trainer.ppo.ray_trainer import RayPPOTrainer", "from mytrainer import RayPPOTrainer")})
    plan = plan_of(cli, "--", "python3", "main_ppo.py", "trainer.n_gpus_per_node=4", cwd=tmp_path)
    assert winner(plan, "dist.sharding") is None
