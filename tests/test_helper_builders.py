"""Quantization and LoRA configs built by a project helper the script calls, under `if param is
None:` defaults the call leaves (issue 15): a small rewrite of our own with the shape of
InternLM/xtuner @ b934f46 xtuner/apis/model.py:11-31 (re-exported by xtuner/apis/__init__.py) and
examples/huggingface_trainer/train_qlora_hf.py:15-17."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

HELPERS = """\
    import torch
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig
    from mypkg.model import SupervisedFinetune

    def build_qlora_model(model_name_or_path, quantization_config=None, lora_config=None, use_4bit=False):
        if quantization_config is None:
            quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_use_double_quant=True,
                                                     bnb_4bit_quant_type="nf4",
                                                     bnb_4bit_compute_dtype=torch.float16)
        if lora_config is None:
            lora_config = LoraConfig(r=32, lora_alpha=16, task_type="CAUSAL_LM")
        llm = AutoModelForCausalLM.from_pretrained(model_name_or_path, quantization_config=quantization_config)
        return SupervisedFinetune(llm, lora=lora_config)

    def build_other(model_name_or_path):
        return LoraConfig(r=4), BitsAndBytesConfig(load_in_8bit=True)
    """

SCRIPT = """\
    from transformers import Trainer, TrainingArguments
    from mypkg.apis import build_qlora_model

    model = build_qlora_model(model_name_or_path="org/model")
    Trainer(model=model, args=TrainingArguments("out")).train()
    """


WRAPPER = """\
    import torch

    class SupervisedFinetune(torch.nn.Module):
        def __init__(self, llm, lora=None, use_activation_checkpointing=True):
            super().__init__()
            self.llm = llm
            if use_activation_checkpointing:
                self.llm.gradient_checkpointing_enable()
    """


def project(tmp_path, script=SCRIPT, helpers=HELPERS, wrapper=WRAPPER):
    write(tmp_path, {"mypkg/__init__.py": "", "mypkg/apis/__init__.py": "from .model import build_qlora_model\n",
                     "mypkg/apis/model.py": helpers, "mypkg/model/__init__.py": "from .sft import SupervisedFinetune\n",
                     "mypkg/model/sft.py": wrapper, "train.py": script})


def test_defaults_the_call_leaves_in_place(cli, tmp_path):
    project(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 4
    assert winner(plan, "precision.quant_type") == "nf4"
    assert winner(plan, "precision.double_quant") is True
    assert winner(plan, "peft.method") == "lora" and winner(plan, "peft.rank") == 32
    assert winner(plan, "task.mode") == "qlora"


def test_passed_configs_undecided_guards_and_uncalled_helpers_say_nothing(cli, tmp_path):
    # the call passes its own quantization config: the helper's default one is not built
    project(tmp_path, SCRIPT.replace('model_name_or_path="org/model"',
                                     'model_name_or_path="org/model", quantization_config=None or {}'))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") is None
    assert winner(plan, "peft.rank") == 32  # the LoRA default still applies
    # a guard on an option the helper gets (not a None default): undecided, nothing read
    project(tmp_path, helpers=HELPERS.replace("if quantization_config is None:", "if use_4bit:"))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") is None
    # build_other is never called: its 8-bit config and rank 4 are not the job's
    assert winner(plan, "peft.rank") != 4


def test_a_model_wrapper_left_at_its_checkpointing_default(cli, tmp_path):
    # xtuner/model/sft.py:84-117: use_activation_checkpointing=True -> gradient_checkpointing_enable()
    project(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True
    project(tmp_path, helpers=HELPERS.replace("SupervisedFinetune(llm, lora=lora_config)",
                                              "SupervisedFinetune(llm, lora=lora_config, use_activation_checkpointing=False)"))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not True
