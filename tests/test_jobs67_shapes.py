"""Set 33 (issue 15) shapes read wrong or not at all, rebuilt from the real code.

- An unquoted ``$((...))`` in a launch line or in a variable spread on it is one word
  (WisdomShell/codeshell @ 09d1adc ``finetune/run_finetune.sh:17-19``:
  ``deepspeed_args="--master_port=$((10000 + RANDOM % 20000))"`` then ``deepspeed ${deepspeed_args}
  finetune.py ...``; the reader split the expression and took ``+`` as the script, exit 3);
  NVIDIA/Megatron-LM ``examples/post_training/modelopt/conf/arguments.sh:86`` holds the same shape.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write
from preflight.adapters.shell import read_shell
from preflight.adapters.shell_lex import shell_words, split_value

HF_TRAIN = """\
    from dataclasses import dataclass, field
    import transformers

    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")

    parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
"""

DS = """\
    {"zero_optimization": {"stage": 3}, "bf16": {"enabled": "auto"},
     "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}
"""

CODESHELL = """\
    #!/bin/bash
    project_dir=$(cd "$(dirname $0)"; pwd)
    model=$1
    deepspeed_args="--master_port=$((10000 + RANDOM % 20000))"      # Default argument

    deepspeed ${deepspeed_args} ${project_dir}/train.py \\
        --deepspeed ${project_dir}/ds.json \\
        --model_name_or_path ${model} \\
        --output_dir out \\
        --per_device_train_batch_size 1 \\
        --gradient_accumulation_steps 8 \\
        --bf16 \\
        | tee log/train.log \\
        2> log/train.err
"""


def test_arithmetic_expansion_is_one_word() -> None:
    assert shell_words("deepspeed --master_port=$((10000 + RANDOM % 20000)) x.py") == [
        "deepspeed", "--master_port=$((10000 + RANDOM % 20000))", "x.py"]
    assert shell_words("torchrun --master_port $(( 10000 + (RANDOM % 9) )) x.py --a 'b c'") == [
        "torchrun", "--master_port", "$(( 10000 + (RANDOM % 9) ))", "x.py", "--a", "b c"]
    # inside single quotes nothing expands: the quotes decide the words, as before
    assert shell_words("echo '$((1 + 2))' x") == ["echo", "$((1 + 2))", "x"]
    assert split_value("--master_port=$((10000 + RANDOM % 20000)) --include=localhost:0,1") == [
        "--master_port=$((10000 + RANDOM % 20000))", "--include=localhost:0,1"]
    assert split_value("--a 1  --b 2") == ["--a", "1", "--b", "2"]


def test_variable_holding_arithmetic_on_the_launch_line_keeps_the_script() -> None:
    text = ('deepspeed_args="--master_port=$((10000 + RANDOM % 20000))"\n'
            "deepspeed ${deepspeed_args} finetune.py --per_device_train_batch_size 1 | tee log 2> err\n")
    (line,) = read_shell(text, "run.sh").launches
    assert line.info.launcher == "deepspeed"
    assert line.info.script == "finetune.py"
    assert line.info.script_args == ["--per_device_train_batch_size", "1"]


def test_megatron_launch_held_in_a_variable_with_unknown_arithmetic() -> None:
    text = 'LAUNCH_SCRIPT="torchrun --nproc_per_node=$((ETP * EP * PP))"\n${LAUNCH_SCRIPT} train.py --x 1\n'
    (line,) = read_shell(text, "run.sh").launches
    assert line.info.launcher == "torchrun"
    assert line.info.script == "train.py"
    assert line.info.procs_per_node is None  # the names are not known: not guessed
    assert any("not known statically" in n for n in line.info.notes)


def test_twin_known_arithmetic_is_still_evaluated() -> None:
    text = "N=2\nG=4\ntorchrun --nproc_per_node $((N * G)) train.py\n"
    (line,) = read_shell(text, "run.sh").launches
    assert (line.info.procs_per_node, line.info.script) == (8, "train.py")


def test_codeshell_launch_script_gives_the_plan(cli, tmp_path) -> None:
    write(tmp_path, {"train.py": HF_TRAIN, "ds.json": DS, "run.sh": CODESHELL})
    plan = plan_of(cli, "run.sh", "--", "WisdomShell/CodeShell-7B", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "WisdomShell/CodeShell-7B"
    assert fact(plan, "dist.sharding").value == "zero3"
    assert fact(plan, "batch.micro").value == 1
    assert fact(plan, "batch.grad_accum").value == 8


# --- DeepCTR-Torch's Keras-style compile (shenweichen/DeepCTR-Torch @ f685425
# examples/run_classification_criteo.py:58, deepctr_torch/models/basemodel.py:433-445) ---

BASEMODEL = """\
    import torch
    import torch.nn as nn

    class BaseModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(4, 1)

        def compile(self, optimizer, loss=None, metrics=None):
            self.optim = torch.optim.Adagrad(self.parameters()) if optimizer == "adagrad" else optimizer
            self.loss_func = nn.functional.binary_cross_entropy

        def fit(self, x, y, batch_size=32, epochs=1):
            loader = torch.utils.data.DataLoader(list(zip(x, y)), batch_size=batch_size)
            for xb, yb in loader:
                loss = self.loss_func(torch.sigmoid(self.linear(xb)), yb)
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()
"""

KERAS_SCRIPT = """\
    import torch
    from basemodel import BaseModel

    model = BaseModel()
    model.compile({args})
    model.fit(torch.randn(64, 4), torch.rand(64, 1), batch_size=32)
"""


def _compile_plan(cli, tmp_path, args: str) -> dict:
    write(tmp_path, {"basemodel.py": BASEMODEL, "train.py": KERAS_SCRIPT.format(args=args)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_keras_style_compile_is_not_torch_compile(cli, tmp_path) -> None:
    plan = _compile_plan(cli, tmp_path, '"adagrad", "binary_crossentropy",\n              metrics=["auc"], ')
    got = fact(plan, "compile.enabled")
    assert got is None or got.value is False
    assert not [f for f in plan["fields"].get("compile.enabled", []) if f["value"] is True]


def test_keras_style_compile_with_keywords_only_is_not_torch_compile(cli, tmp_path) -> None:
    plan = _compile_plan(cli, tmp_path, 'optimizer="adagrad", loss="binary_crossentropy"')
    assert not [f for f in plan["fields"].get("compile.enabled", []) if f["value"] is True]


def test_twin_module_compile_with_torch_options_is_compile(cli, tmp_path) -> None:
    plan = _compile_plan(cli, tmp_path, 'mode="max-autotune", fullgraph=True')
    got = fact(plan, "compile.enabled")
    assert got is not None and got.value is True
    assert got.source.line == 5


def test_twin_bare_module_compile_is_compile(cli, tmp_path) -> None:
    got = fact(_compile_plan(cli, tmp_path, ""), "compile.enabled")
    assert got is not None and got.value is True


# --- small-doge: TRL ModelConfig torch_dtype handed to the load (SmallDoges/small-doge @ 0e305a7
# recipes/doge/Doge-160M-Instruct/sft/config_full.yaml:22, src/small_doge/trainer/sft.py:108-121,
# recipes/accelerate_configs/ddp.yaml:8 mixed_precision: bf16) ---

TRL_SFT = """\
    import torch
    from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser

    def main(script_args, training_args, model_args):
        torch_dtype = (
            model_args.torch_dtype if model_args.torch_dtype in ["auto", None] else getattr(torch, model_args.torch_dtype)
        )
        model_kwargs = dict(revision=model_args.model_revision, torch_dtype=torch_dtype)
        training_args.model_init_kwargs = model_kwargs
        trainer = SFTTrainer(model=model_args.model_name_or_path, args=training_args, train_dataset=None)
        trainer.train()

    if __name__ == "__main__":
        parser = TrlParser((ScriptArguments, SFTConfig, ModelConfig))
        script_args, training_args, model_args = parser.parse_args_and_config()
        main(script_args, training_args, model_args)
"""

ACC_DDP = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    mixed_precision: bf16
    num_machines: 1
    num_processes: 8
"""


def _trl_plan(cli, tmp_path, yaml_extra: str, script: str = TRL_SFT) -> dict:
    write(tmp_path, {"sft.py": script, "ddp.yaml": ACC_DDP,
                     "config.yaml": "model_name_or_path: gpt2\n" + yaml_extra + "bf16: true\n"
                                    "per_device_train_batch_size: 4\n"})
    return plan_of(cli, "--", "accelerate", "launch", "--config_file", "ddp.yaml", "sft.py",
                   "--config", "config.yaml", cwd=tmp_path)


def test_torch_dtype_option_handed_to_the_load_makes_bf16_weights(cli, tmp_path) -> None:
    plan = _trl_plan(cli, tmp_path, "torch_dtype: bfloat16\n")
    got = fact(plan, "precision.mode")
    assert (got.value, got.confidence) == ("bf16", "medium")
    assert "over weights loaded in bf16 (config.yaml:2)" in got.source.detail
    bits = fact(plan, "precision.weights_bits")
    assert (bits.value, bits.source.path, bits.source.line) == (16, "config.yaml", 2)
    assert not [f for f in plan["fields"]["precision.mode"] if f["confidence"] == "high" and f["value"] == "bf16"]


def test_twin_no_torch_dtype_keeps_autocast(cli, tmp_path) -> None:
    got = fact(_trl_plan(cli, tmp_path, ""), "precision.mode")
    assert got.value == "amp_bf16"


def test_twin_fp32_dtype_keeps_autocast(cli, tmp_path) -> None:
    plan = _trl_plan(cli, tmp_path, "torch_dtype: float32\n")
    assert fact(plan, "precision.mode").value == "amp_bf16"
    assert fact(plan, "precision.weights_bits") is None or fact(plan, "precision.weights_bits").value != 16


def test_twin_dtype_option_the_script_never_hands_on_keeps_autocast(cli, tmp_path) -> None:
    script = TRL_SFT.replace("torch_dtype=torch_dtype", "use_cache=False").replace(
        "getattr(torch, model_args.torch_dtype)", "None")
    plan = _trl_plan(cli, tmp_path, "torch_dtype: bfloat16\n", script)
    assert fact(plan, "precision.mode").value == "amp_bf16"


# lifeiteng/vall-e @ the set's pin, bin/trainer.py:233 and :659: ``--dtype bfloat16`` goes to
# ``torch.cuda.amp.autocast(dtype=dtype, enabled=enabled)`` (apple/ml-4m the same through ``evaluate(...,
# dtype=dtype)``): autocast, never bf16 weights (both were read as bf16 weights before this twin)
_AUTOCAST_DTYPE = """\
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", type=str, default="float32")
    args = parser.parse_args()
    dtype = {"bfloat16": torch.bfloat16, "float16": torch.float16}.get(args.dtype, torch.float32)
    enabled = dtype != torch.float32
    model = torch.nn.Linear(8, 8).cuda()
    opt = torch.optim.AdamW(model.parameters())
    for x in torch.randn(10, 4, 8):
        with torch.cuda.amp.autocast(dtype=dtype, enabled=enabled):
            loss = model(x.cuda()).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def test_twin_dtype_option_given_to_autocast_is_not_bf16_weights(cli, tmp_path) -> None:
    write(tmp_path, {"trainer.py": _AUTOCAST_DTYPE})
    plan = plan_of(cli, "--", "python", "trainer.py", "--dtype", "bfloat16", cwd=tmp_path)
    got = fact(plan, "precision.mode")
    assert got is None or got.value != "bf16", got
    bits = fact(plan, "precision.weights_bits")
    assert bits is None or bits.value != 16, bits


def test_twin_lora_over_bf16_weights_stays_autocast(cli, tmp_path) -> None:
    # PEFT keeps the adapters fp32: autocast over them (the derive step does not turn it)
    plan = _trl_plan(cli, tmp_path, "torch_dtype: bfloat16\nuse_peft: true\n")
    assert fact(plan, "precision.mode").value == "amp_bf16"


# --- demucs: ``dora run model=htdemucs`` (facebookresearch/demucs @ e976d93 docs/training.md:61-73,
# demucs/train.py:222 ``@hydra_main(config_path="../conf", config_name="config")`` from dora,
# demucs/distrib.py:44-51 ``if world_size == 1: return model`` before DistributedDataParallel) ---

DORA_TRAIN = """\
    import torch
    from dora import hydra_main
    from torch.utils.data import DataLoader
    from . import distrib

    @hydra_main(config_path="../conf", config_name="config", version_base="1.1")
    def main(args):
        distrib.init()
        model = distrib.wrap(torch.nn.Linear(4, 4))
        if args.optim.optim == "adam":
            optimizer = torch.optim.Adam(model.parameters(), lr=args.optim.lr)
        else:
            raise ValueError("bad optimizer")
        loader = DataLoader(list(range(64)), batch_size=args.batch_size, num_workers=args.misc.num_workers)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()

    if __name__ == "__main__":
        main()
"""

DISTRIB = """\
    import torch
    from torch.nn.parallel.distributed import DistributedDataParallel

    world_size = 1

    def init():
        global world_size
        world_size = torch.distributed.get_world_size() if torch.distributed.is_initialized() else 1

    def wrap(model):
        if world_size == 1:
            return model
        else:
            return DistributedDataParallel(model, device_ids=[torch.cuda.current_device()])
"""

DORA_CONF = """\
    batch_size: 64
    optim:
      optim: adam
      lr: 0.0003
    misc:
      num_workers: 10
"""


def _dora_project(tmp_path, distrib: str = DISTRIB) -> None:
    write(tmp_path, {"mypkg/__init__.py": "", "mypkg/train.py": DORA_TRAIN, "mypkg/distrib.py": distrib,
                     "conf/config.yaml": DORA_CONF, "tools/__init__.py": ""})


def test_dora_run_is_the_train_module_in_one_process(cli, tmp_path) -> None:
    _dora_project(tmp_path)
    plan = plan_of(cli, "--", "dora", "run", "batch_size=32", cwd=tmp_path)
    assert any("dora run: Dora runs mypkg.train" in n for n in plan["notes"])
    assert fact(plan, "dist.world_size").value == 1
    assert fact(plan, "batch.micro").value == 32  # the override on the line
    assert fact(plan, "optimizer.name").value == "Adam"
    assert fact(plan, "data.num_workers").value == 10
    sharding = fact(plan, "dist.sharding")
    assert (sharding.value, sharding.confidence, sharding.source.path) == ("none", "medium", "mypkg/distrib.py")
    assert sharding.source.line == 14


def test_dora_package_named_with_p_and_ddp_runs_one_process_per_gpu(cli, tmp_path) -> None:
    _dora_project(tmp_path)
    plan = plan_of(cli, "--", "dora", "-P", "mypkg", "run", "-d", cwd=tmp_path)
    assert any("one worker process per visible GPU" in n for n in plan["notes"])
    assert fact(plan, "dist.world_size") is None or fact(plan, "dist.world_size").value != 1
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "none"


def test_dora_grid_is_said_not_read(cli, tmp_path) -> None:
    _dora_project(tmp_path)
    res = cli("audit", "--emit-plan", "json", "--", "dora", "grid", "mygrid", cwd=tmp_path)
    assert res.code == 3
    assert "only `dora run`" in res.err + res.out


def test_unknown_launcher_is_said_not_an_empty_pass(cli, tmp_path) -> None:
    write(tmp_path, {"train.py": "print(1)\n"})
    res = cli("audit", "--", "mytool", "fit", "model=x", cwd=tmp_path)
    assert res.code == 3
    assert "not a launcher preflight reads" in res.err + res.out


def test_twin_ddp_wrapper_under_more_than_one_process_with_several_processes_stays_ddp(cli, tmp_path) -> None:
    _dora_project(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "-m", "mypkg.train", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"


def test_twin_unguarded_ddp_wrapper_in_one_process_stays_ddp(cli, tmp_path) -> None:
    unguarded = DISTRIB.replace("        if world_size == 1:\n            return model\n        else:\n    ", "")
    unguarded = unguarded.replace("            return DistributedDataParallel", "        return DistributedDataParallel")
    _dora_project(tmp_path, unguarded)
    plan = plan_of(cli, "--", "dora", "run", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"


def test_world_size_guard_shapes() -> None:
    import ast
    import textwrap

    from preflight.adapters.ddp_world_guard import single_process_skips

    def skips(src: str, line: int) -> bool:
        return single_process_skips(ast.parse(textwrap.dedent(src)), line)

    assert skips("def f(m):\n    if world_size > 1:\n        m = DDP(m)\n    return m\n", 3)
    assert skips("def f(m):\n    if dist.get_world_size() == 1:\n        return m\n    return DDP(m)\n", 4)
    assert skips("def f(m):\n    if 1 < self.world_size:\n        m = DDP(m)\n", 3)
    assert not skips("def f(m):\n    if world_size >= 1:\n        m = DDP(m)\n", 3)
    assert not skips("def f(m):\n    if rank == 0:\n        return m\n    return DDP(m)\n", 4)
    assert not skips("def f(m):\n    if world_size == 1:\n        print(m)\n    return DDP(m)\n", 4)


# --- words that stopped the visible-code absences: a data scaler (yang-song/score_sde_pytorch @ cb1f359
# run_lib.py:86 ``scaler = datasets.get_data_scaler(config)``), a rotary helper's ``half`` and prose
# (time-series-foundation-models/lag-llama @ 013ff0c lag_llama/model/module.py:176,450), an adapter-pattern
# class (thu-ml/tianshou @ f240205 tianshou/utils/net/common.py:75 ``ModuleWithVectorOutputAdapter``) ---

LOOP_MAIN = """\
    import torch
    from engine import run

    if __name__ == "__main__":
        run()
"""

ENGINE = """\
    import torch
    from torch import nn


    class ModuleWithVectorOutputAdapter(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 4)

        def forward(self, x):
            return self.net(x)


    def rotate_half(x):
        \"\"\"Rotates half the hidden dims of the input.\"\"\"
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


    def run():
        scaler = get_data_scaler()
        model = ModuleWithVectorOutputAdapter()
        optimizer = torch.optim.Adam(model.parameters())
        for x in [torch.zeros(2, 4)]:
            loss = model(rotate_half(scaler(x))).sum()
            {step}


    def get_data_scaler():
        return lambda x: x * 2.0 - 1.0
"""

PLAIN_STEP = "loss.backward()\n            optimizer.step()\n            optimizer.zero_grad()"


def _words_plan(cli, tmp_path, step: str = PLAIN_STEP, engine: str = ENGINE) -> dict:
    write(tmp_path, {"train.py": LOOP_MAIN, "engine.py": engine.replace("{step}", step)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_data_scaler_rotary_half_and_adapter_class_leave_fp32_and_no_peft(cli, tmp_path) -> None:
    plan = _words_plan(cli, tmp_path)
    precision = fact(plan, "precision.mode")
    assert (precision.value, precision.confidence) == ("fp32", "medium")
    peft = fact(plan, "peft.method")
    assert (peft.value, peft.confidence) == ("none", "medium")


def test_precision_words_of_the_absence_reader() -> None:
    from preflight.adapters.visible_code import _PRECISION_WORDS

    silent = ["scaler = datasets.get_data_scaler(config)\nbatch = scaler(batch)",
              "self.scaler = MeanScaler(dim=1)\nloc, scale = self.scaler(x, weights)",
              '"""Rotates half the hidden dims of the input."""', "half = x.shape[-1] // 2",
              "x1, x2 = x[..., :half], x[..., half:]"]
    for text in silent:
        assert _PRECISION_WORDS.search(text) is None, text
    loud = ["scaler.scale(loss).backward()", "scaler.step(optimizer)", "scaler.unscale_(optimizer)",
            "scaler(loss, optimizer, parameters=model.parameters())", "model = model.half()",
            "dtype = torch.half if half else None", "if args.half:", "parser.add_argument('--half')",
            "half: true", "use_half = cfg.use_half", "scaler = torch.cuda.amp.GradScaler()"]
    for text in loud:
        assert _PRECISION_WORDS.search(text) is not None, text


def test_a_local_named_amp_is_no_amp() -> None:
    # lag-llama @ 013ff0c data/augmentations/freq_mix.py:37-40: an amplitude named ``amp``
    from preflight.adapters.visible_code import _PRECISION_WORDS, _local_amp

    assert _PRECISION_WORDS.search(_local_amp("amp = abs(xy_f)\n_, index = amp.sort(dim=dim)\n")) is None
    for text in ("from apex import amp\nmodel, opt = amp.initialize(model, opt)\n",
                 "amp = torch.cuda.amp\nwith amp.autocast():\n    pass\n",
                 "amp = args.amp\n", "if amp == 1:\n    x = 2\n"):
        assert _PRECISION_WORDS.search(_local_amp(text)) is not None, text


def test_twin_a_lora_adapter_class_keeps_peft_unknown(cli, tmp_path) -> None:
    engine = ENGINE.replace("ModuleWithVectorOutputAdapter", "BottleneckAdapter").replace(
        "class BottleneckAdapter", "class Adapter(nn.Module):\n    pass\n\n\nclass BottleneckAdapter").replace(
        "model = BottleneckAdapter()", "model = BottleneckAdapter()\n        extra = Adapter()")
    peft = fact(_words_plan(cli, tmp_path, engine=engine), "peft.method")
    assert peft is None or peft.value != "none"


def test_trl_packing_in_the_yaml_is_packed(cli, tmp_path) -> None:
    got = fact(_trl_plan(cli, tmp_path, "packing: true\nmax_length: 2048\n"), "data.padding")
    assert (got.value, got.source.path, got.source.line) == ("packed", "config.yaml", 2)


def test_twin_trl_packing_false_is_not_packed(cli, tmp_path) -> None:
    got = fact(_trl_plan(cli, tmp_path, "packing: false\n"), "data.padding")
    assert got is None or got.value != "packed"


# --- codeshell finetune.py:211-213: transformers.Trainer(..., tokenizer=tokenizer) and no data_collator ---

HF_TOK = """\
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained("gpt2")
    model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
    args = transformers.TrainingArguments(output_dir="out", per_device_train_batch_size=2)

    def preprocess(text):
        ids = tokenizer(text{pad})["input_ids"][:512]
        return dict(input_ids=ids, labels=ids)

    dataset = [preprocess(t) for t in ["a b", "c"]]
    trainer = transformers.Trainer(model=model, args=args, train_dataset=dataset, {extra})
    trainer.train()
"""


def _tok_plan(cli, tmp_path, pad: str = "", extra: str = "tokenizer=tokenizer") -> dict:
    write(tmp_path, {"train.py": HF_TOK.replace("{pad}", pad).replace("{extra}", extra)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_trainer_with_a_tokenizer_and_no_collator_pads_dynamically(cli, tmp_path) -> None:
    got = fact(_tok_plan(cli, tmp_path), "data.padding")
    assert (got.value, got.confidence, got.source.line) == ("dynamic", "medium", 12)
    got = fact(_tok_plan(cli, tmp_path, extra="processing_class=tokenizer"), "data.padding")
    assert got.value == "dynamic"


def test_twin_trainer_with_its_own_collator_or_pre_padded_samples(cli, tmp_path) -> None:
    got = fact(_tok_plan(cli, tmp_path, extra="tokenizer=tokenizer, data_collator=None"), "data.padding")
    assert got is None or "DataCollatorWithPadding" not in (got.source.detail or "")
    got = fact(_tok_plan(cli, tmp_path, pad=', padding="max_length", max_length=512'), "data.padding")
    assert got is None or got.value != "dynamic"
    got = fact(_tok_plan(cli, tmp_path, extra="data_collator=lambda b: b"), "data.padding")
    assert got is None or got.value != "dynamic"


# --- SimCTG @ 3a91449 document_generation/trainer.py:56-57: transformers' AdamW imported inside the function ---

SIMCTG_MAIN = """\
    import argparse
    import torch
    from trainer import model_training

    parser = argparse.ArgumentParser()
    parser.add_argument("--learning_rate", type=float, default=2e-5)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4)
    model_training(args, model)
