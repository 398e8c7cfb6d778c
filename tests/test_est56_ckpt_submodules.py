"""Activation checkpointing per submodule: NeMo AutoModel's FSDP2 parallelizer (b4733bdc1,
``parallelizer.py`` lines 148-170) wraps each layer's ``mlp``, ``self_attn``, ``input_layernorm`` and
``post_attention_layernorm`` in ``checkpoint_wrapper``, so a layer keeps the inputs of four modules (one tensor of
the hidden width each) and one module, the MLP, is recomputed at a time (est56, in-sample for held-out-26)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate import ckpt_submodules as CS
from preflight.estimate.arch import from_hf_config

REPO = Path(__file__).resolve().parents[1]
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 512,
         "intermediate_size": 2048, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
         "vocab_size": 4096, "tie_word_embeddings": True}
ARCH = from_hf_config(LLAMA, name="llama-small")


def _job(**changes):
    base = dict(arch=ARCH, mode="train", precision="bf16", optimizer="adamw", micro_batch=2, seq_len=512,
                grad_ckpt=True, attention="sdpa", loss="fused", ckpt_submodules=True)
    base.update(changes)
    return estimate(EstimateInput(**base))


def test_each_layer_keeps_the_inputs_of_its_four_wrapped_modules():
    tokens = 2 * 512
    sub, layer = _job(), _job(ckpt_submodules=False)
    extra = sub.phases["forward"]["activations"] - layer.phases["forward"]["activations"]
    # three more tensors of 512 bf16 values per token and layer than the checkpointed layer's one input
    assert extra == tokens * 4 * 3 * 512 * 2
    assert any("checkpointing per submodule" in n for n in sub.notes)


@pytest.mark.parametrize("liger", [False, True])
def test_one_mlp_is_recomputed_at_a_time(liger):
    tokens = 2 * 512
    inp = EstimateInput(arch=ARCH, mode="train", precision="bf16", optimizer="adamw", micro_batch=2, seq_len=512,
                        grad_ckpt=True, attention="sdpa", loss="fused", ckpt_submodules=True, liger_kernels=liger)
    d = A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=1)
    layer = 5 * tokens * 2048 * 2       # a whole layer's recomputation: its MLP and less for the rest
    out = CS.apply({"saved": 0.0, "recompute": layer}, inp, ARCH, d, [])
    # the gated MLP recomputed: gate and up outputs, SiLU's output (not with Liger's kernel) and the product that
    # the down projection keeps, 2,048 bf16 values each
    kept = 3 if liger else 4
    assert out["recompute"] == tokens * kept * 2048 * 2
    small = CS.apply({"saved": 0.0, "recompute": 1.0}, inp, ARCH, d, [])
    assert small["recompute"] == 1.0    # never more than the whole layer


@pytest.mark.parametrize("changes", [dict(ckpt_submodules=False), dict(grad_ckpt=False)])
def test_twins_layer_checkpointing_or_none(changes):
    est = _job(**changes)
    assert not any("checkpointing per submodule" in n for n in est.notes)
    # without checkpointing the flag changes nothing
    if not changes.get("grad_ckpt", True):
        assert _job(grad_ckpt=False, ckpt_submodules=False).peak_bytes == est.peak_bytes


def test_heldout26_checkpointing_rows_say_so_with_the_source_line():
    rows = json.loads((REPO / "calibration" / "public" / "heldout26.json").read_text(encoding="utf-8"))["rows"]
    am = [r for r in rows if r["source"].startswith("automodel")]
    assert [r["setup"].get("ckpt_submodules", False) for r in am] == [False, False, True, True]
    assert all(any("lines 148-170" in u for u in r["unknown"]) for r in am)
