"""Recipes run by tools of the third held-out set (issue 15), in fixtures of our own with the
real shapes: torchtune (`tune run RECIPE --config NAME`), LLaMA-Factory (`llamafactory-cli train
cfg.yaml`), nanotron (`torchrun run_train.py --config-file cfg.yaml`) and Lightning Fabric
(`fabric run script.py --devices 4`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plan_helpers import winner, write


def plan_of(cli, *launch: str, cwd: Path) -> tuple[dict, str]:
    res = cli("audit", "--emit-plan", "json", "--", *launch, cwd=cwd)
    assert res.code in (0, 1), res.err
    return json.loads(res.out), res.err


TUNE = """\
    model:
      _component_: torchtune.models.llama3_2.lora_llama3_2_1b
      lora_attn_modules: ['q_proj', 'v_proj']
      lora_rank: 64
    tokenizer:
      _component_: torchtune.models.llama3.llama3_tokenizer
      path: /tmp/tokenizer.model
      max_seq_len: null
    checkpointer:
      _component_: torchtune.training.FullModelHFCheckpointer
    batch_size: 4
    optimizer:
      _component_: torch.optim.AdamW
      lr: 3e-4
    loss:
      _component_: torchtune.modules.loss.LinearCrossEntropyLoss
    gradient_accumulation_steps: 8
    compile: False
    dtype: bf16
    enable_activation_checkpointing: False
    """


def test_torchtune_config_by_name(cli, tmp_path):
    write(tmp_path, {"recipes/configs/llama3_2/1B_lora_single_device.yaml": TUNE})
    plan, _ = plan_of(cli, "tune", "run", "lora_finetune_single_device", "--config", "llama3_2/1B_lora_single_device",
                      "batch_size=2", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora" and winner(plan, "task.mode") == "lora"
    assert winner(plan, "peft.rank") == 64
    assert abs(winner(plan, "model.num_parameters") - 1.236e9) < 0.05e9  # the catalog's Llama-3.2-1B
    assert winner(plan, "batch.micro") == 2  # key=value on the line wins over the file
    assert winner(plan, "batch.grad_accum") == 8
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "memory.gradient_checkpointing") is False
    assert winner(plan, "loss.implementation") == "chunked"
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "dist.world_size") == 1
    assert winner(plan, "data.seq_len") is None  # max_seq_len: null


def test_torchtune_unknown_config_name_is_one_clear_error(cli, tmp_path):
    res = cli("audit", "--", "tune", "run", "lora_finetune_single_device", "--config", "nope/none", cwd=tmp_path)
    assert res.code == 3
    text = res.out + res.err
    assert "<launch line>: error: torchtune: no recipe file" in text and "Traceback" not in text


LLAMAFACTORY = """\
    model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
    quantization_bit: {bits}
    quantization_method: bnb
    stage: sft
    do_train: true
    finetuning_type: lora
    lora_rank: 8
    template: qwen3_nothink
    cutoff_len: 4096
    dataloader_num_workers: 4
    per_device_train_batch_size: 1
    gradient_accumulation_steps: 8
    bf16: true
    """


@pytest.mark.parametrize("bits,mode,weights", [("4", "qlora", 4), ("null", "lora", None)])
def test_llamafactory_recipe(cli, tmp_path, bits, mode, weights):
    write(tmp_path, {"examples/cfg.yaml": LLAMAFACTORY.format(bits=bits)})
    plan, _ = plan_of(cli, "llamafactory-cli", "train", "examples/cfg.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") == "Qwen/Qwen3-4B-Instruct-2507"
    assert winner(plan, "task.mode") == mode
    assert winner(plan, "precision.weights_bits") == weights
    assert winner(plan, "precision.double_quant") is (True if weights else None)
    assert winner(plan, "data.seq_len") == 4096
    assert winner(plan, "memory.gradient_checkpointing") is True  # LLaMA-Factory's default
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert (winner(plan, "batch.micro"), winner(plan, "batch.grad_accum"), winner(plan, "data.num_workers")) \
        == (1, 8, 4)



def test_llamafactory_trainingarguments_defaults(cli, tmp_path):
    # no optim, dataloader_num_workers or torch_compile in the recipe: TrainingArguments' defaults
    text = LLAMAFACTORY.format(bits="null").replace("    dataloader_num_workers: 4\n", "")
    write(tmp_path, {"examples/cfg.yaml": text})
    plan, _ = plan_of(cli, "llamafactory-cli", "train", "examples/cfg.yaml", cwd=tmp_path)
    assert (winner(plan, "optimizer.name"), winner(plan, "data.num_workers"), winner(plan, "compile.enabled")) \
        == ("adamw_torch", 0, False)
    write(tmp_path, {"examples/cfg.yaml": text.rstrip(" ") + "    optim: adafactor\n    torch_compile: true\n"})
    plan, _ = plan_of(cli, "llamafactory-cli", "train", "examples/cfg.yaml", cwd=tmp_path)
    assert (winner(plan, "optimizer.name"), winner(plan, "compile.enabled")) == ("adafactor", True)


NANOTRON = """\
    data_stages:
    - data:
        num_loading_workers: 1
      name: Stable Training Stage
    model:
      dtype: bfloat16
      model_config:
        hidden_size: 2048
        intermediate_size: 11008
        is_llama_config: true
        num_attention_heads: 16
        num_hidden_layers: 28
        num_key_value_heads: 2
        tie_word_embeddings: true
        vocab_size: 128256
    optimizer:
      accumulate_grad_in_fp32: true
      optimizer_factory:
        name: adamW
      zero_stage: 0
    parallelism:
      dp: 4
      tp: 2
      pp: 1
    tokens:
      batch_accumulation_per_replica: 1
      micro_batch_size: 3
      sequence_length: 4096
    """


def test_nanotron_config(cli, tmp_path):
    write(tmp_path, {"examples/config_tiny_llama.yaml": NANOTRON,
                     "run_train.py": "import argparse\nfrom nanotron.trainer import DistributedTrainer\n"
                                     "p = argparse.ArgumentParser()\np.add_argument('--config-file')\n"
                                     "DistributedTrainer(p.parse_args().config_file).train()\n"})
    plan, _ = plan_of(cli, "torchrun", "--nproc_per_node=8", "run_train.py", "--config-file",
                      "examples/config_tiny_llama.yaml", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == 2420754432
    assert (winner(plan, "batch.micro"), winner(plan, "batch.grad_accum"), winner(plan, "data.seq_len")) \
        == (3, 1, 4096)
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "optimizer.name") == "adamW"


FABRIC = """\
    import argparse

    import torch
    import torch.nn as nn
    from lightning.fabric import Fabric


    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.fc1 = nn.Linear(9216, 128)
            self.drop = nn.Dropout(0.5)


    def run(hparams):
        fabric = Fabric()
        loader = torch.utils.data.DataLoader(dataset, batch_size=hparams.batch_size)
        model = Net()
        optimizer = torch.optim.Adadelta(model.parameters(), lr=hparams.lr)
        model, optimizer = fabric.setup(model, optimizer)
        for data, target in loader:
            loss = model(data).sum()
            fabric.backward(loss)
            optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=64)
        parser.add_argument("--lr", type=float, default=1.0)
        run(parser.parse_args())
    """


@pytest.mark.parametrize("extra,precision", [((), "fp32"), (("--precision", "bf16-mixed"), "amp_bf16")])
def test_fabric_run_options_after_the_script(cli, tmp_path, extra, precision):
    write(tmp_path, {"train_fabric.py": FABRIC})
    plan, _ = plan_of(cli, "fabric", "run", "train_fabric.py", "--accelerator=gpu", "--devices=4", *extra,
                      cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 4
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "precision.mode") == precision
    assert winner(plan, "batch.micro") == 64
    assert winner(plan, "model.num_parameters") == 32 * 9 + 32 + 9216 * 128 + 128


CIFAR = """\
    import torch
    import torchvision
    import torchvision.transforms as transforms

    transform = transforms.Compose([transforms.ToTensor(){extra}])
    trainset = torchvision.datasets.CIFAR10(root="./data", train=True, download=True, transform=transform)
    loader = torch.utils.data.DataLoader(trainset, batch_size=16)
    """


@pytest.mark.parametrize("extra,size", [("", 32), (", transforms.Resize(224)", 224)])
def test_a_torchvision_dataset_keeps_its_native_image_size_unless_resized(cli, tmp_path, extra, size):
    write(tmp_path, {"train.py": CIFAR.format(extra=extra)})
    res = cli("audit", "train.py", "--emit-plan", "json", cwd=tmp_path)
    assert winner(json.loads(res.out), "data.image_size") == size


SYNTHETIC = """\
    import torch

    batch_size = 32
    seq_len = 64
    model = Transformer(vocab_size=1024)
    other = Probe()
    optim = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        probe = torch.randn(8, seq_len)
        other(probe)
        x = torch.randint(0, 1024, (batch_size, seq_len))
        loss = model(x).sum()
        loss.backward()
        optim.step()
    """


def test_a_synthetic_batch_fed_to_the_trained_model(cli, tmp_path):
    write(tmp_path, {"example.py": SYNTHETIC})
    res = cli("audit", "example.py", "--emit-plan", "json", cwd=tmp_path)
    assert winner(json.loads(res.out), "batch.micro") == 32  # not the probe's 8: not the trained model


def test_litgpt_finetune_full_has_no_adapter(cli, tmp_path):
    write(tmp_path, {"full.yaml": "checkpoint_dir: checkpoints/meta-llama/Llama-3.2-1B\nprecision: bf16-true\n"
                                  "devices: 1\nnum_nodes: 1\ntrain:\n  micro_batch_size: 4\n"})
    plan, _ = plan_of(cli, "litgpt", "finetune_full", "--config", "full.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") == "none"
    plan, _ = plan_of(cli, "litgpt", "finetune_lora", "--config", "full.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora"