"""

SIMCTG_TRAINER = """\
    import torch

    def model_training(args, model):
        from transformers.optimization import {what}, get_linear_schedule_with_warmup
        optimizer = {ctor}(model.parameters(), lr=args.learning_rate)
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=10, num_training_steps=100)
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
"""


def test_transformers_adamw_imported_in_the_training_function(cli, tmp_path) -> None:
    write(tmp_path, {"train.py": SIMCTG_MAIN,
                     "trainer.py": SIMCTG_TRAINER.format(what="AdamW", ctor="AdamW")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name")
    assert (got.value, got.source.path, got.source.line) == ("AdamW", "trainer.py", 5)


def test_twin_a_torch_optimizer_beside_the_transformers_scheduler(cli, tmp_path) -> None:
    write(tmp_path, {"train.py": SIMCTG_MAIN,
                     "trainer.py": SIMCTG_TRAINER.format(what="Adafactor", ctor="torch.optim.SGD")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name")
    assert got is not None and got.value == "SGD"


# --- MMCV 1.x / mmaction2 0.x (SwinTransformer/Video-Swin-Transformer, set 33: tools/train.py keeps
# ``--launcher`` in its options, configs/recognition/swin/...kinetics400_1k.py:63-64,115-117
# ``videos_per_gpu=8``, ``optimizer_config=dict(type='DistOptimizerHook', update_interval=4, ...)``) ---

MMCV1_TRAIN = """\
    import argparse

    from mmcv import Config
    from mmcv.runner import init_dist


    def parse_args():
        parser = argparse.ArgumentParser(description='Train a recognizer')
        parser.add_argument('config', help='train config file path')
        parser.add_argument(
            '--launcher',
            choices=['none', 'pytorch', 'slurm', 'mpi'],
            default='none',
            help='job launcher')
        return parser.parse_args()


    def main():
        args = parse_args()
        cfg = Config.fromfile(args.config)
        if args.launcher == 'none':
            distributed = False
        else:
            distributed = True
            init_dist(args.launcher)
        train_model(cfg, distributed=distributed)


    if __name__ == '__main__':
        main()
