"""``model.load_placement`` read from the order of a script's calls (adapters/_placement.py):
where each rank holds the weights before ZeRO-3 or FSDP shards them, and the estimator's
load phase that follows from it."""

from __future__ import annotations

import json
import textwrap

from preflight.audit import build_plan
from preflight.estimate import input_from_plan

ZERO3 = {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}


def _plan(tmp_path, code, config=None):
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    configs = []
    if config is not None:
        (tmp_path / "ds.json").write_text(json.dumps(config), encoding="utf-8")
        configs = [tmp_path / "ds.json"]
    plan, _ = build_plan([tmp_path / "train.py"], configs, root=tmp_path)
    return plan


def _placement(plan):
    fact = plan.resolve("model.load_placement")
    return (fact.value, fact.source.line) if fact is not None else None


def test_from_pretrained_before_training_arguments_loads_whole_model_on_gpu(tmp_path):
    # PF413's shape: the DeepSpeed config is registered after the load
    plan = _plan(tmp_path, """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        def main():
            model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
            args = TrainingArguments(output_dir="out", deepspeed="ds.json")
            Trainer(model=model, args=args).train()
        """, ZERO3)
    assert _placement(plan) == ("gpu", 4)
    inp = input_from_plan(plan, {"seq_len": 512, "world_size": 8})
    assert inp.load_placement == "gpu"


def test_training_arguments_first_loads_sharded(tmp_path):
    plan = _plan(tmp_path, """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        def main():
            args = TrainingArguments(output_dir="out", deepspeed="ds.json")
            model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
            Trainer(model=model, args=args).train()
        """, ZERO3)
    assert _placement(plan) == ("sharded", 5)


def test_from_pretrained_under_zero_init_loads_sharded(tmp_path):
    plan = _plan(tmp_path, """\
        import deepspeed
        from transformers import AutoModelForCausalLM

        with deepspeed.zero.Init(config_dict_or_path="ds.json"):
            model = AutoModelForCausalLM.from_pretrained("bigscience/bloom-7b1")
        engine, *_ = deepspeed.initialize(model=model, config="ds.json")
        """, ZERO3)
    assert _placement(plan) == ("sharded", 5)


def test_cuda_before_fsdp_wrap_is_gpu_and_cpu_model_is_unknown(tmp_path):
    plan = _plan(tmp_path, """\
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from transformers import AutoModelForCausalLM

        def main():
            model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
            model = model.cuda()
            model = FSDP(model)
        """)
    assert _placement(plan) == ("gpu", 7)
    twin = tmp_path / "twin"
    twin.mkdir()
    plan = _plan(twin, """\
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from transformers import AutoModelForCausalLM

        def main():
            model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
            model = FSDP(model, device_id=torch.cuda.current_device())
            model.to("cuda")
        """)
    assert _placement(plan) is None


def test_to_cuda_string_before_deepspeed_initialize(tmp_path):
    # torchao's benchmark_low_bit_adam.py: model.cuda() then deepspeed.initialize
    plan = _plan(tmp_path, """\
        import deepspeed
        import timm

        model = timm.create_model("vit_giant_patch14_dinov2.lvd142m", num_classes=45)
        model.to("cuda:0")
        model, optim, _, _ = deepspeed.initialize(model=model, config="ds.json")
        """, ZERO3)
    assert _placement(plan) == ("gpu", 5)


def test_own_model_passed_to_deepspeed_initialize_without_zero_init_is_gpu(tmp_path):
    # DeepSpeedExamples training/bf16_master_weight/train.py's shape (est20): the model is built
    # by the script and handed to deepspeed.initialize; nothing in the file uses zero.Init
    plan = _plan(tmp_path, """\
        import deepspeed
        import torch.nn as nn

        class Net(nn.Module):
            pass

        def main():
            model = Net()
            engine, optimizer, _, _ = deepspeed.initialize(
                model=model, model_parameters=model.parameters(), config="ds.json")
        """, ZERO3)
    assert _placement(plan) == ("gpu", 9)
    inp = input_from_plan(plan, {"seq_len": 512, "world_size": 4})
    assert inp.load_placement == "gpu"


def test_own_model_under_zero_init_or_hf_config_is_not_read_as_gpu(tmp_path):
    # built under zero.Init: partitioned while built (the wrapper is installed); no fact
    plan = _plan(tmp_path, """\
        import deepspeed
        import torch.nn as nn

        def main():
            with deepspeed.zero.Init(config_dict_or_path="ds.json"):
                model = nn.Linear(4096, 4096)
            engine, *_ = deepspeed.initialize(model=model, config="ds.json")
        """, ZERO3)
    assert _placement(plan) is None
    # a DeepSpeed config registered for transformers first: the load is sharded
    twin = tmp_path / "twin"
    twin.mkdir()
    plan = _plan(twin, """\
        import deepspeed
        from transformers import AutoModelForCausalLM
        from transformers.integrations import HfDeepSpeedConfig

        def main():
            dschf = HfDeepSpeedConfig("ds.json")
            model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
            engine, *_ = deepspeed.initialize(model=model, config="ds.json")
        """, ZERO3)
    assert _placement(plan) == ("sharded", 7)
