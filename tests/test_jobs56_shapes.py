"""Shapes of set 29's real jobs that jobs56 reads (issue 15), reproduced in minimal fixtures of our own, each
citing the repository, path and commit it copies the shape of; each with twins that must stay empty or change."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# kbressem/medAlpaca @ 63448c579673 medalpaca/train.py:26-60,133-143,171-175,225-251,279-283 and
# example-train-medalpaca.sh:23-34: a fire.Fire entry whose accumulation is divided by the world size and
# whose FSDP default survives only when distributed and not LoRA
MEDALPACA = """\
    import os

    import fire
    import torch
    from transformers import LlamaForCausalLM, Trainer, TrainingArguments


    def main(
        model: str,
        use_lora: bool = True,
        per_device_batch_size: int = 2,
        global_batch_size: int = 128,
        fsdp: str = "full_shard auto_wrap",
        fsdp_transformer_layer_cls_to_wrap: str = "LlamaDecoderLayer",
    ):
        world_size = int(os.environ.get("WORLD_SIZE", 1))
        ddp = world_size != 1
        gradient_accumulation_steps = global_batch_size // per_device_batch_size
        if ddp:
            gradient_accumulation_steps = gradient_accumulation_steps // world_size
            if use_lora:
                fsdp, fsdp_transformer_layer_cls_to_wrap = "", None
        else:
            fsdp, fsdp_transformer_layer_cls_to_wrap = "", None
        net = LlamaForCausalLM.from_pretrained(model)
        training_args = TrainingArguments(
            per_device_train_batch_size=per_device_batch_size,
            gradient_accumulation_steps=gradient_accumulation_steps,
            output_dir="out",
            fsdp=fsdp,
            fsdp_transformer_layer_cls_to_wrap=fsdp_transformer_layer_cls_to_wrap,
        )
        trainer = Trainer(model=net, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        fire.Fire(main)
"""

MEDALPACA_LAUNCH = """\
    #!/bin/bash
    #SBATCH --gres=gpu:8
    torchrun --nproc_per_node=8 train.py --model huggyllama/llama-7b --use_lora {lora} \\
        --global_batch_size 256 --per_device_batch_size 4
"""


def test_accumulation_divided_by_the_world_size_under_a_decided_guard(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": MEDALPACA, "run.sh": MEDALPACA_LAUNCH.format(lora="False")})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 8 and accum.confidence == "medium"
    assert winner(plan, "batch.global") == 256
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "fsdp_full" and sharding.confidence == "medium"


def test_the_lora_arm_clears_the_fsdp_default(cli, tmp_path: Path) -> None:
    # twin: with LoRA the `if use_lora:` arm rebinds fsdp to "": no FSDP (the Trainer's DDP instead)
    write(tmp_path, {"train.py": MEDALPACA, "run.sh": MEDALPACA_LAUNCH.format(lora="True")})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "fsdp_full"
    assert winner(plan, "batch.grad_accum") == 8


def test_one_process_keeps_the_undivided_accumulation(cli, tmp_path: Path) -> None:
    # twin: plain python sets no WORLD_SIZE, so `ddp` is false: 256 // 4 = 64 and the else arm drops FSDP
    write(tmp_path, {"train.py": MEDALPACA})
    plan = plan_of(cli, "train.py", "--", "--model", "huggyllama/llama-7b", "--use_lora", "False",
                   "--global_batch_size", "256", "--per_device_batch_size", "4", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 64
    assert winner(plan, "dist.sharding") != "fsdp_full"


def test_an_undecided_rebinding_leaves_the_accumulation_unknown(cli, tmp_path: Path) -> None:
    # twin: the guard reads something only known at run time; neither 64 nor 8 may be claimed
    src = MEDALPACA.replace("        if ddp:\n            gradient_accumulation_steps",
                            "        if torch.cuda.device_count() > 4:\n            gradient_accumulation_steps")
    write(tmp_path, {"train.py": src, "run.sh": MEDALPACA_LAUNCH.format(lora="False")})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") is None
    assert winner(plan, "batch.global") is None


def test_a_rebinding_in_a_loop_is_not_followed(cli, tmp_path: Path) -> None:
    # twin: the name is rebound in a loop before the use: unknown
    src = MEDALPACA.replace("        if ddp:\n            gradient_accumulation_steps = gradient_accumulation_steps",
                            "        for _ in range(world_size):\n            gradient_accumulation_steps = "
                            "gradient_accumulation_steps\n        if ddp:\n            gradient_accumulation_steps"
                            " = gradient_accumulation_steps")
    write(tmp_path, {"train.py": src, "run.sh": MEDALPACA_LAUNCH.format(lora="False")})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") is None


# Meituan-AutoML/MobileVLM @ 688fdec914810485c8766da96c63d9d2ce15f750 run.sh:27-38: the language model named by
# its size (MobileLLaMA-1.4B) while the launch line also builds a CLIP vision tower and a projector
VLM_TRAIN = """\
    from dataclasses import dataclass, field
    from typing import Optional

    import transformers


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="facebook/opt-125m")
        vision_tower: Optional[str] = field(default=None)
        mm_projector_type: Optional[str] = field(default="linear")


    def train():
        parser = transformers.HfArgumentParser((ModelArguments,))
        (model_args,) = parser.parse_args_into_dataclasses()
        return model_args


    if __name__ == "__main__":
        train()
