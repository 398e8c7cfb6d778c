"""A fastcore ``@call_parse`` job whose options travel as ``dict(locals())`` through ``mp.spawn`` into helper
functions, with bitsandbytes ``Linear4bit`` swapped into the model (AnswerDotAI/fsdp_qlora @
05ed9f2a60f9 train.py:410,451-461,507,566-616,672-684,1037,1151,1179-1182,1185-1241). Fixtures of our own
copying that shape; each must-fill test has a silent twin."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

FSDP_QLORA_LIKE = {
    "train.py": """\
        from typing import Dict

        import torch
        import torch.multiprocessing as mp
        from bitsandbytes.nn import Linear4bit
        from fastcore.script import Param, bool_arg, call_parse
        from peft import LoraConfig, get_peft_model
        from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import apply_activation_checkpointing
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from torch.distributed.fsdp.api import CPUOffload, ShardingStrategy
        from torch.utils.data import DataLoader
        from transformers import AutoConfig, AutoModelForCausalLM


        def replace_linear(model, linear_replacement, quant_type="fp4", **kwargs):
            for name, module in model.named_children():
                if isinstance(module, torch.nn.Linear) and not isinstance(module, linear_replacement):
                    setattr(model, name, linear_replacement(module.in_features, module.out_features,
                                                            quant_type=quant_type))
            return model


        def get_dataloader(dataset, args: Dict):
            return DataLoader(dataset, batch_size=args["batch_size"])


        def get_optimizer(model, args: Dict):
            if args["optimizer"] == "adamw":
                return torch.optim.AdamW(model.parameters(), lr=args["lr"])
            return torch.optim.SGD(model.parameters(), lr=args["lr"])


        def fsdp_main(local_rank: int, world_size: int, args: Dict):
            dataloader = get_dataloader([], args)
            attn_impl = "sdpa"
            cfg = AutoConfig.from_pretrained(args["model_name"])
            cfg._attn_implementation = attn_impl
            model = AutoModelForCausalLM.from_config(cfg)
            if args["train_type"] == "hqq_lora":
                model.model = replace_linear(model.model, torch.nn.Linear)
            else:
                model.model = replace_linear(model.model, Linear4bit, quant_type="nf4")
            peft_config = LoraConfig(r=args["lora_rank"], lora_alpha=16)
            model = get_peft_model(model, peft_config)
            if args["sharding_strategy"] == "full_shard":
                sharding_strategy = ShardingStrategy.FULL_SHARD
            elif args["sharding_strategy"] == "shard_grad_op":
                sharding_strategy = ShardingStrategy.SHARD_GRAD_OP
            else:
                raise ValueError("Invalid FSDP sharding strategy")
            model = FSDP(model, sharding_strategy=sharding_strategy,
                         cpu_offload=CPUOffload(offload_params=True) if args["use_cpu_offload"] else None)
            if args["use_gradient_checkpointing"]:
                apply_activation_checkpointing(model, check_fn=lambda m: True)
            optimizer = get_optimizer(model, args)
            for batch in dataloader:
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()


        def fsdp_qlora(
            world_size: int = -1,
            train_type: str = "qlora",
            batch_size: int = 1,
            model_name: str = "meta-llama/Llama-2-7b-hf",
            lora_rank: int = 64,
            optimizer: str = "adamw",
            sharding_strategy: str = "full_shard",
            use_cpu_offload: bool = True,
            use_gradient_checkpointing: bool = True,
            lr: float = 1e-5,
        ):
            args = dict(locals())
            mp.spawn(fsdp_main, args=(world_size, args), nprocs=torch.cuda.device_count(), join=True)


        @call_parse()
        def main(
            world_size: int = -1,  # Number of GPUs
            train_type: Param("", choices=["full", "lora", "qlora", "hqq_lora"]) = "qlora",
            batch_size: int = 1,
            model_name: str = "meta-llama/Llama-2-7b-hf",
            lora_rank: int = 64,
            use_gradient_checkpointing: bool_arg = True,
            optimizer: Param("", choices=["adamw", "sgd"]) = "adamw",
            sharding_strategy: Param("", choices=["full_shard", "shard_grad_op"]) = "full_shard",
            use_cpu_offload: bool_arg = True,
            lr: float = 1e-5,
        ):
            fsdp_qlora(**locals())
    """,
}

LINE = ("train.py", "--", "--model_name", "meta-llama/Llama-2-70b-hf", "--batch_size", "2",
        "--use_gradient_checkpointing", "true")


def winner(plan: dict, field: str):
    return TrainingPlan.from_dict(plan).resolve(field)


def test_call_parse_options_reach_a_spawned_worker_through_a_locals_dict(cli, tmp_path):
    write(tmp_path, FSDP_QLORA_LIKE)
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    assert winner(plan, "model.ref").value == "meta-llama/Llama-2-70b-hf"
    micro = winner(plan, "batch.micro")
    assert micro is not None and micro.value == 2 and micro.source.key == "--batch_size"
    assert winner(plan, "optimizer.name").value == "AdamW"
    assert winner(plan, "peft.rank").value == 64
    assert winner(plan, "dist.sharding").value == "fsdp_full"  # the arm the default takes; the raise arm is none
    assert winner(plan, "dist.offload_params").value == "cpu"
    assert winner(plan, "memory.gradient_checkpointing").value is True


def test_options_given_take_the_other_arms(cli, tmp_path):
    """Twin: --sharding_strategy shard_grad_op, --use_cpu_offload false and --use_gradient_checkpointing
    false: ZeRO-2-like FSDP, no offload, no checkpointing claimed from the dead arms."""
    write(tmp_path, FSDP_QLORA_LIKE)
    plan = plan_of(cli, "train.py", "--", "--sharding_strategy", "shard_grad_op", "--use_cpu_offload", "false",
                   "--use_gradient_checkpointing", "false", cwd=tmp_path)
    assert winner(plan, "dist.sharding").value == "fsdp_grad_op"
    off = winner(plan, "dist.offload_params")
    assert off is None or off.value != "cpu"
    ckpt = winner(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is False


def test_linear4bit_layers_swapped_in_are_4_bit_weights(cli, tmp_path):
    write(tmp_path, FSDP_QLORA_LIKE)
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    bits = winner(plan, "precision.weights_bits")
    assert bits is not None and bits.value == 4 and bits.confidence == "medium" and bits.source.line == 42
    assert winner(plan, "precision.quant_type").value == "nf4"
    assert winner(plan, "precision.double_quant").value is True
    mode = winner(plan, "task.mode")
    assert mode.value == "qlora" and mode.confidence != "high"
    attn = winner(plan, "model.attn_implementation")
    assert attn is not None and attn.value == "sdpa" and attn.source.line == 37


def test_a_key_written_or_a_spawn_without_a_tuple_stays_unknown(cli, tmp_path):
    """Silent twins: ``args["batch_size"] = 4`` rewrites the key after the snapshot; ``mp.spawn(fsdp_main,
    args=packed)`` hands over something not read: the launch line's 2 is never claimed."""
    for old, new in (("args = dict(locals())\n", "args = dict(locals())\n            args[\"batch_size\"] = 4\n"),
                     ("mp.spawn(fsdp_main, args=(world_size, args),",
                      "packed = make(world_size, args)\n            mp.spawn(fsdp_main, args=packed,")):
        files = {"train.py": FSDP_QLORA_LIKE["train.py"].replace(old, new)}
        write(tmp_path, files)
        micro = winner(plan_of(cli, *LINE, cwd=tmp_path), "batch.micro")
        assert micro is None or micro.value != 2, new


def test_linear4bit_in_a_dead_branch_or_a_type_test_is_no_quantization(cli, tmp_path):
    """Silent twins: ``--train_type hqq_lora`` takes the other branch (only the isinstance test in
    ``replace_linear`` names Linear4bit then): no 4-bit weights, and LoRA is lora, not qlora."""
    write(tmp_path, FSDP_QLORA_LIKE)
    plan = plan_of(cli, *LINE, "--train_type", "hqq_lora", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") is None
    assert winner(plan, "precision.quant_type") is None
    assert winner(plan, "task.mode").value == "lora"
