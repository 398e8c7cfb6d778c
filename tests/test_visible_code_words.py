"""The words that make a job's PEFT / activation checkpointing / torch.compile unknown (adapters/visible_code.py,
adapters/pytorch_local.py): a mention that switches nothing on (a help text, nn.Upsample's
``recompute_scale_factor``, an unused ``import torch.utils.checkpoint``, a Hugging Face model's
``supports_gradient_checkpointing``, ``torch._dynamo.config``, OpenVINO's ``compile_model``, the HTTP adapter of
``requests``) no longer hides the absence; each fixture is our own small rewrite of a real shape, and each has a
twin where the feature is really used and nothing is claimed."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write


def by(plan: dict, field: str):
    """The fact the plan uses (the absence is written by the pytorch adapter when the loop is in the
    script, by visible_code when it is in a local module: the same word lists)."""
    return fact(plan, field)


# WongKinYiu/yolov9 @ 5b1ea9a8b3f0ffe4fe0e203ec6232d788bb3fcff: train_dual.py's plain loop
# (scaler.scale(loss).backward()), models/experimental.py (``m.recompute_scale_factor = None`` for nn.Upsample,
# torch 1.11 compatibility), utils/autoanchor.py (``if bpr > 0.98:  # threshold to recompute``), models/common.py
# (an OpenVINO export path ``executable_network = ie.compile_model(network, device_name="CPU")``).
YOLO = {
    "train.py": """\
        import torch
        from torch import nn
        from helpers import fix_upsample, check_anchors, load_openvino


        def main():
            model = fix_upsample(nn.Sequential(nn.Linear(4, 4), nn.Upsample(scale_factor=2)))
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            check_anchors(0.99)
            for x in [torch.zeros(2, 4)]:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()


        if __name__ == "__main__":
            main()
    """,
    "helpers.py": """\
        from torch import nn


        def fix_upsample(model):
            for m in model.modules():
                if type(m) is nn.Upsample:
                    m.recompute_scale_factor = None  # torch 1.11 compatibility
            return model


        def check_anchors(bpr):
            if bpr < 0.98:  # threshold to recompute
                print("anchors")


        def load_openvino(path):
            from openvino.runtime import Core
            ie = Core()
            network = ie.read_model(model=path)
            return ie.compile_model(network, device_name="CPU")
    """,
}


def test_upsample_option_a_comment_and_openvino_switch_nothing_on(cli, tmp_path):
    write(tmp_path, YOLO)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    ckpt = by(plan, "memory.gradient_checkpointing")
    assert ckpt is not None and ckpt.value is False and ckpt.confidence == "medium"
    compiled = by(plan, "compile.enabled")
    assert compiled is not None and compiled.value is False and compiled.confidence == "medium"


def test_a_real_checkpoint_call_and_torch_compile_keep_them_unknown(cli, tmp_path):
    """Twin: the helper module really checkpoints a block and compiles the model."""
    files = dict(YOLO)
    files["helpers.py"] = files["helpers.py"].replace(
        "            return model\n",
        "            import torch.utils.checkpoint as cp\n"
        "            model.ck = lambda x: cp.checkpoint(model[0], x)\n"
        "            return torch.compile(model)\n", 1).replace("from torch import nn", "import torch\nfrom torch import nn")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert by(plan, "memory.gradient_checkpointing") is None
    assert by(plan, "compile.enabled") is None


# openvla/openvla @ c8f03f48af692657d3060c19588038c7220e9af9 prismatic/extern/hf/modeling_prismatic.py:179 (a
# PreTrainedModel subclass declaring ``supports_gradient_checkpointing: bool = True``), Plachtaa/seed-vc @ d334fb7
# (a vendored model whose forward guards ``if self.gradient_checkpointing and self.training:`` around
# ``self._gradient_checkpointing_func``), DepthAnything/Depth-Anything-V2 @ a561b84 depth_anything_v2/dinov2.py:17
# (``import torch.utils.checkpoint`` never called); the script never calls gradient_checkpointing_enable().
HF_MODEL = {
    "finetune.py": """\
        import torch
        from vendored import TinyModel


        model = TinyModel()
        optimizer = torch.optim.AdamW(model.parameters())
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
    "vendored.py": """\
        import torch
        import torch.utils.checkpoint
        from torch import nn


        class TinyModel(nn.Module):
            supports_gradient_checkpointing: bool = True

            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4)])
                self.gradient_checkpointing = False

            def forward(self, x):
                for layer in self.layers:
                    if self.gradient_checkpointing and self.training:
                        x = self._gradient_checkpointing_func(layer.__call__, x)
                    else:
                        x = layer(x)
                return x
    """,
}


