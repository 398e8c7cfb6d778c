from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Sequence

import pytest
from preflight.adapters.launchers import LaunchInfo, parse_launch

from preflight.adapters_api import Project
from preflight.audit import build_plan
from preflight.plan import TrainingPlan
from preflight.registry import all_adapters
from preflight.sources import parse_python, read_source

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "launchers"


def audit(scripts: Sequence[str] = (), configs: Sequence[str] = (), launch: str = "") -> TrainingPlan:
    plan, project = build_plan([FIXTURES / s for s in scripts], [FIXTURES / c for c in configs], root=FIXTURES,
                               argv=shlex.split(launch), strict=True)
    assert project.errors == []
    return plan


def launcher_facts(plan: TrainingPlan, field: str) -> list:
    return [f for f in plan.facts(field) if f.adapter == "launchers"]


def one(plan: TrainingPlan, field: str):
    facts = launcher_facts(plan, field)
    assert len(facts) == 1, facts
    return facts[0]


def p(cmd: str) -> LaunchInfo:
    return parse_launch(shlex.split(cmd))


def test_registered():
    assert "launchers" in all_adapters()


# -- parse_launch: real-world command lines ------------------------------------------------


def test_torchrun_multinode_rdzv():
    info = p("torchrun --nnodes=2 --nproc-per-node=8 --rdzv-id=job42 --rdzv-backend=c10d "
             "--rdzv-endpoint=node0:29400 --max-restarts 3 train.py --lr 1e-4 --batch_size 8")
    assert info.launcher == "torchrun"
    assert (info.nodes, info.procs_per_node, info.total_procs) == (2, 8, 16)
    assert info.script == "train.py" and info.script_args == ["--lr", "1e-4", "--batch_size", "8"]
    assert info.options["__rdzv_endpoint"] == "node0:29400"


def test_torchrun_elastic_and_auto():
    info = p("torchrun --nnodes 1:4 --nproc_per_node gpu train.py")
    assert info.nodes is None and info.procs_per_node is None and info.total_procs is None
    assert any("elastic" in n for n in info.notes)
    assert any("--nproc_per_node gpu" in n for n in info.notes)
    assert p("torchrun --nnodes 2:2 --nproc_per_node 4 train.py").total_procs == 8


def test_torchrun_defaults_standalone_and_module():
    info = p("torchrun --standalone --nproc_per_node 4 train.py")
    assert (info.nodes, info.procs_per_node, info.total_procs) == (1, 4, 4)
    info = p("torchrun --nproc_per_node 4 train.py")  # --nnodes defaults to 1:1
    assert info.nodes is None and info.total_procs == 4
    info = p("torchrun --nproc_per_node 2 -m pkg.train --epochs 1")
    assert info.module and info.script == "pkg.train" and info.script_args == ["--epochs", "1"]


def test_python_m_torch_distributed_launch_use_env():
    info = p("CUDA_VISIBLE_DEVICES=0,1,2,3 python -u -m torch.distributed.launch --nproc_per_node=4 "
             "--master_port 29501 --use_env train.py --fp16")
    assert info.launcher == "torch.distributed.launch"
    assert info.procs_per_node == 4 and info.total_procs == 4
    assert info.script == "train.py" and info.script_args == ["--fp16"]
    assert info.env == {"CUDA_VISIBLE_DEVICES": "0,1,2,3"}
    assert any("4 device(s) visible" in n for n in info.notes)
    assert any("--use_env" in n for n in info.notes)
    assert p("python3 -m torch.distributed.run --nnodes 1 --nproc_per_node 2 t.py").launcher == "torchrun"


def test_accelerate_with_config_file():
    info = p("accelerate launch --config_file configs/fsdp.yaml --num_processes=16 --num_machines 2 "
             "--machine_rank 0 --main_process_ip 10.0.0.1 --mixed_precision=bf16 --multi_gpu train.py --bs 4")
    assert info.launcher == "accelerate"
    assert (info.nodes, info.procs_per_node, info.total_procs) == (2, 8, 16)
    assert info.mixed_precision == "bf16"
    assert info.config_files == ["configs/fsdp.yaml"]
    assert info.script_args == ["--bs", "4"]
    info = p("accelerate launch --config_file acc.yaml train.py")
    assert info.total_procs is None and any("--config_file acc.yaml" in n for n in info.notes)
    info = p("accelerate launch --num_processes 4 train.py")  # one machine by default
    assert (info.nodes, info.procs_per_node) == (1, 4)


