"""Causes of held-out-4's remaining under-estimate, traced after the est6 fixes (est7), each
recomputed here by hand (docs/calibration.md, held-out-4 section):

- a loop that keeps its ``outputs`` object across steps (``held_outputs.py``);
- OPT's two residual dropouts per layer (``config.dropout``, apart from ``attention_dropout``);
- LayerNorm decoders (config reader's ``norm="layer"``) save the LayerNorm input, not the
  RMSNorm-style fp32 copy and normalised value;
- OPT's eager attention keeps the clamped scores (``torch.max`` before softmax).
(GPT-NeoX's buffers: tests/test_estimate_buffers.py.)"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config
from preflight.estimate.held_outputs import held_outputs, returned_cache

OPT_350M = {
    "model_type": "opt", "architectures": ["OPTForCausalLM"], "hidden_size": 1024, "ffn_dim": 4096,
    "num_hidden_layers": 24, "num_attention_heads": 16, "vocab_size": 50272,
    "max_position_embeddings": 2048, "word_embed_proj_dim": 512, "do_layer_norm_before": False,
    "activation_function": "relu", "dropout": 0.1, "attention_dropout": 0.0,
    "activation_dropout": 0.0,
}
PYTHIA_410M = {
    "model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_act": "gelu",
    "hidden_size": 1024, "intermediate_size": 4096, "max_position_embeddings": 2048,
    "num_attention_heads": 16, "num_hidden_layers": 24, "rotary_pct": 0.25,
    "tie_word_embeddings": False, "use_parallel_residual": True, "vocab_size": 50304,
}
FP16 = A.Dtypes(res=2, comp=2, weights=2.0)


def _inp(arch, **kw):
    base = dict(arch=arch, mode="train", precision="fp16", optimizer="sgd", micro_batch=4,
                seq_len=1024, attention="sdpa", torch_version="2.4.0", transformers_version="4.46",
                loss="logits")
    base.update(kw)
    return EstimateInput(**base)


def _layer(arch, attention="sdpa", seq=1024, **kw):
    return A.transformer_layer(arch, FP16, tokens=seq, seq=seq, batch=1, attention=attention,
                               train_weights=True, lora_targets=frozenset(), lora_r=0,
                               lora_dropout=0.0, dropout=A._dropout(arch, None),
                               resid_dropout=A.resid_dropout(arch, None), **kw)


# -- the loop keeps its outputs ---------------------------------------------------------------

def test_a_kept_cache_is_key_and_value_per_layer():
    opt = from_hf_config(OPT_350M, name="opt-350m")
    tokens = 4 * 1024
    whole, unsaved = returned_cache(_inp(opt), opt, 2, tokens)
    assert whole == tokens * 24 * 2 * 1024 * 2 and unsaved == 0    # k, v copies (_shape)


def test_gpt_neox_before_4_45_returns_an_fp32_key_and_a_view_of_qkv():
    neox = from_hf_config(PYTHIA_410M, name="pythia-410m")
    tokens = 4 * 2048
    whole, unsaved = returned_cache(_inp(neox, transformers_version="4.42"), neox, 2, tokens)
    # key: cat(rotated fp32 part, pass-through) is fp32; value is a view of qkv (3 x hidden)
    assert whole == tokens * 24 * (1024 * 4 + 3 * 1024 * 2)
    assert unsaved == tokens * 24 * 1024 * 4                       # SDPA saves key.to(fp16)
    _, eager_unsaved = returned_cache(_inp(neox, transformers_version="4.42", attention="eager"),
                                      neox, 2, tokens)
    assert eager_unsaved == 0                                      # baddbmm saves the fp32 key
    whole45, unsaved45 = returned_cache(_inp(neox, transformers_version="4.45"), neox, 2, tokens)
    assert whole45 == tokens * 24 * (1024 * 2 + 3 * 1024 * 2) and unsaved45 == 0


def test_no_cache_with_checkpointing_and_nothing_held_by_default():
    opt = from_hf_config(OPT_350M, name="opt-350m")
    assert returned_cache(_inp(opt, grad_ckpt=True), opt, 2, 4096) == (0.0, 0.0)
    assert held_outputs(_inp(opt), opt, 2, 4096, 1e6) == {
        "forward": 0.0, "backward_start": 0.0, "backward_end": 0.0}


def test_kept_outputs_add_the_previous_steps_logits_and_cache_to_the_forward():
    opt = from_hf_config(OPT_350M, name="opt-350m")
    plain = estimate(_inp(opt))
    kept = estimate(_inp(opt, keeps_outputs=True))
    tokens = 4 * 1024
    logits = tokens * 50272 * 2
    cache = tokens * 24 * 2 * 1024 * 2
    assert kept.phases["forward"]["held_outputs"] == logits + cache
    fwd = sum(v for t, v in kept.phases["forward"].items() if t != "fragmentation")
    fwd0 = sum(v for t, v in plain.phases["forward"].items() if t != "fragmentation")
    assert abs(fwd - fwd0 - (logits + cache)) <= 2


def test_kept_outputs_stay_to_the_end_of_backward_at_small_shapes():
    opt = from_hf_config(OPT_350M, name="opt-350m")
    kept = estimate(_inp(opt, keeps_outputs=True, micro_batch=1, seq_len=128))
    assert kept.phases["backward"]["held_outputs"] == 128 * 50272 * 2 + 128 * 24 * 2 * 1024 * 2


# -- OPT's residual dropout, LayerNorm saves, clamped eager scores ------------------------------

def test_opt_layer_saves_by_hand():
    opt = from_hf_config(OPT_350M, name="opt-350m")
    h, f, heads = 1024, 4096, 16
    per_token = (2 * h * 2              # two LayerNorms keep their 16-bit input
                 + h * 2                # q/k/v projections' shared input
                 + 3 * h * 2            # q (scaled), k, v (contiguous copies)
                 + heads * 4 + h * 2    # logsumexp + SDPA output (out_proj's input)
                 + 2 * h * 1            # two residual dropout masks (bool), p = 0.1
                 + f * 2                # ReLU output = fc2 input (fc1 output freed)
                 + h * 2)               # fc1 input
    assert _layer(opt).saved == 1024 * per_token


def test_opt_dropout_zero_drops_the_masks():
    opt = from_hf_config(dict(OPT_350M, dropout=0.0), name="opt-350m")
    with_drop = from_hf_config(OPT_350M, name="opt-350m")
    assert _layer(with_drop).saved - _layer(opt).saved == 1024 * 2 * 1024


def test_opt_eager_scores_keep_the_clamped_copy():
    opt = from_hf_config(OPT_350M, name="opt-350m")
    eager, sdpa = _layer(opt, attention="eager"), _layer(opt, attention="sdpa")
    seq, heads = 1024, 16
    # eager: q, k, v + (clamped fp16, fp32 softmax, fp16 copy) per score + out_proj's own input
    # sdpa: q, k, v + logsumexp + output (shared with out_proj)
    assert eager.saved - sdpa.saved == seq * (heads * seq * (2 + 4 + 2) - heads * 4)


def test_estimate_cli_takes_keeps_outputs():
    import json
    import subprocess
    import sys

    def peak(*extra):
        proc = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--params", "350M",
                               "--batch-size", "4", "--seq-len", "1024", "--precision", "fp16",
                               "--loss", "logits", "--format", "json", *extra],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode in (0, 1), proc.stderr
        return json.loads(proc.stdout)

    plain, kept = peak(), peak("--keeps-outputs")
    assert "held_outputs" not in json.dumps(plain)
    assert "held_outputs" in json.dumps(kept)


def test_a_remediation_drops_kept_outputs_only_when_the_loop_keeps_them():
    from preflight.estimate import remediate, target_of

    opt = from_hf_config(OPT_350M, name="opt-350m")
    target = target_of("L4-24GB")
    kept = _inp(opt, keeps_outputs=True, micro_batch=8)
    drop = [r for r in remediate(kept, target) if "outputs" in r.description]
    assert len(drop) == 1
    tokens = 8 * 1024
    # the forward's held outputs: previous logits + cache; the peak drops by at most that
    assert 0 < drop[0].saved_bytes <= tokens * 50272 * 2 + tokens * 24 * 2 * 1024 * 2
    assert not [r for r in remediate(_inp(opt, micro_batch=8), target) if "outputs" in r.description]


def test_the_cache_terms_match_the_wheels_own_models():
    """calibration/saved_per_layer.py ran the wheels' models (CPU, saved-tensor hooks):
    the cache per layer and token and its part autograd does not save."""
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "calibration" / "data" / "saved_per_layer.json"
    archs = {"gpt_neox": from_hf_config(PYTHIA_410M, name="pythia-410m"),
             "opt": from_hf_config(OPT_350M, name="opt-350m")}
    for row in json.loads(data.read_text(encoding="utf-8"))["rows"]:
        arch = archs[row["model_type"]]
        version = ".".join(row["transformers"].split(".")[:2])
        inp = _inp(arch, transformers_version=version, attention=row["attention"])
        whole, unsaved = returned_cache(inp, arch, 2, 1.0)
        layers = arch.num_layers
        assert whole / layers == row["cache_per_layer_token"], row["model_type"]
        assert unsaved / layers == row["cache_unsaved_per_layer_token"], row["model_type"]