"""


def _named(plan: dict) -> list:
    return [f["value"] for f in plan["fields"].get("model.num_parameters", []) if f["adapter"] == "model_size_named"]


def test_a_vision_tower_on_the_line_makes_the_named_size_a_part(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": VLM_TRAIN})
    plan = plan_of(cli, "train.py", "--", "--model_name_or_path", "mtgv/MobileLLaMA-1.4B-Chat", "--vision_tower",
                   "openai/clip-vit-large-patch14-336", "--mm_projector_type", "ldpnetv2", cwd=tmp_path)
    assert _named(plan) == []


def test_twin_without_a_vision_tower_the_named_size_is_taken(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": VLM_TRAIN})
    plan = plan_of(cli, "train.py", "--", "--model_name_or_path", "mtgv/MobileLLaMA-1.4B-Chat", cwd=tmp_path)
    assert _named(plan) == [1_400_000_000]
    # a vision option switched off or given a number names no part
    plan = plan_of(cli, "train.py", "--", "--model_name_or_path", "mtgv/MobileLLaMA-1.4B-Chat", "--vision_tower",
                   "None", cwd=tmp_path)
    assert _named(plan) == [1_400_000_000]


# VectorInstitute/vectorlm @ 9045f08ac1af38c13100cfabdd17412f57dbffd2 examples/llama_example.py:34-48,51-103,186,
# vectorlm/utils/data_utils.py:8-44, vectorlm/utils/model_utils.py:33-54, configs/config.yaml: a project class that
# loads the YAML the launch line names and makes its keys attributes; a LoRA helper of a library module called
# only when the YAML has a key it leaves commented out
VL_MAIN = """\
    import argparse

    from torch.utils.data import DataLoader
    from transformers import AutoModelForCausalLM

    from pkg.data_utils import Config
    from pkg.model_utils import get_lora_model_from_base_model


    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--yaml_path", default="configs/config.yaml", required=False)
        return parser.parse_args()


    def main(config):
        training_args = config.train_parameters
        model = AutoModelForCausalLM.from_pretrained(config.model)
        lora_peft_config = config.train_parameters.get("lora_peft_config")
        if lora_peft_config is not None:
            model = get_lora_model_from_base_model(model, lora_peft_config)
        loader = DataLoader(list(range(10)), batch_size=config.dataset.train_bs)
        for batch in loader:
            loss = model(batch).loss
            loss.backward()


    if __name__ == "__main__":
        args = parse_args()
        config = Config(yaml_path=args.yaml_path)
        main(config)
"""

VL_DATA = """\
    import yaml


    class Config:
        def __init__(self, yaml_path: str, to_box: bool = True) -> None:
            self.yaml_path = yaml_path
            self.to_box = to_box
            self.load_yaml()

        def load_yaml(self) -> None:
            with open(self.yaml_path) as in_path:
                _config = yaml.safe_load(in_path)
            for k, v in _config.items():
                self.__setattr__(k, v)
"""

VL_MODEL = """\
    from peft import LoraConfig, get_peft_model


    def get_lora_model_from_base_model(base_model, peft_config_dict):
        lora_config = LoraConfig(**peft_config_dict)
        return get_peft_model(base_model, lora_config)
"""

VL_YAML = """\
    model: meta-llama/Llama-2-7b-chat-hf
    train_parameters:
      max_seq_len: 4096
    {lora}
    dataset:
      train_bs: 8