def test_accelerate_deepspeed_flags():
    info = p("accelerate launch --use_deepspeed --zero_stage 3 --offload_param_device cpu "
             "--gradient_accumulation_steps 8 --num_processes 8 train.py")
    assert info.options["__zero_stage"] == "3" and info.options["__use_deepspeed"] == ""
    assert info.script == "train.py"


def test_deepspeed_with_hostfile():
    info = p("deepspeed --hostfile=/job/hosts --num_nodes 4 --num_gpus 8 --master_port 29600 train.py "
             "--deepspeed --deepspeed_config configs/ds_z3.json --lr 2e-5")
    assert info.launcher == "deepspeed"
    assert (info.nodes, info.procs_per_node, info.total_procs) == (4, 8, 32)
    assert info.config_files == ["configs/ds_z3.json"]
    assert info.script_args[:2] == ["--deepspeed", "--deepspeed_config"]
    assert any("--hostfile /job/hosts" in n for n in info.notes)


def test_deepspeed_include_and_defaults():
    info = p('deepspeed -i "localhost:0,1" train.py --deepspeed ds.json')
    # --include names exactly the devices used: 2 on one host (deepspeed/launcher/runner.py
    # parse_inclusion_exclusion)
    assert (info.nodes, info.procs_per_node, info.total_procs) == (1, 2, 2)
    assert any("--include localhost:0,1" in n for n in info.notes)
    assert p('deepspeed -i "h1@h2" train.py').total_procs is None  # every device of each host
    assert info.config_files == ["ds.json"]
    assert p("deepspeed --num_accelerators 2 train.py").procs_per_node == 2


def test_srun_wrapping_torchrun():
    info = p("srun --nodes=4 --ntasks-per-node=1 --gpus-per-node=8 torchrun --nnodes 4 --nproc_per_node 8 "
             "--rdzv_backend c10d --rdzv_endpoint $HEAD:29500 train.py")
    assert info.wrapper == "srun" and info.launcher == "torchrun"
    assert (info.nodes, info.procs_per_node, info.total_procs) == (4, 8, 32)
    assert info.wrapper_options["__gpus_per_node"] == "8"


def test_srun_python_direct():
    info = p("srun -N2 --ntasks-per-node 8 -l python train.py --epochs 2")
    assert info.launcher == "python" and (info.nodes, info.procs_per_node, info.total_procs) == (2, 8, 16)
    info = p("srun -N 2 -n 16 python -u train.py")
    assert (info.nodes, info.procs_per_node, info.total_procs) == (2, 8, 16)


def test_plain_python_and_bare_args():
    info = p("python train.py --lr 1")
    assert info.launcher == "python" and info.total_procs is None and info.script_args == ["--lr", "1"]
    info = p("--lr 1 --batch_size 4")
    assert info.launcher is None and info.script is None and info.script_args == ["--lr", "1", "--batch_size", "4"]
    assert p("").launcher is None


@pytest.mark.parametrize("cmd", [
    "torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d train_ddp.py --lr 1e-4",
    "python -m torch.distributed.launch --nproc_per_node=4 --use_env train_ddp.py --batch_size 8",
    "accelerate launch --config_file a.yaml --multi_gpu train_ddp.py --batch_size 8",
    "deepspeed --hostfile hosts --num_gpus 8 train_ddp.py --deepspeed ds.json",
    "srun -N 2 --ntasks-per-node=1 torchrun --nnodes 2 --nproc_per_node 8 train_ddp.py --lr 3",
    "CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train_ddp.py",
    "--batch_size 8 --lr 1",
])
def test_script_args_agree_with_project(cmd):
    """The pytorch adapter reads the script's argv through Project.script_args; both must agree."""
    argv = shlex.split(cmd)
    source = read_source(FIXTURES / "train_ddp.py", "train_ddp.py", "python")
    project = Project(root=FIXTURES, argv=argv)
    parsed = parse_python(source)
    assert parse_launch(argv).script_args == project.script_args(parsed)  # type: ignore[arg-type]


# -- the adapter through build_plan --------------------------------------------------------


def test_torchrun_facts_and_sources():
    launch = "torchrun --nnodes 2 --nproc_per_node 8 train_ddp.py --batch_size 32"
    plan = audit(["train_ddp.py"], launch=launch)
    nodes, per_node, world = one(plan, "dist.nodes"), one(plan, "dist.devices_per_node"), one(plan, "dist.world_size")
    assert (nodes.value, per_node.value, world.value) == (2, 8, 16)
    assert nodes.source.kind == "cli" and nodes.source.key == "--nnodes" and launch in (nodes.source.detail or "")
    assert per_node.source.key == "--nproc_per_node"
    assert world.source.kind == "derived" and "--nnodes 2 x --nproc_per_node 8 = 16" in (world.source.detail or "")
    assert plan.value("batch.micro") == 32  # the pytorch adapter read the same script args
    assert "launchers" not in plan.value("framework.names")
    assert any("starts 16 processes" in n for n in plan.notes)
    # a launcher alone does not make the job DDP: only the script's DDP(...) does
    assert all(f.adapter != "launchers" for f in plan.facts("dist.sharding"))


