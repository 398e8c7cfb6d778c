"""A model built from the project's own ``PretrainedConfig`` subclass (issue 15, branch jobs20),
and the ``baichuan`` model type of the architecture reader. Minimal fixtures of our own with the
shape of baichuan-inc/Baichuan-7B @ 6f3ef4633a90c2d8a3e0763d0dec1b8dc11588f5: ``train.py:109-114``
builds ``BaiChuanForCausalLM(BaiChuanConfig())`` inside ``deepspeed.zero.Init`` and
``models/configuration_baichuan.py:41-79`` only copies its ``__init__`` defaults.
Must-read examples beside must-stay-unknown twins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plan_helpers import write


def plan_of(cli, *args: str, cwd: Path) -> dict:
    res = cli("audit", *args, "--emit-plan", "json", cwd=cwd)
    assert res.code in (0, 1), res.err
    return json.loads(res.out)


def counted(plan: dict) -> list:
    return [f for f in plan["fields"].get("model.num_parameters", []) if f["adapter"] == "model_config_file"]


# --- the architecture reader ------------------------------------------------------------------

def test_baichuan_7b_is_read_as_llamas_layout() -> None:
    from preflight.estimate.arch import from_hf_config, supported_model_types

    # baichuan-inc/Baichuan-7B models/configuration_baichuan.py:47-51,60 (the Hub config.json
    # has the same numbers). By hand: embeddings and untied head 2 x 64000 x 4096 = 524,288,000;
    # per layer W_pack 4096 x 12288 + o_proj 4096^2 = 67,108,864, MLP 3 x 4096 x 11008 =
    # 135,266,304, two RMSNorms 8,192: 202,383,360 x 32 = 6,476,267,520; final norm 4,096.
    arch = from_hf_config({"model_type": "baichuan", "vocab_size": 64000, "hidden_size": 4096,
                           "intermediate_size": 11008, "num_hidden_layers": 32,
                           "num_attention_heads": 32, "tie_word_embeddings": False}, name="Baichuan-7B")
    assert arch.params_total == 524_288_000 + 6_476_267_520 + 4_096 == 7_000_559_616
    assert "baichuan" in supported_model_types()


def test_a_baichuan_config_missing_a_size_stays_unread() -> None:
    from preflight.estimate.arch import ArchitectureError, from_hf_config

    # no class defaults are assumed for remote-code model types
    with pytest.raises(ArchitectureError):
        from_hf_config({"model_type": "baichuan", "hidden_size": 4096, "num_attention_heads": 32}, name="x")


# --- a project config class ---------------------------------------------------------------------

CONFIG = """\
    from transformers.configuration_utils import PretrainedConfig


    class BaiChuanConfig(PretrainedConfig):
        model_type = "{model_type}"
        keys_to_ignore_at_inference = ["past_key_values"]

        def __init__(
            self,
            vocab_size=1000,
            hidden_size=64,
            intermediate_size=176,
            num_hidden_layers=2,
            num_attention_heads=4,
            rms_norm_eps=1e-6,
            tie_word_embeddings=False,
            **kwargs,
        ):
            self.vocab_size = vocab_size
            self.hidden_size = hidden_size
            self.intermediate_size = {inter}
            self.num_hidden_layers = num_hidden_layers
            self.num_attention_heads = num_attention_heads
            self.rms_norm_eps = rms_norm_eps
            super().__init__(tie_word_embeddings=tie_word_embeddings, **kwargs)
    """

TRAIN = """\
    import argparse

    import deepspeed
    import torch
    from models.configuration_baichuan import BaiChuanConfig
    from models.modeling_baichuan import BaiChuanForCausalLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=2)
    args = parser.parse_args()


    def prepare_model():
        with deepspeed.zero.Init(enabled=True):
            {build}
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        return engine


    engine = prepare_model()
    for batch in range(10):
        loss = engine(batch)
        engine.backward(loss)
        engine.step()
    """

# By hand, vocabulary 1000, width 64, MLP 176, 4 heads, untied: embeddings 2 x 64,000 = 128,000;
# per layer attention 4 x 64^2 = 16,384, MLP 3 x 64 x 176 = 33,792, norms 128: 50,304; final 64.
TWO_LAYERS = 128_000 + 2 * 50_304 + 64  # 228,672


def project(root: Path, build: str = "model = BaiChuanForCausalLM(BaiChuanConfig())",
            model_type: str = "baichuan", inter: str = "intermediate_size") -> None:
    write(root, {
        "models/__init__.py": "",
        "models/configuration_baichuan.py": CONFIG.format(model_type=model_type, inter=inter),
        "models/modeling_baichuan.py": "import torch\n",
        "train.py": TRAIN.format(build=build),
    })


def test_a_model_built_from_a_project_config_class_is_counted_from_its_defaults(cli, tmp_path: Path) -> None:
    project(tmp_path)
    got = counted(plan_of(cli, "train.py", cwd=tmp_path))
    assert [(f["value"], f["confidence"], f["source"]["line"]) for f in got] == [(TWO_LAYERS, "medium", 15)]
    assert "models/configuration_baichuan.py:4" in got[0]["source"]["detail"]


def test_the_calls_literal_keywords_replace_the_defaults(cli, tmp_path: Path) -> None:
    project(tmp_path, build="model = BaiChuanForCausalLM(config=BaiChuanConfig(num_hidden_layers=4))")
    got = counted(plan_of(cli, "train.py", cwd=tmp_path))
    assert [f["value"] for f in got] == [TWO_LAYERS + 2 * 50_304]


def test_a_bound_config_changed_before_the_build_gives_the_count_at_low(cli, tmp_path: Path) -> None:
    project(tmp_path, build="cfg = BaiChuanConfig()\n            cfg.vocab_size += 1\n"
                            "            model = BaiChuanForCausalLM(cfg)")
    got = counted(plan_of(cli, "train.py", cwd=tmp_path))
    assert [(f["value"], f["confidence"]) for f in got] == [(TWO_LAYERS, "low")]


@pytest.mark.parametrize("build, model_type, inter", [
    # a keyword the launch decides
    ("model = BaiChuanForCausalLM(BaiChuanConfig(num_hidden_layers=args.layers))", "baichuan", "intermediate_size"),
    # an __init__ that computes a value instead of copying it
    ("model = BaiChuanForCausalLM(BaiChuanConfig())", "baichuan", "intermediate_size * 2"),
    # a model type the reader does not know
    ("model = BaiChuanForCausalLM(BaiChuanConfig())", "my_own_lm", "intermediate_size"),
    # a checkpoint's weights decide, not the config
    ("model = BaiChuanForCausalLM.from_pretrained('ckpt', config=BaiChuanConfig())", "baichuan", "intermediate_size"),
])
def test_a_config_class_that_could_differ_stays_unknown(cli, tmp_path: Path, build: str, model_type: str,
                                                        inter: str) -> None:
    project(tmp_path, build=build, model_type=model_type, inter=inter)
    assert counted(plan_of(cli, "train.py", cwd=tmp_path)) == []


def test_a_config_class_that_is_not_a_pretrained_config_stays_unknown(cli, tmp_path: Path) -> None:
    project(tmp_path)
    path = tmp_path / "models/configuration_baichuan.py"
    path.write_text(path.read_text().replace("(PretrainedConfig)", "(object)"))
    assert counted(plan_of(cli, "train.py", cwd=tmp_path)) == []


# --- in-place weight initialisation in a counted module -----------------------------------------
# kuleshov-group/mdlm models/dit.py @ c112c526d193 ``DDiTBlock.__init__`` ends with
# ``self.adaLN_modulation.weight.data.zero_()`` and ``.bias.data.zero_()``: values, not shapes.
BLOCK = """\
    import torch
    import torch.nn as nn


    class Block(nn.Module):
        def __init__(self, dim=64, cond_dim=16):
            super().__init__()
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
            self.adaLN_modulation = nn.Linear(cond_dim, 6 * dim, bias=True)
            {init}


    model = Block()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(10):
        loss = model(torch.randn(8, 64)).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    """
# By hand: 64 x 256 + 256 = 16,640; 256 x 64 + 64 = 16,448; 16 x 384 + 384 = 6,528.
BLOCK_PARAMS = 16_640 + 16_448 + 6_528  # 39,616


def block_count(cli, root: Path, init: str) -> list:
    write(root, {"train.py": BLOCK.format(init=init)})
    plan = plan_of(cli, "train.py", cwd=root)
    return [f["value"] for f in plan["fields"].get("model.num_parameters", [])]


@pytest.mark.parametrize("init", [
    "self.adaLN_modulation.weight.data.zero_()\n        self.adaLN_modulation.bias.data.zero_()",
    "self.mlp[2].weight.data.normal_(0.0, 0.02)",
    "self.mlp[0].bias.fill_(0.5)",
])
def test_an_in_place_weight_init_in_init_leaves_the_count(cli, tmp_path: Path, init: str) -> None:
    assert block_count(cli, tmp_path, init) == [BLOCK_PARAMS]


@pytest.mark.parametrize("init", [
    # a chain of calls, and a tensor that is not one of self's weights
    "self.adaLN_modulation.weight.data.zero_().add_(1.0)",
    "self.scale = torch.ones(4).data.zero_()\n        self.extra.weight.data.resize_(10, 10)",
])
def test_other_tensor_calls_in_init_leave_the_count_unknown(cli, tmp_path: Path, init: str) -> None:
    assert block_count(cli, tmp_path, init) == []
