"""Shapes of the sixth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# artidoro/qlora qlora.py:129-206,289-330,689-704 @ 7f4e95a68dc076bea9b3a413d2b512eca6d004e5:
# the dataclasses are merged into one argparse.Namespace handed to a helper, and the 4-bit load
# is a comparison with the option (load_in_4bit=args.bits == 4).
QLORA = """\
    import argparse
    from dataclasses import dataclass, field
    from typing import Optional

    import torch
    import transformers
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="EleutherAI/pythia-12b")


    @dataclass
    class TrainingArguments(transformers.Seq2SeqTrainingArguments):
        double_quant: bool = field(default=True)
        quant_type: str = field(default="nf4")
        bits: int = field(default=4)
        lora_r: int = field(default=64)


    def get_accelerate_model(args):
        model = AutoModelForCausalLM.from_pretrained(
            args.model_name_or_path,
            load_in_4bit=args.bits == 4,
            load_in_8bit=args.bits == 8,
            quantization_config=BitsAndBytesConfig(
                load_in_4bit=args.bits == 4,
                load_in_8bit=args.bits == 8,
                bnb_4bit_use_double_quant=args.double_quant,
                bnb_4bit_quant_type=args.quant_type,
            ),
        )
        model = get_peft_model(model, LoraConfig(r=args.lora_r))
        return model


    def train():
        hfparser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = hfparser.parse_args_into_dataclasses()
        args = argparse.Namespace(**vars(model_args), **vars(training_args))
        model = get_accelerate_model(args)
        transformers.Seq2SeqTrainer(model=model, args=training_args).train()


    if __name__ == "__main__":
        train()
    """


def test_comparison_with_an_option_through_a_merged_namespace(cli, tmp_path: Path) -> None:
    write(tmp_path, {"qlora.py": QLORA})
    plan = plan_of(cli, "qlora.py", "--", "--model_name_or_path", "huggyllama/llama-7b", "--bits", "4",
                   "--quant_type", "fp4", "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 4
    assert winner(plan, "precision.quant_type") == "fp4"
    assert winner(plan, "task.mode") == "qlora"


def test_comparison_false_from_the_line_is_no_4bit_load(cli, tmp_path: Path) -> None:
    write(tmp_path, {"qlora.py": QLORA})
    plan = plan_of(cli, "qlora.py", "--", "--model_name_or_path", "huggyllama/llama-7b", "--bits", "16",
                   "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") != 4
    assert winner(plan, "task.mode") == "lora"


# mistralai/mistral-finetune train.py:175-188,231-250 @ 1943535d8e6d46b2eb47de8b81df07fec3ca5c15:
# a plain PyTorch loop whose LoRA is built inside the project's own model package
# (finetune/wrapped_model.py, model/lora.py), never with peft.
MISTRAL_TRAIN = """\
    import torch
    from torch.optim import AdamW

    from finetune.wrapped_model import load_model


    def train(args):
        model = load_model(folder=args.model_id_or_path, lora=args.lora, checkpoint=True)
        optimizer = AdamW(model.parameters(), lr=1e-4)
        for batch in range(10):
            loss = model(batch)
            loss.backward()
            optimizer.step()
    """
MISTRAL_WRAPPED = """\
    import torch


    def load_model(folder, lora, checkpoint):
        model = torch.nn.Linear(8, 8)
        if lora.enable:
            for name, param in model.named_parameters():
                param.requires_grad = "lora" in name
        return model
    """


def test_full_training_is_a_guess_when_lora_lives_in_a_local_module(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": MISTRAL_TRAIN, "finetune/__init__.py": "", "finetune/wrapped_model.py": MISTRAL_WRAPPED})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    mode = fact(plan, "task.mode")
    assert mode is None or mode.confidence == "low"


def test_full_training_stays_sure_without_lora_anywhere(cli, tmp_path: Path) -> None:
    wrapped = MISTRAL_WRAPPED.replace('        if lora.enable:\n            for name, param in model.named_parameters():\n'
                                      '                param.requires_grad = "lora" in name\n', "")
    train = MISTRAL_TRAIN.replace("lora=args.lora, ", "").replace("def load_model(folder, lora,", "def load_model(folder,")
    write(tmp_path, {"train.py": train, "finetune/__init__.py": "",
                     "finetune/wrapped_model.py": wrapped.replace("folder, lora, checkpoint", "folder, checkpoint")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    mode = fact(plan, "task.mode")
    assert mode is not None and mode.value == "train" and mode.confidence == "high"


# THUDM/ChatGLM-6B ptuning/main.py @ 401bf3a8a7dd8a26fba189551dccfc61a7079b4e (requirements.txt:2
# transformers==4.27.1 at the repository root) and ymcui/Chinese-LLaMA-Alpaca-2
# scripts/training/run_clm_sft_with_peft.py @ 2a334d1634c857a7f02f885026d02ac4b469479d
# (requirements.txt:3 transformers==4.35.0): the job is audited from a sub-folder.
HF_TRAIN = """\
    from transformers import AutoModelForCausalLM, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

    parser = HfArgumentParser((Seq2SeqTrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("THUDM/chatglm-6b")
    Seq2SeqTrainer(model=model, args=training_args).train()
    """


def test_version_pinned_at_the_repository_root_above_the_audited_folder(cli, tmp_path: Path) -> None:
    write(tmp_path, {"repo/requirements.txt": "protobuf\ntransformers==4.27.1\n", "repo/ptuning/main.py": HF_TRAIN})
    plan = plan_of(cli, "main.py", "--", "--output_dir", "o", cwd=tmp_path / "repo" / "ptuning")
    optim = fact(plan, "optimizer.name")
    assert optim is not None and optim.value == "adamw_hf"  # the default before transformers 4.32
    assert any("requirements.txt:2" in n for n in plan["notes"])


def test_version_between_4_32_and_4_45_defaults_to_adamw_torch(cli, tmp_path: Path) -> None:
    write(tmp_path, {"repo/requirements.txt": "transformers==4.35.0\n", "repo/scripts/training/main.py": HF_TRAIN})
    plan = plan_of(cli, "main.py", "--", "--output_dir", "o", cwd=tmp_path / "repo" / "scripts" / "training")
    assert winner(plan, "optimizer.name") == "adamw_torch"


def test_no_version_search_past_a_repository_root(cli, tmp_path: Path) -> None:
    write(tmp_path, {"requirements.txt": "transformers==4.27.1\n", "repo/main.py": HF_TRAIN})
    (tmp_path / "repo" / ".git").mkdir()
    plan = plan_of(cli, "main.py", "--", "--output_dir", "o", cwd=tmp_path / "repo")
    assert winner(plan, "optimizer.name") != "adamw_hf"
    assert not any("4.27.1" in n for n in plan["notes"])


# jzhang38/TinyLlama pretrain/tinyllama.py:26-34,78-104,110-125 and lit_gpt/config.py:8-40,248-265
# @ bf122247c486b6b897050e98cbb7bedae8eeba73, launched by PRETRAIN.md:62-69
# (lightning run model --devices=8 --num-nodes=2 pretrain/tinyllama.py --devices 8).
TINY_PRETRAIN = """\
    from pathlib import Path

    import lightning as L
    import torch
    from lightning.fabric.strategies import FSDPStrategy, XLAStrategy

    from lit_gpt.model import GPT, Block, Config

    model_name = "tiny_LLaMA_1b"
    micro_batch_size = 8


    def setup(devices: int = 8, tpu: bool = False) -> None:
        if devices > 1:
            if tpu:
                strategy = XLAStrategy(sync_module_states=False)
            else:
                strategy = FSDPStrategy(auto_wrap_policy={Block}, activation_checkpointing_policy=None)
        else:
            strategy = "auto"
        fabric = L.Fabric(devices=devices, strategy=strategy, precision="bf16-mixed")
        main(fabric)


    def main(fabric):
        config = Config.from_name(model_name)
        loader = make_loader(block_size=config.block_size)
        model = fabric.setup(GPT(config))
        optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4)


    if __name__ == "__main__":
        from jsonargparse import CLI

        CLI(setup)
    """
LIT_CONFIG = """\
    from dataclasses import dataclass
    from typing import Optional


    @dataclass
    class Config:
        org: str = "Lightning-AI"
        name: str = "lit-GPT"
        block_size: int = 4096
        vocab_size: int = 50254
        padding_multiple: int = 512
        padded_vocab_size: Optional[int] = None
        n_layer: int = 16
        n_head: int = 32
        n_embd: int = 4096
        n_query_groups: Optional[int] = None
        bias: bool = True
        _norm_class: str = "LayerNorm"
        _mlp_class: str = "GptNeoxMLP"
        intermediate_size: Optional[int] = None

        @classmethod
        def from_name(cls, name, **kwargs):
            conf_dict = name_to_config[name].copy()
            return cls(**conf_dict)


    configs = [
        dict(
            org="StatNLP-research",
            name="tiny_LLaMA_1b",
            block_size=2048,
            vocab_size=32000,
            padding_multiple=64,
            n_layer=22,
            n_head=32,
            n_embd=2048,
            bias=False,
            _norm_class="FusedRMSNorm",
            _mlp_class="LLaMAMLP",
            intermediate_size=5632,
            n_query_groups=4,
        ),
        dict(org="StatNLP-research", name="tiny_LLaMA_120M", block_size=2048, vocab_size=32000, n_layer=12,
             n_head=12, n_embd=768, _mlp_class="LLaMAMLP", intermediate_size=2048, n_query_groups=1),
    ]
    name_to_config = {config["name"]: config for config in configs}
    """
TINY_LINE = ["--", "lightning", "run", "model", "--node-rank=0", "--main-address=172.16.101.5", "--accelerator=cuda",
             "--devices=8", "--num-nodes=2", "pretrain/tinyllama.py", "--devices", "8"]


def tiny(tmp_path: Path, script: str = TINY_PRETRAIN) -> None:
    write(tmp_path, {"pretrain/tinyllama.py": script, "lit_gpt/__init__.py": "",
                     "lit_gpt/model.py": "from lit_gpt.config import Config\n", "lit_gpt/config.py": LIT_CONFIG})


def test_model_from_a_config_catalog_of_the_project(cli, tmp_path: Path) -> None:
    tiny(tmp_path)
    plan = plan_of(cli, *TINY_LINE, cwd=tmp_path)
    params = fact(plan, "model.num_parameters")
    # 22 x (qkv 2048*(32+8)*64 + proj 2048^2 + MLP 3*2048*5632 + 2 RMSNorm) + 2*32000*2048 + 2048
    assert params is not None and params.value == 1_100_048_384 and params.source.path == "lit_gpt/config.py"
    assert winner(plan, "data.seq_len") == 2048  # not the class default 4096


def test_catalog_entry_not_found_claims_no_model(cli, tmp_path: Path) -> None:
    tiny(tmp_path, TINY_PRETRAIN.replace('"tiny_LLaMA_1b"', '"tiny_LLaMA_7b"'))
    plan = plan_of(cli, *TINY_LINE, cwd=tmp_path)
    assert fact(plan, "model.num_parameters") is None


def test_fabric_strategy_object_in_code_beats_the_launchers_auto(cli, tmp_path: Path) -> None:
    tiny(tmp_path)
    plan = plan_of(cli, *TINY_LINE, cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_full"  # not DDP from lightning run model's --strategy auto
    assert winner(plan, "dist.world_size") == 16


def test_fabric_without_a_strategy_in_code_is_ddp_from_the_launcher(cli, tmp_path: Path) -> None:
    tiny(tmp_path, TINY_PRETRAIN.replace("strategy=strategy, ", ""))
    plan = plan_of(cli, *TINY_LINE, cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "ddp"


# huggingface/open-r1 src/open_r1/sft.py:49,101-108,167-168, setup.py:70-72 and
# recipes/OpenR1-Distill-7B/sft/config_distill.yaml:34-47 @ 1416fa0cf21595d2083b399a2a0bbddd7f6e9563:
# TrlParser with SFTConfig, the values in a --config YAML, versions pinned in setup.py.
OPEN_R1 = """\
    from dataclasses import dataclass

    from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser, get_peft_config


    def main(script_args, training_args, model_args):
        trainer = SFTTrainer(model=model_args.model_name_or_path, args=training_args,
                             peft_config=get_peft_config(model_args))
        trainer.train()


    if __name__ == "__main__":
        parser = TrlParser((ScriptArguments, SFTConfig, ModelConfig))
        script_args, training_args, model_args = parser.parse_args_and_config()
        main(script_args, training_args, model_args)
    """
OPEN_R1_YAML = """\
    model_name_or_path: open-r1/Qwen2.5-Math-7B-RoPE-300k
    per_device_train_batch_size: 2
    max_length: 32768
    use_liger_kernel: true
    """
OPEN_R1_SETUP = """\
    _deps = [
        "torch==2.6.0",
        "transformers==4.52.3",
        "trl[vllm]==0.18.0",
    ]
    """


def test_liger_and_the_default_optim_of_an_sft_config_read_by_trlparser(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/open_r1/sft.py": OPEN_R1, "recipes/sft.yaml": OPEN_R1_YAML, "setup.py": OPEN_R1_SETUP})
    plan = plan_of(cli, "src/open_r1/sft.py", "--", "--config", "recipes/sft.yaml", cwd=tmp_path)
    assert winner(plan, "loss.implementation") == "fused"
    optim = fact(plan, "optimizer.name")
    # transformers 4.52 with torch 2.6: the fused default needs torch >= 2.8
    assert optim is not None and optim.value == "adamw_torch" and optim.source.kind == "default"


def test_no_liger_and_no_optim_claim_without_versions(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/open_r1/sft.py": OPEN_R1,
                     "recipes/sft.yaml": OPEN_R1_YAML.replace("use_liger_kernel: true", "use_liger_kernel: false")})
    plan = plan_of(cli, "src/open_r1/sft.py", "--", "--config", "recipes/sft.yaml", cwd=tmp_path)
    assert winner(plan, "loss.implementation") != "fused"
    # transformers 5.x assumed, torch unknown: adamw_torch or adamw_torch_fused, so only the algorithm is said
    optim = fact(plan, "optimizer.name")
    assert optim is not None and optim.value == "AdamW" and optim.confidence == "low"


# facebookresearch/DiT train.py:15,139-155,174,262-265 and models.py:145-160,328-329
# @ ed81ce2229091fd4ecc9a223645f95cf379d582b: a plain PyTorch DDP loop over a model from a local
# module; neither file names PEFT/LoRA or activation checkpointing.
DIT_TRAIN = """\
    import argparse

    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader

    from models import DiT_models


    def main(args):
        dist.init_process_group("nccl")
        model = DiT_models[args.model](input_size=args.image_size // 8)
        model = DDP(model.cuda(), device_ids=[dist.get_rank()])
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)
        loader = DataLoader(range(10), batch_size=int(args.global_batch_size // dist.get_world_size()),
                            num_workers=args.num_workers)
        checkpoint_dir = "results/checkpoints"
        for x in loader:
            loss = model(x).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            checkpoint = {"model": model.module.state_dict()}
            torch.save(checkpoint, f"{checkpoint_dir}/last.pt")


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", type=str, default="DiT-XL/2")
        parser.add_argument("--image-size", type=int, choices=[256, 512], default=256)
        parser.add_argument("--global-batch-size", type=int, default=256)
        parser.add_argument("--num-workers", type=int, default=4)
        main(parser.parse_args())
    """
DIT_MODELS = """\
    import torch.nn as nn


    class DiT(nn.Module):
        def __init__(self, input_size=32, depth=28, hidden_size=1152):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(hidden_size, hidden_size) for _ in range(depth)])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x


    def DiT_XL_2(**kwargs):
        return DiT(depth=28, hidden_size=1152, **kwargs)


    DiT_models = {"DiT-XL/2": DiT_XL_2}
    """
DIT_LINE = ["--", "torchrun", "--nnodes=1", "--nproc_per_node=8", "train.py", "--model", "DiT-XL/2"]


def test_plain_loop_with_no_peft_or_checkpointing_named_anywhere(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": DIT_TRAIN, "models.py": DIT_MODELS})
    plan = plan_of(cli, *DIT_LINE, cwd=tmp_path)
    peft, ckpt = fact(plan, "peft.method"), fact(plan, "memory.gradient_checkpointing")
    assert peft is not None and peft.value == "none" and peft.confidence == "medium"
    assert ckpt is not None and ckpt.value is False and ckpt.confidence == "medium"


def test_checkpointing_in_the_model_module_is_not_called_absent(cli, tmp_path: Path) -> None:
    # the model module imports checkpoint and calls it behind a switch (an import never used names nothing since
    # jobs83: tests/test_jobs83_shapes.py)
    models = DIT_MODELS.replace("import torch.nn as nn\n", "import torch.nn as nn\nfrom torch.utils.checkpoint import checkpoint\n")
    models = models.replace("x = block(x)", "x = checkpoint(block, x) if self.grad_ckpt else block(x)")
    assert "checkpoint(block, x)" in models
    write(tmp_path, {"train.py": DIT_TRAIN, "models.py": models})
    plan = plan_of(cli, *DIT_LINE, cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not False
    assert winner(plan, "peft.method") == "none"


# mistralai/mistral-finetune: train.py -> finetune/wrapped_model.py -> model/transformer.py:6,166-169
# (torch_ckpt.checkpoint_wrapper) and model/lora.py: found two imports away.
def test_checkpointing_and_lora_two_imports_away_are_not_called_absent(cli, tmp_path: Path) -> None:
    wrapped = "import torch\nfrom model.transformer import Transformer\n\n\ndef load_model(folder):\n    return Transformer()\n"
    transformer = ("import torch\nimport torch.distributed.algorithms._checkpoint.checkpoint_wrapper as torch_ckpt\n"
                   "from model.lora import LoRALinear\n\n\nclass Transformer(torch.nn.Module):\n    pass\n")
    train = MISTRAL_TRAIN.replace("lora=args.lora, checkpoint=True", "")
    write(tmp_path, {"train.py": train, "finetune/__init__.py": "", "finetune/wrapped_model.py": wrapped,
                     "model/__init__.py": "", "model/transformer.py": transformer,
                     "model/lora.py": "import torch\n\n\nclass LoRALinear(torch.nn.Module):\n    pass\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not False
    assert winner(plan, "peft.method") != "none"


def test_batch_divided_by_the_world_size_in_the_loader(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": DIT_TRAIN, "models.py": DIT_MODELS})
    plan = plan_of(cli, *DIT_LINE, "--global-batch-size", "512", cwd=tmp_path)
    assert winner(plan, "batch.global") == 512
    assert winner(plan, "batch.micro") == 64  # 512 // 8 processes


def test_a_variable_named_half_is_no_precision_setting(cli, tmp_path: Path) -> None:
    # DiT models.py:51-53 ``half = dim // 2`` in the timestep embedder
    models = DIT_MODELS.replace("for block in self.blocks:", "half = x.shape[-1] // 2\n"
                                "            for block in self.blocks:")
    write(tmp_path / "a", {"train.py": DIT_TRAIN, "models.py": models})
    assert winner(plan_of(cli, *DIT_LINE, cwd=tmp_path / "a"), "precision.mode") == "fp32"
    write(tmp_path / "b", {"train.py": DIT_TRAIN, "models.py": models.replace("half = x.shape[-1] // 2",
                                                                               "x = x.to(torch.half)")})
    assert winner(plan_of(cli, *DIT_LINE, cwd=tmp_path / "b"), "precision.mode") != "fp32"


# THUDM/ChatGLM-6B ptuning/main.py:176-177,186-225,384-387 @ 401bf3a8a7dd8a26fba189551dccfc61a7079b4e:
# source and target truncated separately, the sum pads the sequence; another sum (+1) is only a
# generation length for evaluate().
CHATGLM = """\
    from dataclasses import dataclass, field

    from transformers import AutoModel, AutoTokenizer, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments


    @dataclass
    class DataTrainingArguments:
        max_source_length: int = field(default=1024)
        max_target_length: int = field(default=128)


    def main():
        parser = HfArgumentParser((DataTrainingArguments, Seq2SeqTrainingArguments))
        data_args, training_args = parser.parse_args_into_dataclasses()
        tokenizer = AutoTokenizer.from_pretrained("THUDM/chatglm-6b")
        model = AutoModel.from_pretrained("THUDM/chatglm-6b")

        def preprocess_function_eval(examples):
            return tokenizer(examples, max_length=data_args.max_source_length, truncation=True, padding=True)

        def preprocess_function_train(examples):
            max_seq_length = data_args.max_source_length + data_args.max_target_length
            out = []
            for a_ids, b_ids in examples:
                if len(a_ids) > data_args.max_source_length - 1:
                    a_ids = a_ids[: data_args.max_source_length - 1]
                input_ids = a_ids + b_ids
                pad_len = max_seq_length - len(input_ids)
                out.append(input_ids + [tokenizer.pad_token_id] * pad_len)
            return out

        trainer = Seq2SeqTrainer(model=model, args=training_args)
        trainer.train()
        max_seq_length = data_args.max_source_length + data_args.max_target_length + 1
        trainer.evaluate(max_length=max_seq_length)


    if __name__ == "__main__":
        main()
    """


def test_source_plus_target_sum_that_pads_the_sequence(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": CHATGLM})
    plan = plan_of(cli, "main.py", "--", "--max_source_length", "64", "--max_target_length", "64",
                   "--output_dir", "o", cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq is not None and seq.value == 128 and seq.source.line == 22  # not the evaluate() length 129


def test_a_sum_only_given_to_evaluate_is_not_the_sequence_length(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": CHATGLM.replace("pad_len = max_seq_length - len(input_ids)", "pad_len = 0")})
    plan = plan_of(cli, "main.py", "--", "--max_source_length", "64", "--max_target_length", "64",
                   "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "data.seq_len") not in (128, 129)


# artidoro/qlora qlora.py:447-480,655-665 @ 7f4e95a68dc076bea9b3a413d2b512eca6d004e5: the collator
# tokenizes source and target separately and concatenates them.
QLORA_COLLATOR = QLORA.replace("""    def train():""", """    @dataclass
    class DataCollatorForCausalLM(object):
        tokenizer: object
        source_max_len: int
        target_max_len: int

        def __call__(self, instances):
            sources = [example["input"] for example in instances]
            targets = [example["output"] for example in instances]
            tokenized_sources_with_prompt = self.tokenizer(sources, max_length=self.source_max_len, truncation=True)
            tokenized_targets = self.tokenizer(targets, max_length=self.target_max_len, truncation=True)
            input_ids = []
            for tokenized_source, tokenized_target in zip(
                tokenized_sources_with_prompt["input_ids"], tokenized_targets["input_ids"]
            ):
                input_ids.append(torch.tensor(tokenized_source + tokenized_target))
            return input_ids


    def train():""").replace("""        model = get_accelerate_model(args)
