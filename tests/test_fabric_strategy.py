"""A Lightning Fabric built in the script with an ``FSDPStrategy``, launched without ``fabric run``
(adapters/fabric_strategy.py). Fixture of our own, rewriting the shape of LLM360/amber-train
main.py:119-136 (``fabric = L.Fabric(accelerator="cuda", num_nodes=n_nodes, devices=4,
precision="bf16-mixed", strategy=FSDPStrategy(auto_wrap_policy=..., activation_checkpointing_policy=
{LlamaDecoderLayer}, cpu_offload=True, limit_all_gathers=True))``, ``srun python main.py``), with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

MAIN = """\
    from functools import partial

    import lightning as L
    import torch
    from lightning.fabric.strategies import FSDPStrategy
    from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
    from model import Block, Net


    def main():
        fabric = L.Fabric(
            accelerator="cuda",
            devices=4,
            precision="bf16-mixed",
            strategy=FSDPStrategy(
                auto_wrap_policy=partial(transformer_auto_wrap_policy, transformer_layer_cls={Block}),
                activation_checkpointing_policy={Block},
                cpu_offload=True))
        fabric.launch()
        model = Net()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer = fabric.setup(model, optimizer)
        for batch in range(10):
            loss = model(batch)
            fabric.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    main()
"""
MODEL = """\
    import torch

    class Block(torch.nn.Module):
        pass

    class Net(torch.nn.Module):
        pass
"""


def test_fabric_fsdp_strategy_in_code(cli, tmp_path):
    write(tmp_path, {"main.py": MAIN, "model.py": MODEL})
    plan = plan_of(cli, "--", "python", "main.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert (sharding.value, sharding.source.path, sharding.source.line) == ("fsdp_full", "main.py", 15)
    assert fact(plan, "dist.offload_params").value == "cpu"
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert (ckpt.value, ckpt.source.line) == (True, 17)


def test_fabric_fsdp_strategy_without_offload_or_checkpointing(cli, tmp_path):
    text = MAIN.replace("                activation_checkpointing_policy={Block},\n", "").replace(
        "cpu_offload=True", 'sharding_strategy="SHARD_GRAD_OP"')
    assert "cpu_offload" not in text and "activation_checkpointing_policy" not in text
    write(tmp_path, {"main.py": text, "model.py": MODEL})
    plan = plan_of(cli, "--", "python", "main.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "fsdp_full"
    offload = fact(plan, "dist.offload_params")
    assert offload is None or offload.value != "cpu"
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is not True
