"""wav2vec 2.0's conv feature encoder over the raw waveform (preflight/estimate/audio_frontend.py):
what it keeps for backward and its backward's peak, recomputed by hand and checked against a
fake-tensor recording of transformers' encoder (calibration/wav2vec2_feature_encoder.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.audio_frontend import feature_encoder

ROOT = Path(__file__).resolve().parent.parent
RECORDED = json.loads((ROOT / "calibration" / "data" / "est48_wav2vec2_feature_encoder.json").read_text())
XLSR = {"model_type": "wav2vec2", "architectures": ["Wav2Vec2ForCTC"], "hidden_size": 1024,
        "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096, "vocab_size": 45,
        **RECORDED["config"]}


def _arch(norm: str = "layer"):
    return from_hf_config({**XLSR, "feat_extract_norm": norm}, name="xls-r-300m")


def test_ten_seconds_at_batch_8_by_hand():
    """XLS-R, bf16 autocast, 8 clips of 10 s (160,000 samples, 500 frames): the first conv layer
    has 31,999 positions x 512 channels; the layers after it halve them."""
    positions = [31999, 15999, 7999, 3999, 1999, 999, 499]
    n = [8 * 512 * t for t in positions]
    fe = feature_encoder(_arch(), batch=8, frames=500, autocast=True, comp=2, grad_ckpt=True)
    assert fe is not None
    # checkpointing keeps each layer's fp32 output (the next layer's input, and the last one)
    assert fe.kept == 4 * sum(n)
    # first layer's backward: its recomputed bf16 waveform copy, fp32 norm input and GELU input,
    # its output, the arriving gradient and GELU's input gradient (all fp32)
    assert fe.end == 2 * 8 * 160000 + 8 * n[0] + 3 * 4 * n[0]
    plain = feature_encoder(_arch(), batch=8, frames=500, autocast=True, comp=2, grad_ckpt=False)
    assert plain is not None
    # without checkpointing: per layer the bf16 input copy, the fp32 norm input and GELU input
    assert plain.kept == 2 * 8 * 160000 + sum(8 * k for k in n) + sum(2 * k for k in n[:-1]) + 4 * n[-1]


@pytest.mark.parametrize("run", RECORDED["runs"], ids=lambda r: f"b{r['batch']}-{r['samples']}-"
                         f"{'ckpt' if r['grad_ckpt'] else 'plain'}-{r['feat_extract_norm']}")
def test_against_the_recorded_encoder(run):
    fe = feature_encoder(_arch(run["feat_extract_norm"]), batch=run["batch"], frames=run["samples"] // 320,
                         autocast=True, comp=2, grad_ckpt=run["grad_ckpt"])
    assert fe is not None
    # 10 s clips within 2%; 3 s at batch 2 within 10% (the encoder's own weight gradients and
    # bf16 weight copies, counted with the model's, are a larger share there)
    tol = 0.02 if run["samples"] >= 160000 else 0.10
    assert fe.kept == pytest.approx(run["kept_after_forward"], rel=tol)
    assert fe.end == pytest.approx(run["backward_peak_above_setup"], rel=tol)


def test_not_a_speech_encoder_has_no_frontend():
    bert = from_hf_config({"model_type": "bert", "hidden_size": 768, "num_hidden_layers": 12,
                           "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 30522},
                          name="bert")
    assert feature_encoder(bert, batch=8, frames=512, autocast=True, comp=2, grad_ckpt=True) is None


def test_the_estimate_charges_the_encoder_at_the_end_of_backward():
    setup = {"mode": "train", "precision": "amp-bf16", "optimizer": "adamw", "micro_batch": 8, "grad_accum": 1,
             "grad_ckpt": True, "padding": "max_length", "loss": "standard", "world_size": 1,
             "hf_config": XLSR, "model_name": "xls-r-300m", "seq_len": 500}
    inp, unknown = pa.estimate_input(setup)
    assert unknown == []
    est = estimate(inp)
    fe = feature_encoder(_arch(), batch=8, frames=500, autocast=True, comp=2, grad_ckpt=True)
    assert fe is not None
    # the encoder's first-layer backward is the last and largest transient of the step
    assert est.phases["backward"]["backward_transient"] == pytest.approx(fe.end)
    # and the kept conv outputs stand beside the Transformer's activations in forward
    assert est.phases["forward"]["activations"] >= fe.kept


def test_a_frozen_feature_encoder_keeps_only_its_output():
    """`model.freeze_feature_encoder()`: no parameter and no input of the encoder requires grad
    (`_requires_grad = False`), so the conv layers save nothing; the last output (8 x 512 x 499
    fp32) is the feature projection's input."""
    fe = feature_encoder(_arch(), batch=8, frames=500, autocast=True, comp=2, grad_ckpt=True, frozen=True)
    assert fe is not None and fe.kept == 4 * 8 * 512 * 499 and fe.end == 0


SCRIPT = """\
    from transformers import Trainer, TrainingArguments, Wav2Vec2ForCTC

    model = Wav2Vec2ForCTC.from_pretrained("facebook/wav2vec2-xls-r-300m", vocab_size=45)
    {freeze}
    args = TrainingArguments("out", per_device_train_batch_size=8, gradient_checkpointing=True, bf16=True)
    Trainer(model=model, args=args, train_dataset=None).train()
    """


@pytest.mark.parametrize("freeze, frozen", [("model.freeze_feature_encoder()", True),
                                            ("model.freeze_feature_extractor()", True),
                                            ("model.gradient_checkpointing_enable()", None)])
def test_the_plan_reads_freeze_feature_encoder(cli, tmp_path, freeze, frozen):
    from plan_helpers import plan_of, winner, write

    write(tmp_path, {"train.py": SCRIPT.replace("{freeze}", freeze)})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.feature_encoder_frozen") is frozen