"""

MMCV1_CFG = """\
    model = dict(type='Recognizer3D', backbone=dict(type='SwinTransformer3D'))
    data = dict(
        videos_per_gpu=8,
        workers_per_gpu=4,
        train=dict(type='VideoDataset'))
    optimizer = dict(type='AdamW', lr=1e-3)
    optimizer_config = dict(
        type="DistOptimizerHook",
        update_interval={interval},
        grad_clip=None)
"""


def _mmcv1_plan(cli, tmp_path, launcher: str = "pytorch", interval: str = "4") -> dict:
    write(tmp_path, {"tools/train.py": MMCV1_TRAIN, "configs/swin.py": MMCV1_CFG.replace("{interval}", interval)})
    return plan_of(cli, "--", "python", "-m", "torch.distributed.launch", "--nproc_per_node=8", "tools/train.py",
                   "configs/swin.py", "--launcher", launcher, cwd=tmp_path)


def test_mmcv1_videos_per_gpu_update_interval_and_launcher(cli, tmp_path) -> None:
    plan = _mmcv1_plan(cli, tmp_path)
    micro, accum = fact(plan, "batch.micro"), fact(plan, "batch.grad_accum")
    assert (micro.value, micro.source.path, micro.source.line) == (8, "configs/swin.py", 3)
    assert (accum.value, accum.source.line) == (4, 9)
    assert fact(plan, "dist.sharding").value == "ddp"
    assert fact(plan, "batch.global").value == 8 * 4 * 8
    assert fact(plan, "data.num_workers").value == 4


def test_twin_mmcv1_without_launcher_or_interval(cli, tmp_path) -> None:
    plan = _mmcv1_plan(cli, tmp_path, launcher="none", interval="None")
    got = fact(plan, "dist.sharding")
    assert got is None or got.value != "ddp" or "MMCV 1.x" not in (got.source.detail or "")
    got = fact(plan, "batch.grad_accum")
    assert got is None or "optimizer_config" not in (got.source.key or "")
