"""``accelerate launch`` flags over the accelerate config file, and a DeepSpeed JSON's integer micro batch
under the script's own ``Accelerator`` loop (issue 15, set 37: HKUNLP/DiffuLLaMA @ c17e897f
``DiffuLLaMA-training/run_distributed.sh:16-17,28-29,47`` ``accelerate launch --config_file
accelerate_configs/single_node.yaml ... --num_processes $((4*$NNODES)) --num_machines $NNODES`` with
``NNODES=`wc -l < hostname.txt```, where the file says ``num_processes: 4``, ``num_machines: 1``; and
``zero3_offload.json:50`` ``train_micro_batch_size_per_gpu: 64`` where ``train.py:83,143-145`` builds its
DataLoader with ``--batch-size 60``).

accelerate/commands/launch.py ``_validate_launch_command`` copies a config value only onto a flag the
command line left unset; accelerate/accelerator.py ``_prepare_deepspeed`` fills the micro batch from the
DataLoader only when the JSON says "auto" and never rebatches the loader. Twins: a launch line without the
flags keeps the file's counts; the HF Trainer (no ``Accelerator`` of the script) keeps the JSON's micro batch
at high confidence (the Trainer refuses a JSON that disagrees with its per-device batch)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

YAML = """\
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      deepspeed_config_file: cfg/zero3.json
      zero3_init_flag: true
    distributed_type: DEEPSPEED
    machine_rank: 0
    num_machines: 1
    num_processes: 4
"""

JSON = """\
    {
      "zero_optimization": {"stage": 3},
      "gradient_accumulation_steps": "auto",
      "train_micro_batch_size_per_gpu": 64,
      "train_batch_size": "auto"
    }
"""

LOOP = """\
    import argparse
    import os

    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def loader_of(data, size):
        return DataLoader(data, batch_size=size)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=1)
        args = parser.parse_args()
        accelerator = Accelerator(mixed_precision="bf16")
        model = torch.nn.Linear(8, 8)
        loader = loader_of(list(range(100)), size=int(os.environ.get("BATCH", args.batch_size)))
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(batch).sum())
            optimizer.step()


    if __name__ == "__main__":
        main()
"""

TRAINER = """\
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", per_device_train_batch_size=64, deepspeed="cfg/zero3.json")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=args, train_dataset=[]).train()
"""

UNKNOWN = ("NNODES=`wc -l < hostname.txt`\n"
           "accelerate launch --config_file cfg/single_node.yaml --machine_rank 0 "
           "--num_processes $((4*$NNODES)) --num_machines $NNODES train.py --batch-size 60\n")
KNOWN = ("accelerate launch --config_file cfg/single_node.yaml --num_processes 8 --num_machines 2 "
         "train.py --batch-size 60\n")
BARE = "accelerate launch --config_file cfg/single_node.yaml train.py --batch-size 60\n"


def _plan(cli, tmp_path, launch: str, script: str = LOOP) -> dict:
    write(tmp_path, {"cfg/single_node.yaml": YAML, "cfg/zero3.json": JSON, "train.py": script,
                     "hostname.txt": "gh023\ngh120\n"})
    (tmp_path / "run.sh").write_text(launch)
    return plan_of(cli, "run.sh", cwd=tmp_path)


def test_launch_flags_of_unknown_value_silence_the_files_counts(cli, tmp_path):
    plan = _plan(cli, tmp_path, UNKNOWN)
    assert fact(plan, "dist.world_size") is None  # not the file's 4: the job runs 8
    assert fact(plan, "dist.nodes") is None  # not the file's 1: the job runs on 2
    assert fact(plan, "dist.devices_per_node") is None
    assert any("cfg/single_node.yaml:8: num_processes: overridden by --num_processes $((4*$NNODES))" in n
               for n in plan["notes"])
    assert any("cfg/single_node.yaml:7: num_machines: overridden by --num_machines $NNODES" in n
               for n in plan["notes"])


def test_launch_flags_of_known_value_win_over_the_file(cli, tmp_path):
    plan = _plan(cli, tmp_path, KNOWN)
    assert fact(plan, "dist.world_size").value == 8
    assert fact(plan, "dist.nodes").value == 2
    assert fact(plan, "dist.devices_per_node").value == 4
    assert not any(f["source"]["path"] == "cfg/single_node.yaml"
                   for name in ("dist.world_size", "dist.nodes") for f in plan["fields"].get(name, []))


def test_twin_without_the_flags_the_files_counts_stand(cli, tmp_path):
    plan = _plan(cli, tmp_path, BARE)
    world, nodes = fact(plan, "dist.world_size"), fact(plan, "dist.nodes")
    assert (world.value, world.source.path, world.source.line) == (4, "cfg/single_node.yaml", 8)
    assert (nodes.value, nodes.confidence) == (1, "high")
    assert fact(plan, "dist.devices_per_node").value == 4
    assert not any("overridden by" in n for n in plan["notes"])


def test_json_micro_batch_under_the_scripts_accelerator_is_only_medium(cli, tmp_path):
    plan = _plan(cli, tmp_path, BARE)
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.confidence, micro.source.path, micro.source.line) == (64, "medium", "cfg/zero3.json", 4)
    assert any("cfg/zero3.json: train_micro_batch_size_per_gpu 64 is DeepSpeed's figure" in n for n in plan["notes"])


def test_twin_json_micro_batch_under_the_hf_trainer_stays_high(cli, tmp_path):
    write(tmp_path, {"cfg/zero3.json": JSON, "train.py": TRAINER})
    plan = plan_of(cli, "train.py", "--config", "cfg/zero3.json", cwd=tmp_path)
    micro = [f for f in plan["fields"]["batch.micro"] if f["source"]["path"] == "cfg/zero3.json"]
    assert [(f["value"], f["confidence"]) for f in micro] == [(64, "high")]
    assert not any("DeepSpeed's figure" in n for n in plan["notes"])