def test_a_declared_but_unused_checkpointing_is_off(cli, tmp_path):
    write(tmp_path, HF_MODEL)
    plan = plan_of(cli, "finetune.py", cwd=tmp_path)
    ckpt = by(plan, "memory.gradient_checkpointing")
    assert ckpt is not None and ckpt.value is False and ckpt.confidence == "medium"


def test_enabling_it_keeps_it_unknown(cli, tmp_path):
    """Twin: the script switches the model's checkpointing on."""
    files = dict(HF_MODEL)
    files["finetune.py"] = files["finetune.py"].replace(
        "model = TinyModel()\n", "model = TinyModel()\n        model.gradient_checkpointing = True\n")
    write(tmp_path, files)
    plan = plan_of(cli, "finetune.py", cwd=tmp_path)
    assert by(plan, "memory.gradient_checkpointing") is None


# huggingface/pytorch-image-models @ aa4b5850c1543fa488abf260f18390eda46cf85d train.py (an argparse help text
# "Fraction of uniform random exploration"), allenai/OLMo-core @ fa6c501 (``from requests.adapters import
# HTTPAdapter``), TRI-ML/prismatic-vlms @ 874c5bb (``from logging import LoggerAdapter``), bytedance/1d-tokenizer
# utils/logger.py (accelerate's ``MultiProcessAdapter``), Stability-AI/
# stable-audio-tools @ 50049e3 (``torch._dynamo.config.cache_size_limit = ...`` with no compile call).
WORDS = {
    "train.py": """\
        import argparse
        import logging
        from logging import LoggerAdapter

        import torch
        from accelerate.logging import MultiProcessAdapter
        from requests.adapters import HTTPAdapter

        parser = argparse.ArgumentParser()
        parser.add_argument("--random-mix", type=float, default=0.0,
                            help="Fraction of uniform random exploration over the choices")
        args = parser.parse_args()
        log = LoggerAdapter(logging.getLogger(__name__), {})
        ranked = MultiProcessAdapter(logging.getLogger(__name__), {})
        retry = HTTPAdapter(max_retries=3)
        torch._dynamo.config.cache_size_limit = 64

        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
}


def test_exploration_http_and_logger_adapters_and_dynamo_config_name_no_peft_or_compile(cli, tmp_path):
    write(tmp_path, WORDS)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    peft = by(plan, "peft.method")
    assert peft is not None and peft.value == "none" and peft.confidence == "medium"
    assert by(plan, "compile.enabled").value is False


def test_lora_and_dynamo_optimize_keep_them_unknown(cli, tmp_path):
    """Twin: the same script with a LoRA option and a model compiled through torch._dynamo.optimize."""
    files = {"train.py": WORDS["train.py"].replace(
        '        args = parser.parse_args()\n',
        '        parser.add_argument("--lora-rank", type=int, default=8)\n        args = parser.parse_args()\n').replace(
        "        optimizer = torch.optim.AdamW",
        "        model = torch._dynamo.optimize(\"inductor\")(model)\n        optimizer = torch.optim.AdamW")}
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert by(plan, "peft.method") is None
    assert by(plan, "compile.enabled") is None


# XLabs-AI/x-flux @ 4749542 src/flux/model.py:78-82,168-180: a model class keeping checkpointing off behind its own
# flag (set False in __init__, diffusers' _set_gradient_checkpointing hook, an `if self.training and
# self.gradient_checkpointing:` guard); the script never turns it on
FLAG_MODEL = {
    "model.py": """\
        import torch


        class Flux(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.block = torch.nn.Linear(4, 4)
                self.gradient_checkpointing = False

            def _set_gradient_checkpointing(self, module, value=False):
                if hasattr(module, "gradient_checkpointing"):
                    module.gradient_checkpointing = value

            def forward(self, x):
                if self.training and self.gradient_checkpointing:
                    x = torch.utils.checkpoint.checkpoint(self.block, x, use_reentrant=False)
                else:
                    x = self.block(x)
                return x
    """,
    "train.py": """\
        import torch
        from model import Flux

        model = Flux()
        optimizer = torch.optim.AdamW(model.parameters())
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
}


def test_checkpointing_a_model_keeps_off_behind_its_flag_is_no_use(cli, tmp_path):
    write(tmp_path, FLAG_MODEL)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "memory.gradient_checkpointing")
    assert got is not None and got.value is False


def test_twin_a_script_that_turns_the_flag_on_keeps_it_unknown(cli, tmp_path):
    files = dict(FLAG_MODEL)
    files["train.py"] = FLAG_MODEL["train.py"].replace(
        "model = Flux()\n", "model = Flux()\n        model.gradient_checkpointing = True\n")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "memory.gradient_checkpointing")
    assert got is None or got.value is True