""", """        model = get_accelerate_model(args)
        collator = DataCollatorForCausalLM(tokenizer=None, source_max_len=args.source_max_len,
                                           target_max_len=args.target_max_len)
""").replace("""        lora_r: int = field(default=64)
""", """        lora_r: int = field(default=64)
        source_max_len: int = field(default=1024)
        target_max_len: int = field(default=256)
""")


def test_two_tokenizer_calls_concatenated_sum_their_bounds(cli, tmp_path: Path) -> None:
    write(tmp_path, {"qlora.py": QLORA_COLLATOR})
    plan = plan_of(cli, "qlora.py", "--", "--model_name_or_path", "huggyllama/llama-7b", "--source_max_len", "16",
                   "--target_max_len", "512", "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 528


def test_two_tokenizer_calls_not_concatenated_are_not_summed(cli, tmp_path: Path) -> None:
    write(tmp_path, {"qlora.py": QLORA_COLLATOR.replace("tokenized_source + tokenized_target", "tokenized_source")})
    plan = plan_of(cli, "qlora.py", "--", "--model_name_or_path", "huggyllama/llama-7b", "--source_max_len", "16",
                   "--target_max_len", "512", "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "data.seq_len") != 528


# mistralai/mistral-finetune finetune/wrapped_model.py:12-13,186-196 @ 1943535d8e6d46b2eb47de8b81df07fec3ca5c15:
# the FSDP wrapper is built in the project's package, not in train.py.
FSDP_WRAPPED = """\
    import torch
    from torch.distributed.fsdp.api import ShardingStrategy
    from torch.distributed.fsdp.fully_sharded_data_parallel import FullyShardedDataParallel


    def load_model(folder):
        model = torch.nn.Linear(8, 8)
        return FullyShardedDataParallel(model, sharding_strategy=ShardingStrategy.FULL_SHARD, limit_all_gathers=True)
    """


def test_fsdp_wrapper_in_a_local_package_module(cli, tmp_path: Path) -> None:
    train = MISTRAL_TRAIN.replace("lora=args.lora, checkpoint=True", "")
    write(tmp_path, {"train.py": train, "finetune/__init__.py": "", "finetune/wrapped_model.py": FSDP_WRAPPED})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "train.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "fsdp_full" and sharding.source.path == "finetune/wrapped_model.py"


def test_fsdp_shard_grad_op_in_a_local_module_and_no_wrapper_says_nothing(cli, tmp_path: Path) -> None:
    train = MISTRAL_TRAIN.replace("lora=args.lora, checkpoint=True", "")
    write(tmp_path / "a", {"train.py": train, "finetune/__init__.py": "",
                           "finetune/wrapped_model.py": FSDP_WRAPPED.replace("FULL_SHARD", "SHARD_GRAD_OP")})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "train.py", cwd=tmp_path / "a")
    assert winner(plan, "dist.sharding") == "fsdp_grad_op"
    write(tmp_path / "b", {"train.py": train, "finetune/__init__.py": "", "finetune/wrapped_model.py":
                           "import torch\n\n\ndef load_model(folder):\n    return torch.nn.Linear(8, 8)\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "train.py", cwd=tmp_path / "b")
    assert winner(plan, "dist.sharding") is None


# jzhang38/TinyLlama pretrain/tinyllama.py:32-34,50,117-124,301-336: module-level batch sizes, and
# helpers whose parameter ``batch_size`` shadows the global ``batch_size``.
TINY_LOADERS = """\
    import torch
    from torch.utils.data import DataLoader

    global_batch_size = 512
    num_of_devices = 8
    micro_batch_size = 8
    batch_size = global_batch_size // num_of_devices


    def create_dataloader(batch_size, block_size, data_dir):
        dataset = list(range(block_size))
        return DataLoader(dataset, batch_size=batch_size, shuffle=False, pin_memory=True)


    def create_dataloaders(batch_size, block_size, train_data_dir):
        effective_block_size = block_size + 1
        return create_dataloader(batch_size=batch_size, block_size=effective_block_size, data_dir=train_data_dir)


    def main():
        model = torch.nn.Linear(8, 8)
        loader = create_dataloaders(batch_size=micro_batch_size, block_size=2048, train_data_dir="data")
        optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4)
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    main()
    """


def test_a_helper_parameter_shadowing_a_global_takes_the_value_passed(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TINY_LOADERS})
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") == 8  # not the global 64


def test_a_parameter_rebound_in_its_function_is_not_resolved_from_calls(cli, tmp_path: Path) -> None:
    script = TINY_LOADERS.replace("        dataset = list(range(block_size))\n",
                                  "        dataset = list(range(block_size))\n        batch_size = batch_size * 2\n")
    write(tmp_path, {"train.py": script})
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") != 8
