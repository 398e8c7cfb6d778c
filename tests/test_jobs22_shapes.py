"""Set 22's shapes (lead, in-sample for set 22): fixtures of our own rebuilding the real code's
shape, each with a must-read test and a twin.

- ``colossalai run --nproc_per_node 4 script.py ...`` in a launch script, the Booster's plugin
  chosen by an option (hpcaitech/ColossalAI @ 4f9953b ``examples/images/vit/run_demo.sh:38`` and
  ``vit_train_demo.py:177-224``: ``if args.plugin.startswith("torch_ddp"): TorchDDPPlugin()``
  ``elif args.plugin == "gemini": GeminiPlugin(offload_optim_frac=1.0, ...)`` ...
  ``plugin.prepare_dataloader(train_dataset, batch_size=args.batch_size, ...)``);
- a Slurm batch file whose name has a site's own suffix, not ``.sh`` (codebyzeb/BabyLM @ dc4f13c
  ``scripts/launch_slurm.wilkes3``: ``#!/bin/bash``, ``#SBATCH`` lines, ``srun torchrun ... train.py $@``).
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

DEMO = """\
    import argparse

    import torch
    from colossalai.booster import Booster
    from colossalai.booster.plugin import GeminiPlugin, HybridParallelPlugin, LowLevelZeroPlugin, TorchDDPPlugin


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--plugin", type=str, default="torch_ddp")
        parser.add_argument("--batch_size", type=int, default=8)
        args = parser.parse_args()
        model = torch.nn.Linear(8, 8)
        booster_kwargs = {}
        if args.plugin == "torch_ddp_fp16":
            booster_kwargs["mixed_precision"] = "fp16"
        if args.plugin.startswith("torch_ddp"):
            plugin = TorchDDPPlugin()
        elif args.plugin == "gemini":
            plugin = GeminiPlugin(offload_optim_frac=1.0, pin_memory=True, initial_scale=2**5)
        elif args.plugin == "low_level_zero":
            plugin = LowLevelZeroPlugin(stage=2, precision="bf16")
        elif args.plugin == "hybrid_parallel":
            plugin = HybridParallelPlugin(tp_size=2, pp_size=2, zero_stage=0)
        else:
            raise ValueError(args.plugin)
        train_dataloader = plugin.prepare_dataloader(list(range(64)), batch_size=args.batch_size, shuffle=True)
        optimizer = torch.optim.AdamW(model.parameters())
        booster = Booster(plugin=plugin, **booster_kwargs)
        model, optimizer, _, train_dataloader, _ = booster.boost(model, optimizer, dataloader=train_dataloader)
        for batch in train_dataloader:
            loss = model(batch).sum()
            booster.backward(loss, optimizer)
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
"""


def _job(cli, tmp_path, plugin: str, launch: str = "colossalai run --nproc_per_node 4 --master_port 29505"):
    write(tmp_path, {"train.py": DEMO, "run.sh": f"""\
        #!/bin/bash
        PLUGIN="{plugin}"
        {launch} train.py --plugin $PLUGIN --batch_size 16
    """})
    return plan_of(cli, "run.sh", cwd=tmp_path)


def test_colossalai_run_is_a_launch_line_of_torchrun_processes(cli, tmp_path):
    plan = _job(cli, tmp_path, "gemini")
    assert fact(plan, "dist.world_size").value == 4
    assert fact(plan, "dist.devices_per_node").value == 4
    assert fact(plan, "dist.nodes").value == 1


def test_hosts_multiply_the_processes(cli, tmp_path):
    plan = _job(cli, tmp_path, "gemini", launch="colossalai run --nproc_per_node 8 --host node1,node2")
    assert fact(plan, "dist.nodes").value == 2
    assert fact(plan, "dist.world_size").value == 16


def test_hostfile_leaves_the_node_count_unknown(cli, tmp_path):
    plan = _job(cli, tmp_path, "gemini", launch="colossalai run --nproc_per_node 8 --hostfile hosts.txt")
    assert fact(plan, "dist.devices_per_node").value == 8
    assert fact(plan, "dist.world_size") is None


def test_gemini_chosen_by_the_option_is_zero3_fp16_with_the_optimizer_offloaded(cli, tmp_path):
    plan = _job(cli, tmp_path, "gemini")
    assert fact(plan, "dist.sharding").value == "zero3"
    assert fact(plan, "precision.mode").value == "fp16"
    assert fact(plan, "dist.offload_optimizer").value == "cpu"
    assert fact(plan, "batch.micro").value == 16
    assert fact(plan, "data.num_workers").value == 0


def test_low_level_zero_gives_its_stage_and_precision(cli, tmp_path):
    plan = _job(cli, tmp_path, "low_level_zero")
    assert fact(plan, "dist.sharding").value == "zero2"
    assert fact(plan, "precision.mode").value == "bf16"


def test_torch_ddp_prefix_decides_the_startswith_branch(cli, tmp_path):
    plan = _job(cli, tmp_path, "torch_ddp_fp16")
    assert fact(plan, "dist.sharding").value == "ddp"
    assert fact(plan, "precision.mode").value == "amp_fp16"


def test_twin_hybrid_parallel_without_zero_names_no_sharding(cli, tmp_path):
    # tensor/pipeline parallelism with zero_stage 0: the plan has no value for it, so nothing
    plan = _job(cli, tmp_path, "hybrid_parallel")
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.adapter != "colossalai_booster"


def test_twin_an_undecided_plugin_says_nothing(cli, tmp_path):
    # the plugin comes from the environment: no branch is decided
    write(tmp_path, {"train.py": DEMO.replace('args.plugin.startswith("torch_ddp")', 'os.environ.get("PLUGIN", "").startswith("torch")')
                     .replace("    import argparse\n", "    import argparse\n    import os\n")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.adapter != "colossalai_booster"


SBATCH = """\
    #!/bin/bash
    #! Example SLURM job script for a site
    #SBATCH -J small-lm
    #SBATCH --nodes=1
    #SBATCH --gres=gpu:4
    srun torchrun --nnodes 1 --nproc_per_node 4 train.py $@
