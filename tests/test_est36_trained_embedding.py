"""est36: the input embedding trained in place beside LoRA adapters (LongLoRA's
``trainable_params`` "embed,norm": ``requires_grad_()`` on ``embed_tokens``, the LM head frozen)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.inputs import InputError

ROOT = Path(__file__).resolve().parents[1]
#: a LoRA of Llama-2-7B stored in bf16 on one GPU with torch's AdamW
JOB = dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", micro_batch=1,
           seq_len=2048, padding="max_length", grad_ckpt=True, attention="flash", world_size=1,
           lora_r=8, lora_targets=["q_proj", "k_proj", "v_proj", "o_proj"], transformers_version="4.34.0",
           torch_version="2.0.1")
#: Llama-2-7B's embed_tokens: 32,000 x 4,096 (the untied lm_head does not match "embed")
EMBED = 32000 * 4096


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return estimate(inp)


def test_the_embedding_alone_trains_in_place():
    base, emb = _est(), _est(trained_embeddings="embedding")
    f0, f1 = base.phases["optimizer"], emb.phases["optimizer"]
    assert f1["weights"] == f0["weights"]                      # no copy: the model's own table
    assert f1["gradients"] - f0["gradients"] == EMBED * 2      # a bf16 gradient per element
    # torch's AdamW keeps zeros_like(param): two bf16 states per element
    assert f1["optimizer_states"] - f0["optimizer_states"] == EMBED * 2 * 2
    assert emb.params_trainable - base.params_trainable == EMBED
    # half of what "resized" trains (embedding and head) on an untied model
    resized = _est(trained_embeddings="resized")
    assert resized.params_trainable - base.params_trainable == 2 * EMBED
    assert any("input embedding trains" in n for n in emb.notes)


def test_embedding_mode_has_no_version_condition():
    old, new = _est(trained_embeddings="embedding"), _est(trained_embeddings="embedding",
                                                          transformers_version="4.45.0")
    assert old.params_trainable == new.params_trainable


def test_unknown_mode_is_an_input_error_and_the_cli_takes_embedding():
    with pytest.raises(InputError, match="trained embeddings"):
        _est(trained_embeddings="lm_head")
    out = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "Llama-2-7B", "--lora-r", "8",
                          "--seq-len", "2048", "--trained-embeddings", "embedding"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "Traceback" not in out.stderr and out.returncode in (0, 1)
    assert "input embedding trains" in out.stdout
