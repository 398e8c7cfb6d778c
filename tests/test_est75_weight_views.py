"""est75: a linear layer written as ``x @ weight.T`` leaves autocast's weight cache empty
(``preflight/estimate/autocast_cache.py``, ``adapters/weight_views.py``, plan ``model.weight_views``).

torch's ``cached_cast`` keeps a cast only for a leaf that is not a view (``!arg.is_view()``); the transpose
``weight.T`` is a view, so a no-grad forward under autocast makes each cast for its call and frees it
(``calibration/autocast_view_cache.py``: 1.0 of a bf16 copy held with ``F.linear(x, w)``, 0.0 with
``x @ w.T``, torch 2.13 on the CPU). Traced on held-out-34's TobinZuo rows (in-sample there): the xl
model through the student's ``run_linear`` (``in_features @ weights.T``), no-grad forward at batch 4 x 128,
13,133 MiB in fp32 and 13,138 MiB under bf16 autocast."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, write

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

ROOT = Path(__file__).resolve().parents[1]
XL = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2560,
      "intermediate_size": 10240, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 32, "vocab_size": 10000, "max_position_embeddings": 128,
      "tie_word_embeddings": False, "hidden_act": "silu"}
BLOCKS = 32 * (4 * 2560 * 2560 + 3 * 2560 * 10240)
HEAD = 10000 * 2560


def _inp(**kw) -> EstimateInput:
    base = dict(arch=from_hf_config(XL, name="m"), mode="infer", precision="amp-bf16", micro_batch=4,
                seq_len=128, attention="eager", world_size=1, torch_version="2.5.1",
                model_impl="transformers", padding="max_length")
    base.update(kw)
    return EstimateInput(**base)


def test_weight_views_drop_exactly_the_cache_of_a_nograd_forward():
    cached, views = estimate(_inp()), estimate(_inp(weight_views=True))
    assert cached.phases["forward"]["autocast_weight_cache"] == (BLOCKS + HEAD) * 2   # 6.30 GiB
    assert "autocast_weight_cache" not in views.phases["forward"]
    rest = {k: v for k, v in cached.phases["forward"].items() if k not in ("autocast_weight_cache", "fragmentation")}
    assert rest == {k: v for k, v in views.phases["forward"].items() if k != "fragmentation"}
    # weight_views False is the parameter itself (nn.Linear, F.linear): cached as before
    assert estimate(_inp(weight_views=False)).phases["forward"]["autocast_weight_cache"] == (BLOCKS + HEAD) * 2


def test_generation_without_the_cache_too():
    inp = _inp(mode="generate", max_new_tokens=16, num_beams=1, use_cache=True, transformers_version="4.57.1",
               weight_views=True)
    est = estimate(inp)
    for phase in ("prefill", "decode"):
        assert "autocast_weight_cache" not in est.phases[phase]


def test_training_step_is_unchanged():
    # in grad mode autograd saves each view's cast for the backward: the same bytes live at the forward's end
    kw = dict(mode="train", optimizer="adamw", foreach=False)
    a, b = estimate(_inp(**kw)), estimate(_inp(weight_views=True, **kw))
    assert a.phases == b.phases and a.peak_bytes == b.peak_bytes


def test_tobinzuo_bf16_nograd_rows_match_fp32_as_measured():
    rows = {r["id"].split("/")[-1]: r for r in json.loads((ROOT / "calibration/public/heldout34.json")
                                                         .read_text())["rows"] if "tobinzuo" in r["id"]}
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    got = {k: pa.evaluate(rows[k]) for k in ("xl-fp32-b4-s128-forward-nograd", "xl-bf16-b4-s128-forward-nograd")}
    fp32, bf16 = got["xl-fp32-b4-s128-forward-nograd"], got["xl-bf16-b4-s128-forward-nograd"]
    # measured 13,133 / 13,138 MiB: within 1% each, bf16 no higher than fp32 (+48.8% before est75)
    assert abs(fp32.error) < 0.01 and abs(bf16.error) < 0.01
    assert bf16.estimate <= fp32.estimate


MODEL = """import torch
import torch.nn as nn


class HandLinear(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(d_out, d_in))

    def forward(self, x):
        return x @ self.weight.T


def attention(q, k, v):
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
"""

TRAIN = """import torch
from model import HandLinear

model = HandLinear(512, 512).cuda()
x = torch.randn(4, 512, device="cuda")
with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
    y = model(x)
"""


def test_adapter_reads_a_hand_written_linear(cli, tmp_path):
    write(tmp_path, {"model.py": MODEL, "train.py": TRAIN})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.weight_views")
    assert got is not None and got.value is True and got.confidence == "medium"
    assert got.adapter == "weight_views"
    assert got.source.path.endswith("model.py") and got.source.line == 11


def test_adapter_reads_matmul_of_a_transposed_weight_in_the_script(cli, tmp_path):
    write(tmp_path, {"train.py": "import torch\n\n\ndef run_linear(w1_weight, x):\n"
                                 "    return torch.matmul(x, w1_weight.t())\n"})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.weight_views")
    assert got is not None and got.value is True and got.source.line == 5


def test_adapter_twins_stay_silent(cli, tmp_path):
    twins = {
        # nn.Linear: the parameter itself, cached
        "linear": MODEL.replace("return x @ self.weight.T", "return x @ self.weight") + "\nlayer = nn.Linear(4, 4)\n",
        # attention alone: q @ k.T names no weight
        "attention": "import torch\n\n\ndef attention(q, k):\n    return q @ k.transpose(-2, -1)\n",
        # a weight used as stored (in x out): not a view
        "stored": "import torch\n\n\ndef run(x, weight):\n    return x @ weight\n",
        # a tied head by hand beside F.linear blocks: the blocks' casts are cached, nothing claimed
        "mixed": ("import torch\nimport torch.nn.functional as F\n\n\ndef run(x, w, emb_weight):\n"
                  "    return F.linear(x, w) @ emb_weight.T\n"),
    }
    for name, text in twins.items():
        root = tmp_path / name
        root.mkdir()
        write(root, {"model.py": text, "train.py": TRAIN})
        assert fact(plan_of(cli, "train.py", cwd=root), "model.weight_views") is None, name


def test_adapter_twin_transformers_model(cli, tmp_path):
    train = ("import torch\nfrom transformers import AutoModelForCausalLM\nfrom model import HandLinear\n\n"
             "model = AutoModelForCausalLM.from_pretrained('gpt2').cuda()\n")
    write(tmp_path, {"model.py": MODEL, "train.py": train})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "model.weight_views") is None


def test_plan_fact_reaches_the_estimate_input(tmp_path):
    from preflight.audit import build_plan
    from preflight.estimate.inputs import input_from_plan

    write(tmp_path, {"model.py": MODEL, "train.py": TRAIN})
    plan, _project = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=(), strict=True)
    inp = input_from_plan(plan)
    assert inp.weight_views is True
    assert inp.sources["weight_views"].startswith("model.py:11")
