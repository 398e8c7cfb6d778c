"""est73: a softmax and a SiLU written in Python ops (``python_ops``; ``preflight/estimate/python_ops.py``),
recomputed by hand from the shapes. Traced on held-out-33's CS336 course-model rows (``cs336_basics``:
``x - max``, ``exp``, ``/ sum`` for the attention probabilities, ``x * sigmoid(x)`` in SwiGLU; in-sample there),
whose fp32 training peaks at context >= 512 were 10-22% under the estimate of eager attention.

The per-element figures are pinned to the CPU measurement ``calibration/data/python_ops_saved.json``
(``calibration/python_ops_saved.py``: autograd's saved storages, torch 2.13.0+cpu)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import python_ops as PO
from preflight.estimate.arch import from_hf_config

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "python_ops_saved.json"
# the course's xl shapes (32 layers, 32 heads of 80, SwiGLU 10,240, vocab 10,000)
XL = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2560,
      "intermediate_size": 10240, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 32, "vocab_size": 10000, "max_position_embeddings": 2048,
      "tie_word_embeddings": False, "hidden_act": "silu"}


def _inp(**kw) -> EstimateInput:
    base = dict(arch=from_hf_config(XL, name="m"), mode="train", precision="fp32", optimizer="adamw",
                foreach=False, micro_batch=4, grad_accum=1, seq_len=512, padding="max_length",
                grad_ckpt=False, attention="eager", world_size=1, torch_version="2.11.0",
                model_impl="transformers")
    base.update(kw)
    return EstimateInput(**base)


def _saved(inp: EstimateInput) -> float:
    return estimate(inp).phases["forward"]["activations"]


def test_the_constants_are_the_cpu_measurement():
    data = json.loads(DATA.read_text())
    att, mlp = data["attention_fp32"], data["gated_mlp_fp32"]
    # fp32: exp's output and the quotient (8 bytes a score) against torch's softmax output (4)
    assert att["python_softmax"]["score_bytes_per_element"] == PO.SOFTMAX_SAVED_SCORES * 4 == 8
    assert att["torch_softmax"]["score_bytes_per_element"] == 4
    # per query row: max's int64 index and the fp32 sum beyond the mask both keep
    rows = att["python_softmax"]["other_bytes_per_query_row"] - att["torch_softmax"]["other_bytes_per_query_row"]
    assert rows == PO.SOFTMAX_SAVED_ROW_BYTES == 12
    assert mlp["python_silu"]["width_tensors_saved"] - mlp["torch_silu"]["width_tensors_saved"] == \
        PO.SILU_EXTRA_WIDTHS == 1
    # the attention's backward: 2 fp32 score tensors more alive at its peak
    bwd = att["python_softmax"]["backward_peak_score_tensors"] - att["torch_softmax"]["backward_peak_score_tensors"]
    assert bwd == PO.SOFTMAX_BWD_EXTRA == 2


def test_the_layer_backward_grows_by_one_score_tensor_over_eager():
    # xl at batch 4 x 512 in fp32: the gradients of the division and exp, 2 x 4 x 32 x 512^2 x 4 bytes,
    # over a base of one; est88: torch's own fp32 softmax without dropout already grows by two fp32
    # score tensors (calibration/data/est88_attn_backward.json), so the hand-written one is one more
    from preflight.estimate.activations import Dtypes, transformer_layer

    arch = from_hf_config(XL, name="m")
    d = Dtypes(res=4, comp=4, weights=4, autocast=False, mask=1)
    kw = dict(tokens=4 * 512, seq=512, batch=4, attention="eager", train_weights=True,
              lora_targets=frozenset(), lora_r=0, lora_dropout=0.0, dropout=0.0)
    py, eager = transformer_layer(arch, d, python_ops=("softmax",), **kw), transformer_layer(arch, d, **kw)
    assert py.backward - eager.backward == 1 * 4 * 32 * 512 * 512 * 4


def test_python_softmax_keeps_one_more_fp32_score_tensor_per_layer():
    # xl at batch 4 x 512 in fp32: 4 x 32 heads x 512 x 512 x 4 bytes = 128 MiB a layer, 32 layers = 4 GiB,
    # plus the 12 bytes per head row
    extra = _saved(_inp(python_ops=("softmax",))) - _saved(_inp())
    by_hand = 32 * (4 * 32 * 512 * 512 * 4 + 4 * 512 * 32 * 12)
    assert extra == by_hand
    assert round(by_hand / 2**30, 2) == 4.02


def test_python_silu_keeps_the_sigmoid_output():
    # one fp32 MLP-width tensor per token and layer: 2,048 tokens x 10,240 x 4 bytes x 32 = 2.5 GiB
    extra = _saved(_inp(python_ops=("silu",))) - _saved(_inp())
    assert extra == 32 * 4 * 512 * 10240 * 4


def test_under_autocast_the_python_softmax_keeps_what_eager_attention_keeps_plus_the_row_bytes():
    # CUDA autocast: exp (fp32 list) keeps an fp32 output, the matmul its bf16 cast of the quotient:
    # 4 + 2 bytes, the eager softmax's fp32 output and its bf16 copy: 4 + 2 bytes
    extra = _saved(_inp(precision="amp-bf16", python_ops=("softmax",))) - _saved(_inp(precision="amp-bf16"))
    assert extra == 32 * 4 * 512 * 32 * 12


@pytest.mark.parametrize("kw", [dict(attention="sdpa"), dict(attention="flash")])
def test_a_fused_attention_kernel_is_untouched(kw):
    # the softmax lives inside the kernel: nothing written in Python to keep (twin)
    assert _saved(_inp(python_ops=("softmax",), **kw)) == _saved(_inp(**kw))


def test_no_grad_forward_holds_four_score_tensors_at_the_python_softmax():
    # masked scores, shifted scores, exp and the quotient: 16 bytes a score element in fp32, where the
    # eager estimate holds 6; xl at batch 4 x 2048: 4 x 32 x 2048^2 elements
    inp = dict(mode="infer", micro_batch=4, seq_len=2048)
    py = estimate(_inp(python_ops=("softmax",), **inp)).phases["forward"]["prefill_transient"]
    eager = estimate(_inp(**inp)).phases["forward"]["prefill_transient"]
    # est87: the hand-written attention's scores (16 bytes an element) and q, k, v die before the MLP
    # makes its tensors: 2 residual-width tensors plus the larger of the two sides
    tokens = 4 * 2048
    scores = 4 * 32 * 2048 * 2048 * 16 + tokens * 4 * 3 * 2560
    assert py == tokens * 2 * 2560 * 4 + max(tokens * 3 * 10240 * 4, scores)
    assert eager == tokens * (3 * 10240 * 4 + 2 * 2560 * 4 + 2560 * 4) + 4 * 32 * 2048 * 2048 * 6
    # under CUDA autocast the two scores are bf16, exp and the quotient fp32
    assert PO.softmax_live_nograd(2, True, "cuda") == 2 * 2 + 2 * 4
    assert PO.softmax_live_nograd(2, True, "cpu") == 4 * 2