"""


def _vectorlm(root: Path, lora: str = "", data: str = VL_DATA) -> None:
    write(root, {"main.py": VL_MAIN, "pkg/__init__.py": "", "pkg/data_utils.py": data, "pkg/model_utils.py": VL_MODEL,
                 "configs/run.yaml": VL_YAML.format(lora=lora)})


def test_a_project_class_loading_the_yaml_gives_its_keys(cli, tmp_path: Path) -> None:
    _vectorlm(tmp_path)
    plan = plan_of(cli, "main.py", "--", "--yaml_path", "configs/run.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/Llama-2-7b-chat-hf"
    assert winner(plan, "batch.micro") == 8


def test_twin_a_class_that_does_not_set_the_keys_is_not_the_file(cli, tmp_path: Path) -> None:
    # the constructor loads the file but keeps it in one attribute: config.model is not a key of the file
    data = VL_DATA.replace("for k, v in _config.items():\n                self.__setattr__(k, v)", "self.raw = _config")
    assert data != VL_DATA
    _vectorlm(tmp_path, data=data)
    plan = plan_of(cli, "main.py", "--", "--yaml_path", "configs/run.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") is None
    assert winner(plan, "batch.micro") is None


def test_a_lora_helper_called_under_an_undecided_guard_is_not_lora(cli, tmp_path: Path) -> None:
    # the library helper builds LoraConfig, but the entry calls it only when the YAML has lora_peft_config
    _vectorlm(tmp_path)
    plan = plan_of(cli, "main.py", "--", "--yaml_path", "configs/run.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
    assert winner(plan, "task.mode") != "lora"


def test_twin_a_lora_helper_called_unconditionally_is_lora(cli, tmp_path: Path) -> None:
    _vectorlm(tmp_path)
    write(tmp_path, {"main.py": VL_MAIN.replace("        if lora_peft_config is not None:\n            model = get_lora",
                                                "        model = get_lora")})
    plan = plan_of(cli, "main.py", "--", "--yaml_path", "configs/run.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora"


# xinntao/Real-ESRGAN @ a4abfb2979a7bbff3f69f58f58ae324608821e27 realesrgan/train.py:1-11, options/
# train_realesrnet_x4plus.yml:1-5,62-70,80-88,96-102, docs/Training.md:127: the whole job handed to the installed
# basicsr.train.train_pipeline, its settings in the BasicSR options YAML named by -opt
ESR_TRAIN = """\
    import os.path as osp
    from basicsr.train import train_pipeline

    import esr.models

    if __name__ == '__main__':
        root_path = osp.abspath(osp.join(__file__, osp.pardir, osp.pardir))
        train_pipeline(root_path)
"""

ESR_MODEL = """\
    from basicsr.models.sr_model import SRModel


    class ESRModel(SRModel):
        def feed_data(self, data):
            self.lq = data['lq'].to(self.device)
"""

ESR_OPTIONS = """\
    name: train_x4_B12G4
    model_type: ESRModel
    scale: 4
    num_gpu: auto
    datasets:
      train:
        name: DF2K
        num_worker_per_gpu: 5
        batch_size_per_gpu: 12
    network_g:
      type: RRDBNet
      num_in_ch: 3
      num_out_ch: 3
      num_feat: 64
      num_block: 23
      num_grow_ch: 32
    train:
      optim_g:
        type: Adam
        lr: !!float 2e-4