def test_torchrun_defaults_are_default_facts():
    plan = audit(["train_ddp.py"], launch="torchrun --nproc-per-node 4 train_ddp.py")
    nodes = one(plan, "dist.nodes")
    assert nodes.value == 1 and nodes.source.kind == "default" and "1:1" in (nodes.source.detail or "")
    assert one(plan, "dist.devices_per_node").source.key == "--nproc-per-node"
    assert "--nnodes 1 (default) x --nproc-per-node 4 = 4" in (one(plan, "dist.world_size").source.detail or "")


def test_torchrun_gpu_count_is_a_note():
    plan = audit(["train_ddp.py"], launch="torchrun --nnodes 1:4 --nproc_per_node auto train_ddp.py")
    assert not launcher_facts(plan, "dist.world_size") and not launcher_facts(plan, "dist.devices_per_node")
    assert not launcher_facts(plan, "dist.nodes")
    assert any("launchers: --nproc_per_node auto" in n for n in plan.notes)


def test_other_script_records_nothing():
    plan = audit(["train_ddp.py"], launch="torchrun --nnodes 2 --nproc_per_node 8 other.py")
    for field in ("dist.nodes", "dist.devices_per_node", "dist.world_size"):
        assert not launcher_facts(plan, field)
    assert any("runs other.py, not the audited script" in n for n in plan.notes)


def test_module_launch_matches_script():
    plan = audit(["train_ddp.py"], launch="torchrun --nproc_per_node 2 -m train_ddp")
    assert one(plan, "dist.devices_per_node").value == 2
    plan = audit(["train_ddp.py"], launch="torchrun --nproc_per_node 2 -m pkg.other")
    assert not launcher_facts(plan, "dist.devices_per_node")


def test_deepspeed_world_size_conflicts_with_batch_triple():
    """Buggy: ds_wrong_world.json implies 64/(4*2) = 8 ranks, the launcher starts 2x8 = 16."""
    plan = audit(["train_ds.py"], ["ds_wrong_world.json"],
                 launch="deepspeed --num_nodes 2 --num_gpus 8 train_ds.py --deepspeed_config ds_wrong_world.json")
    world = one(plan, "dist.world_size")
    assert world.value == 16 and world.source.kind == "derived" and world.source.key == "--num_gpus"
    assert "--num_nodes 2 x --num_gpus 8 = 16" in (world.source.detail or "")
    assert "dist.world_size" in plan.conflicts()
    assert {f.value for f in plan.facts("dist.world_size")} == {8, 16}
    assert any("names ds_wrong_world.json, which is audited" in n for n in plan.notes)


def test_deepspeed_world_size_clean():
    plan = audit(["train_ds.py"], ["ds_ok.json"],
                 launch="deepspeed --num_nodes=2 --num_gpus=8 train_ds.py --deepspeed --deepspeed_config ds_ok.json")
    assert plan.conflicts() == {}
    assert plan.value("dist.world_size") == 16
    assert one(plan, "dist.nodes").source.key == "--num_nodes"


def test_deepspeed_unaudited_config_note():
    plan = audit(["train_ds.py"], launch="deepspeed --hostfile hosts train_ds.py --deepspeed ds_z3.json")
    assert any("names ds_z3.json; pass it with --config" in n for n in plan.notes)
    assert any("--hostfile hosts" in n for n in plan.notes)
    assert not launcher_facts(plan, "dist.world_size")


def test_accelerate_facts():
    launch = ("accelerate launch --config_file accelerate_2x8.yaml --num_processes 16 --num_machines 2 "
              "--mixed_precision bf16 train_accel.py")
    plan = audit(["train_accel.py"], ["accelerate_2x8.yaml"], launch=launch)
    world = one(plan, "dist.world_size")
    assert world.value == 16 and world.source.kind == "cli" and world.source.key == "--num_processes"
    per_node = one(plan, "dist.devices_per_node")
    assert per_node.value == 8 and per_node.source.kind == "derived"
    assert "--num_processes 16 / --num_machines 2 = 8" in (per_node.source.detail or "")
    assert one(plan, "dist.nodes").value == 2
    prec = one(plan, "precision.mode")
    assert prec.value == "amp_bf16" and prec.source.kind == "cli" and prec.source.key == "--mixed_precision"
    assert prec.confidence == "high"  # the script uses accelerate
    assert any("accelerate_2x8.yaml, which is audited" in n for n in plan.notes)