"""

TRAIN = """\
    import torch


    def main():
        model = torch.nn.Linear(8, 8).cuda()
        model = torch.nn.parallel.DistributedDataParallel(model)
        opt = torch.optim.AdamW(model.parameters())
        for x in torch.utils.data.DataLoader(list(range(64)), batch_size=8):
            opt.zero_grad()
            model(x).sum().backward()
            opt.step()


    main()
"""


def test_a_slurm_file_with_a_site_suffix_is_read_as_a_launch_script(cli, tmp_path):
    write(tmp_path, {"launch_slurm.wilkes3": SBATCH, "train.py": TRAIN})
    plan = plan_of(cli, "launch_slurm.wilkes3", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 4


def test_twin_a_file_with_a_site_suffix_and_no_shell_shebang_is_refused(cli, tmp_path):
    write(tmp_path, {"launch_slurm.wilkes3": SBATCH.replace("#!/bin/bash", "#!/usr/bin/env python3"),
                     "train.py": TRAIN})
    res = cli("audit", "launch_slurm.wilkes3", cwd=tmp_path)
    assert res.code == 3, res.out + res.err
    assert "not a Python script or notebook" in res.out + res.err


TIMM = """\
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--input-size", default=None, nargs=3, type=int, metavar="N N N",
                        help="Input all image dimensions (d h w, e.g. --input-size 3 224 224)")
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args()
    model = torch.nn.Linear(8, 8).cuda()
    opt = torch.optim.AdamW(model.parameters())
    for x in torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
"""


def test_an_nargs_image_size_gives_the_side_not_the_channels(cli, tmp_path):
    # NVlabs/MambaVision @ its pinned commit mambavision/train.sh: `--input-size 3 224 224` to a
    # timm-derived train.py (nargs=3, channels first)
    write(tmp_path, {"train.py": TIMM})
    plan = plan_of(cli, "train.py", "--", "--input-size", "3", "224", "224", "--batch-size", "4", cwd=tmp_path)
    assert fact(plan, "data.image_size").value == 224
    assert fact(plan, "batch.micro").value == 4  # the words after the three values are options again


def test_twin_a_non_square_nargs_size_gives_no_side(cli, tmp_path):
    write(tmp_path, {"train.py": TIMM})
    plan = plan_of(cli, "train.py", "--", "--input-size", "3", "224", "256", cwd=tmp_path)
    assert fact(plan, "data.image_size") is None


def test_a_plugin_precision_from_an_option_is_read(cli, tmp_path):
    # NUS-HPC-AI-Lab/OpenDiT @ 5cbadd0 train.py:88-91: LowLevelZeroPlugin(stage=2, precision=args.mixed_precision)
    demo = DEMO.replace('precision="bf16"', "precision=args.mixed_precision").replace(
        'parser.add_argument("--batch_size", type=int, default=8)\n',
        'parser.add_argument("--batch_size", type=int, default=8)\n'
        '        parser.add_argument("--mixed_precision", type=str, default="bf16")\n')
    write(tmp_path, {"train.py": demo})
    plan = plan_of(cli, "train.py", "--", "--plugin", "low_level_zero", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "bf16"
    plan = plan_of(cli, "train.py", "--", "--plugin", "low_level_zero", "--mixed_precision", "fp16", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "fp16"
    plan = plan_of(cli, "train.py", "--", "--plugin", "low_level_zero", "--mixed_precision", "fp32", cwd=tmp_path)
    got = fact(plan, "precision.mode")
    assert got is None or got.adapter != "colossalai_booster"