"""


def _esr(root: Path, model: str = ESR_MODEL, train: str = ESR_TRAIN) -> None:
    write(root, {"esr/train.py": train, "esr/__init__.py": "", "esr/models/__init__.py": "",
                 "esr/models/esr_model.py": model, "options/x4.yml": ESR_OPTIONS})


_ESR_LINE = ("python", "-m", "torch.distributed.launch", "--nproc_per_node=4", "esr/train.py", "-opt",
             "options/x4.yml")


def test_basicsr_options_named_by_opt_give_the_plan(cli, tmp_path: Path) -> None:
    _esr(tmp_path)
    plan = plan_of(cli, "--", *_ESR_LINE, "--launcher", "pytorch", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 12
    assert winner(plan, "batch.grad_accum") == 1
    assert winner(plan, "batch.global") == 48
    assert winner(plan, "data.num_workers") == 5
    assert winner(plan, "optimizer.name") == "Adam"
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "model.num_parameters") == 16_697_987  # ESRGAN's RRDBNet x4, the published figure
    assert winner(plan, "precision.mode") == "fp32"
    assert winner(plan, "peft.method") == "none"
    micro = fact(plan, "batch.micro")
    assert micro.confidence == "medium" and micro.source.path == "options/x4.yml"


def test_twin_basicsr_without_launcher_or_with_half_precision(cli, tmp_path: Path) -> None:
    # no --launcher: BasicSR runs undistributed (no DDP claimed); a model that casts to half: no fp32
    _esr(tmp_path, model=ESR_MODEL.replace("self.lq = data['lq'].to(self.device)",
                                           "self.lq = data['lq'].to(self.device).half()"))
    plan = plan_of(cli, "--", *_ESR_LINE, cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "ddp"
    assert winner(plan, "precision.mode") is None
    assert winner(plan, "batch.micro") == 12


def test_twin_a_script_that_does_not_hand_over_to_basicsr_is_not_read(cli, tmp_path: Path) -> None:
    # the same options file, but the script runs its own loop: the YAML's keys mean nothing known
    _esr(tmp_path, train="import sys\n\nif __name__ == '__main__':\n    print(sys.argv)\n")
    plan = plan_of(cli, "--", *_ESR_LINE, "--launcher", "pytorch", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "model.num_parameters") is None


def test_rrdbnet_count_follows_the_scale() -> None:
    from preflight.adapters.recipes_basicsr import rrdbnet_count

    x4 = rrdbnet_count(3, 3, 64, 23, 32, 4)
    # scale 2 pixel-unshuffles the input: the first convolution sees 12 channels instead of 3
    assert rrdbnet_count(3, 3, 64, 23, 32, 2) - x4 == 9 * 64 * 9
    assert rrdbnet_count(3, 3, 64, 6, 32, 4) < x4


def _resolved_uses(text: str) -> list:
    """The value the index resolves for each load of ``n`` passed to ``use(...)``, in source order."""
    import ast
    import textwrap

    from preflight.script_index import ScriptIndex
    from preflight.sources import SourceText, parse_python

    text = textwrap.dedent(text)
    parsed = parse_python(SourceText(path=Path("x.py"), display="x.py", kind="python", raw=text.encode(), text=text))
    idx = ScriptIndex(parsed)
    out = []
    for node in ast.walk(parsed.tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "use":
            got = idx.resolve(node.args[0])
            out.append((node.lineno, None if got is None else got.value))
    return [v for _, v in sorted(out, key=lambda p: p[0])]


def test_a_local_followed_in_order_through_its_function() -> None:
    assert _resolved_uses("""\
        def main(k=3):
            n = 8
            use(n)
            n += 2
            if k > 2:
                n = n * k
            else:
                n = 0
            use(n)
            f = lambda n: use(n)
            return f

        main()
    """) == [8, 30, None]  # the lambda's own n is not the local


def test_twin_a_rebinding_the_flow_cannot_decide_is_unknown() -> None:
    assert _resolved_uses("""\
        import random

        def main():
            n = 8
            if random.random() > 0.5:
                n = 4
            use(n)
            while n > 1:
                use(n)
                n = n // 2
    """) == [None, None]


def test_fire_kwargs_are_the_launch_line_rest_so_defaults_are_recorded(cli, tmp_path: Path) -> None:
    # medAlpaca: TrainingArguments(..., **kwargs) with fire's **kwargs holding only --tf32 True from the line
    src = MEDALPACA.replace('        fsdp_transformer_layer_cls_to_wrap: str = "LlamaDecoderLayer",\n    ):',
                            '        fsdp_transformer_layer_cls_to_wrap: str = "LlamaDecoderLayer",\n        **kwargs\n    ):')
    src = src.replace("            fsdp_transformer_layer_cls_to_wrap=fsdp_transformer_layer_cls_to_wrap,\n        )",
                      "            fsdp_transformer_layer_cls_to_wrap=fsdp_transformer_layer_cls_to_wrap,\n"
                      "            **kwargs\n        )")
    assert src.count("**kwargs") == 2
    line = MEDALPACA_LAUNCH.format(lora="False")
    write(tmp_path, {"train.py": src, "run.sh": line.replace("--per_device_batch_size 4", "--per_device_batch_size 4 --tf32 True")})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "data.num_workers") == 0
    assert winner(plan, "data.pin_memory") is True
    # twin: a word the line does not say statically may be any TrainingArguments key: no defaults
    write(tmp_path, {"run.sh": line.replace("--per_device_batch_size 4", "--per_device_batch_size 4 --dataloader_num_workers $W")})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "data.num_workers") is None