@pytest.mark.parametrize("flag, mode", [("no", "fp32"), ("fp16", "amp_fp16"), ("fp8", "fp8")])
def test_accelerate_precision_values(flag, mode):
    plan = audit(["train_accel.py"], launch=f"accelerate launch --mixed_precision={flag} train_accel.py")
    assert one(plan, "precision.mode").value == mode
    assert one(plan, "precision.mode").source.key == "--mixed_precision"


def test_accelerate_deepspeed_and_fsdp():
    plan = audit(["train_accel.py"], launch="accelerate launch --use_deepspeed --zero_stage 3 "
                 "--offload_optimizer_device cpu --offload_param_device nvme --gradient_accumulation_steps 4 "
                 "--num_processes 8 train_accel.py")
    assert one(plan, "dist.sharding").value == "zero3"
    assert one(plan, "dist.offload_optimizer").value == "cpu"
    assert one(plan, "dist.offload_params").value == "nvme"
    assert one(plan, "batch.grad_accum").value == 4
    assert one(plan, "dist.world_size").value == 8 and one(plan, "dist.devices_per_node").value == 8
    plan = audit(["train_accel.py"], launch="accelerate launch --use_deepspeed train_accel.py")
    stage = one(plan, "dist.sharding")
    assert stage.value == "zero2" and stage.source.kind == "default"
    plan = audit(["train_accel.py"], launch="accelerate launch --use_fsdp --fsdp_sharding_strategy SHARD_GRAD_OP "
                 "--fsdp_offload_params true --fsdp_activation_checkpointing true train_accel.py")
    assert one(plan, "dist.sharding").value == "fsdp_grad_op"
    assert one(plan, "dist.offload_params").value == "cpu"
    assert one(plan, "memory.gradient_checkpointing").value is True
    plan = audit(["train_accel.py"], launch="accelerate launch --multi_gpu --num_processes 2 train_accel.py")
    assert not launcher_facts(plan, "dist.sharding")  # --multi_gpu alone is no sharding fact
    plan = audit(["train_accel.py"], launch="accelerate launch --gradient_accumulation_steps 4 train_accel.py")
    assert not launcher_facts(plan, "batch.grad_accum")


def test_accelerate_precision_without_accelerate_is_medium():
    plan = audit(["train_ddp.py"], launch="accelerate launch --mixed_precision bf16 train_ddp.py")
    assert one(plan, "precision.mode").confidence == "medium"


def test_srun_python_facts():
    plan = audit(["train_ddp.py"], launch="srun -N 2 --ntasks-per-node=8 python train_ddp.py")
    assert one(plan, "dist.nodes").value == 2 and one(plan, "dist.nodes").source.key == "-N"
    assert one(plan, "dist.devices_per_node").value == 8
    world = one(plan, "dist.world_size")
    assert world.value == 16 and world.source.kind == "derived"
    plan = audit(["train_ddp.py"], launch="srun --nodes 2 --ntasks 16 python train_ddp.py")
    assert one(plan, "dist.world_size").source.key == "--ntasks"


def test_srun_and_torchrun_disagree_on_nodes():
    plan = audit(["train_ddp.py"], launch="srun -N 4 torchrun --nnodes 2 --nproc_per_node 8 train_ddp.py")
    assert {f.value for f in launcher_facts(plan, "dist.nodes")} == {2, 4}
    assert "dist.nodes" in plan.conflicts()
    assert one(plan, "dist.world_size").value == 16


def test_no_launcher_is_quiet():
    plan = audit(["train_ddp.py"], launch="--batch_size 8")
    assert not any(n.startswith("launchers:") for n in plan.notes)
    assert all(f.adapter != "launchers" for field in plan.fields() for f in plan.facts(field))
    plan = audit(["train_ddp.py"], launch="python train_ddp.py")
    assert not launcher_facts(plan, "dist.world_size")


def test_cli_emit_plan(cli):
    res = cli("audit", "train_ds.py", "--config", "ds_wrong_world.json", "--emit-plan", "json", "--",
              "deepspeed", "--num_nodes", "2", "--num_gpus", "8", "train_ds.py", "--deepspeed_config",
              "ds_wrong_world.json", cwd=FIXTURES)
    assert res.code == 0, res.err
    data = json.loads(res.out)
    facts = [f for f in data["fields"]["dist.world_size"] if f["adapter"] == "launchers"]
    assert [f["value"] for f in facts] == [16]
    assert facts[0]["source"]["kind"] == "derived" and facts[0]["source"]["key"] == "--num_gpus"
    assert data["fields"]["dist.nodes"][0]["source"] == {
        "kind": "cli", "path": None, "line": None, "key": "--num_nodes",
        "detail": "launch line: deepspeed --num_nodes 2 --num_gpus 8 train_ds.py --deepspeed_config "
                  "ds_wrong_world.json"}
    assert {"path": "deepspeed --num_nodes 2 --num_gpus 8 train_ds.py --deepspeed_config ds_wrong_world.json",
            "kind": "argv", "digest": None} in data["inputs"]


