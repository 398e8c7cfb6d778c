"""est71: held-out-20's ChatGLM-Finetuning rows (liucongg/ChatGLM-Finetuning at 79bdc89).

- a repository's own modeling file (the config's ``auto_map``) is not transformers' GPT-NeoX: its
  loss is its own (ChatGLM-6B upcasts the logits to fp32, glm1/modeling_chatglm.py:1208) and it
  registers no per-layer causal-mask buffer;
- a torch build for a CUDA runtime before 11.7 (``1.13.1+cu116``) has no lazy module loading: the
  eager context.

Every figure below is recomputed from the shapes, not read back from the estimator."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import constants as C
from preflight.estimate import estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.gpu_facts import cuda_build_before_lazy
from preflight.estimate.inputs import EstimateInput

ROOT = Path(__file__).resolve().parent.parent
S, V, L, MAXPOS = 1560, 130528, 28, 2048
GLM1 = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 4096,
        "intermediate_size": 16384, "num_hidden_layers": L, "num_attention_heads": 32, "vocab_size": V,
        "max_position_embeddings": MAXPOS, "rotary_pct": 0.5, "hidden_act": "gelu", "layer_norm_eps": 1e-05,
        "use_parallel_residual": False, "tie_word_embeddings": True}
REMOTE = {"AutoModel": "modeling_chatglm.ChatGLMForConditionalGeneration"}


def _inp(config: dict, **kw) -> EstimateInput:
    fields = dict(mode="train", precision="fp16", optimizer="adamw", micro_batch=1, seq_len=S,
                  padding="max_length", attention="eager", loss="standard", use_cache=False,
                  torch_version="1.13.1", transformers_version="4.27.1", zero_stage=2, world_size=1,
                  grad_ckpt=True, lora_r=16, lora_targets=("query_key_value",), lora_dropout=0.1)
    fields.update(kw)
    return EstimateInput(arch=from_hf_config(dict(config), name="glm-test", source="test"), **fields)


@pytest.mark.parametrize("version, eager", [
    ("1.13.1+cu116", True), ("1.12.1+cu102", True), ("1.10.0+cu92", True),
    ("1.13.1+cu117", False), ("2.0.1+cu118", False), ("2.4.0+cu121", False),
    ("1.13.1", False), ("1.13.1+cpu", False), (None, False)])
def test_cuda_build_before_lazy_loading(version, eager):
    assert cuda_build_before_lazy(version) is eager


def test_cu116_build_charges_the_eager_context():
    """torch 1.13 with a CUDA 11.7 wheel may load lazily (the point is the lazy context); a +cu116 build
    cannot (CUDA 11.6 has no lazy loading): the eager context, 1343 MiB less its 2 MiB segment."""
    lazy = estimate(_inp(GLM1, torch_version="1.13.1"))
    cu116 = estimate(_inp(GLM1, torch_version="1.13.1+cu116"))
    assert cu116.breakdown["cuda_context"] == C.CUDA_CONTEXT_EAGER_BYTES == 1343 * 2 ** 20 - 2 * 2 ** 20
    assert lazy.breakdown["cuda_context"] < cu116.breakdown["cuda_context"]
    assert any("CUDA 11.7" in n for n in cu116.notes)


def _bwd_logits(est) -> float:
    return est.phases["backward"].get("logits_loss", 0.0)


def test_remote_glm_loss_upcasts_while_transformers_gpt_neox_does_not():
    """transformers 4.27's GPT-NeoX shifts and takes the cross-entropy of its fp16 logits (3 fp16 copies
    at the start of backward: saved log_softmax output, nll gradient, log_softmax gradient); ChatGLM-6B's own
    file upcasts first (``lm_logits.to(torch.float32)``), so the same three are fp32."""
    tv = S * V
    neox = estimate(_inp(GLM1))
    glm = estimate(_inp(dict(GLM1, auto_map=REMOTE)))
    assert _bwd_logits(neox) == pytest.approx(3 * 2 * tv, rel=1e-6)
    assert _bwd_logits(glm) == pytest.approx(3 * 4 * tv, rel=1e-6)


def test_remote_glm_registers_no_gpt_neox_mask_buffer():
    """transformers 4.27 GPT-NeoX: a bool causal mask of max_position^2 per layer and fp32 cos/sin tables of
    the rotary dims (the module docstring of buffers.py); ChatGLM-6B's own file has neither."""
    rotary = int(128 * 0.5)
    expected = L * MAXPOS * MAXPOS + L * 2 * MAXPOS * rotary * 4
    neox = estimate(_inp(GLM1))
    glm = estimate(_inp(dict(GLM1, auto_map=REMOTE)))
    assert neox.breakdown["buffers"] == expected
    assert glm.breakdown.get("buffers", 0) == 0


def test_heldout20_chatglm_rows_read_from_the_source():
    """The in-sample row decisions: torch as requirements.txt pins it, the loop keeps its outputs
    (train.py:191), ChatGLM-6B with its checkpoint's auto_map; the checkpointed ChatGLM-6B LoRA row on one
    A40 is charged the eager context and the fp32 loss."""
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as PA

    rows = [r for r in json.loads((ROOT / "calibration/public/heldout20.json").read_text())["rows"]
            if r["id"].startswith("chatglm-finetuning-")]
    assert len(rows) == 11
    for row in rows:
        assert row["setup"]["torch_version"] == "1.13.1+cu116" and row["setup"]["keeps_outputs"] is True
        assert "auto_map" in row["setup"]["hf_config"]
    row = next(r for r in rows if r["id"].endswith("chatglm-6b-lora-r16-zero2-fp16-s1560-ckpt-1xa40"))
    inp, _ = PA.estimate_input(row["setup"])
    est = estimate(inp)
    assert est.breakdown["cuda_context"] == C.CUDA_CONTEXT_EAGER_BYTES
    assert est.phase == "backward" and _bwd_logits(est) == pytest.approx(12 * S * V, rel=1e-6)


@pytest.mark.parametrize("pin, version, eager", [
    ("torch==1.13.1+cu116", "1.13.1+cu116", True),     # liucongg/ChatGLM-Finetuning requirements.txt:8 (79bdc89)
    ("torch==1.13.1+cu117", "1.13.1+cu117", False),
    ("torch==1.13.1", "1.13.1", False),
    ("torch>=1.13.1", "1.13.1", False)])              # a lower bound keeps no build tag
def test_a_torch_pins_cuda_tag_reaches_the_plan_and_the_context(tmp_path, pin, version, eager):
    import textwrap

    from preflight.audit import build_plan
    from preflight.estimate import input_from_plan

    (tmp_path / "requirements.txt").write_text(f"{pin}\ntransformers==4.27.1\n", encoding="utf-8")
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        Trainer(model=model, args=TrainingArguments(output_dir="o")).train()
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    fact = plan.resolve("framework.torch_version")
    assert fact.value == version and fact.source.path.endswith("requirements.txt") and fact.source.line == 1
    inp = input_from_plan(plan, {"seq_len": 128})
    assert inp.torch_before == (1, 13) and cuda_build_before_lazy(inp.torch_version) is eager