def test_cli_accelerate_text(cli):
    res = cli("audit", "train_accel.py", "--emit-plan", "yaml", "--", "accelerate", "launch",
              "--num_processes=4", "--mixed_precision=fp16", "train_accel.py", cwd=FIXTURES)
    assert res.code == 0, res.err
    assert "key: --num_processes" in res.out and "value: amp_fp16" in res.out


def test_srun_multinode_torchrun_without_nnodes_is_noted():
    info = p("srun -N 4 torchrun --nproc_per_node 8 train.py")
    assert any("each node would run a separate single-node job" in n for n in info.notes)
    plan = audit(["train_ddp.py"], launch="srun -N 4 torchrun --nproc_per_node 8 train_ddp.py")
    nodes = plan.resolve("dist.nodes")
    assert nodes is not None and nodes.value == 4 and nodes.source.key == "-N"
    assert any("separate single-node job" in n for n in plan.notes)


def test_module_name_must_match_exactly():
    plan = audit(["train_ddp.py"], launch="torchrun --nproc_per_node 2 -m my_train_ddp")
    assert not launcher_facts(plan, "dist.devices_per_node")
    assert any("module my_train_ddp" in n for n in plan.notes)


def test_shell_variables_are_notes():
    info = p("python -m torch.distributed.launch --nproc_per_node $NGPUS --nnodes $SLURM_NNODES "
             "--node_rank $SLURM_PROCID --master_addr $MASTER_ADDR train.py")
    assert info.nodes is None and info.procs_per_node is None and info.total_procs is None
    assert any(n.startswith("--nproc_per_node $NGPUS is a shell variable") for n in info.notes)
    assert any(n.startswith("--nnodes $SLURM_NNODES is a shell variable") for n in info.notes)
    assert not any("counts the devices" in n for n in info.notes)
    info = p("srun --ntasks-per-node=$GPUS accelerate launch --num_processes $WORLD train.py")
    assert any(n.startswith("--ntasks-per-node $GPUS is a shell variable") for n in info.notes)
    assert any(n.startswith("--num_processes $WORLD is a shell variable") for n in info.notes)
    plan = audit(["train_ddp.py"], launch="torchrun --nnodes $N --nproc_per_node 8 train_ddp.py")
    assert not launcher_facts(plan, "dist.world_size") and not launcher_facts(plan, "dist.nodes")
    assert one(plan, "dist.devices_per_node").value == 8


def test_srun_several_launchers_per_node_is_noted():
    plan = audit(["train_ddp.py"], launch="srun -N 2 --ntasks-per-node=4 torchrun --nnodes 2 --nproc_per_node 4 "
                                          "train_ddp.py")
    assert any("--ntasks-per-node 4 starts 4 torchrun launchers on each node" in n for n in plan.notes)
    assert one(plan, "dist.world_size").value == 8
    assert one(plan, "dist.devices_per_node").source.key == "--nproc_per_node"  # not srun's tasks


def test_module_launch_gives_the_script_only_its_own_arguments(tmp_path):
    """`accelerate launch --gradient_accumulation_steps 4 -m pkg.train --lr 1` : the launcher's
    flag is not the script's."""
    from preflight.adapters_api import Project
    from preflight.sources import SourceText, parse_python

    src = "import argparse\n"
    parsed = parse_python(SourceText(path=tmp_path / "train.py", display="train.py", kind="python",
                                     raw=src.encode(), text=src))
    line = ["accelerate", "launch", "--gradient_accumulation_steps", "4", "-m", "pkg.train", "--lr", "1"]
    assert Project(root=tmp_path, argv=line).script_args(parsed) == ["--lr", "1"]
    other = ["python", "-m", "pkg.evaluate", "--lr", "1"]
    assert Project(root=tmp_path, argv=other).script_args(parsed) == []
    runner = ["python", "-m", "torch.distributed.run", "--nproc_per_node", "2", "-m", "pkg.train", "--x", "2"]
    assert Project(root=tmp_path, argv=runner).script_args(parsed) == ["--x", "2"]
