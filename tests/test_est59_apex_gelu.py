"""est59: apex AMP O1 runs the model's GELU in fp32 (preflight/estimate/apex_amp.py, adapters/apex_amp.py).

apex O1 patches ``torch.nn.functional.gelu`` (its ``FP32_FUNCS``, apex 59978d5e
``apex/amp/lists/functional_overrides.py`` line 40) to cast a half input to fp32: a GELU looked up when it
runs (``nn.GELU``: the reference Swin Transformer's ``Mlp``) keeps an fp32 copy of the first MLP linear's
output where torch autocast keeps the fp16 one. The tests recompute that term from the shapes, pin the rows
it moves, keep the twins where it must not apply, and read both facts from a job's code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, write

from preflight.estimate import EstimateInput, estimate

ROOT = Path(__file__).resolve().parents[1]
SWIN_T = dict(depths=(2, 2, 6, 2), embed=96)
SWIN_S = dict(depths=(2, 2, 18, 2), embed=96)


def _arch(name):
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    return pa.architecture({"model": name})


def _swin(name, batch, **kw):
    base = dict(arch=_arch(name), mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=batch,
                image_size=224, grad_ckpt=False, attention="eager", torch_version="1.10.0")
    base.update(kw)
    return estimate(EstimateInput(**base))


def hand_extra(shape, batch):
    """apex O1's extra bytes by hand: every block of stage i holds (56 / 2**i)**2 tokens per image at width
    C * 2**i with an MLP of 4x that width; GELU keeps its input in fp32 (4 bytes) instead of fp16 (2)."""
    total = 0
    for i, depth in enumerate(shape["depths"]):
        tokens = (56 // 2 ** i) ** 2
        width = 4 * shape["embed"] * 2 ** i
        total += depth * tokens * width * (4 - 2)
    return total * batch


def test_swin_t_b128_term_recomputed_from_the_shapes():
    # 8 bytes x (2 x 3136 x 96 + 2 x 784 x 192 + 6 x 196 x 384 + 2 x 49 x 768) x 128 = 1,464,336,384 B
    assert hand_extra(SWIN_T, 128) == 1_464_336_384
    torch_amp = _swin("Swin-tiny-patch4-window7-224", 128)
    apex = _swin("Swin-tiny-patch4-window7-224", 128, amp_impl="apex", gelu_at_call=True)
    for phase in ("forward", "backward"):
        got = apex.phases[phase]["activations"] - torch_amp.phases[phase]["activations"]
        assert abs(got - 1_464_336_384) <= 2, phase


def test_swin_s_b48_term_recomputed_from_the_shapes():
    torch_amp = _swin("Swin-small-patch4-window7-224", 48)
    apex = _swin("Swin-small-patch4-window7-224", 48, amp_impl="apex", gelu_at_call=True)
    got = apex.phases["forward"]["activations"] - torch_amp.phases["forward"]["activations"]
    assert abs(got - hand_extra(SWIN_S, 48)) <= 2 and hand_extra(SWIN_S, 48) == 895_942_656


@pytest.mark.parametrize("kw", [
    dict(amp_impl="torch", gelu_at_call=True),                 # torch autocast: GELU is on neither cast list
    dict(amp_impl="apex"),                                      # transformers' GELUActivation, bound when built
    dict(amp_impl="apex", gelu_at_call=False),
    dict(amp_impl="apex", gelu_at_call=True, precision="fp32"),   # O0: nothing patched to cast
    dict(amp_impl="apex", gelu_at_call=True, precision="fp16"),   # O2/O3: fp16 weights, no per-op casts
])
def test_twins_that_must_not_move(kw):
    base = _swin("Swin-tiny-patch4-window7-224", 64, precision=kw.get("precision", "amp-fp16"))
    got = _swin("Swin-tiny-patch4-window7-224", 64, **kw)
    assert got.peak_bytes == base.peak_bytes


def test_no_plain_gelu_no_term():
    """Tricky-correct: apex O1 with a GELU looked up at call time, but the MLP has none that F.gelu runs:
    Llama's gated SiLU MLP, GPT-2's gelu_new (Python ops, not F.gelu)."""
    for name in ("Llama-2-7B", "GPT-2"):
        kw = dict(arch=_arch(name), mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
                  seq_len=256, grad_ckpt=False)
        base = estimate(EstimateInput(**kw))
        apex = estimate(EstimateInput(**kw, amp_impl="apex", gelu_at_call=True))
        assert apex.peak_bytes == base.peak_bytes, name


def test_unknown_binding_widens_only_the_top():
    base = _swin("Swin-tiny-patch4-window7-224", 128)
    unknown = _swin("Swin-tiny-patch4-window7-224", 128, amp_impl="apex")
    known = _swin("Swin-tiny-patch4-window7-224", 128, amp_impl="apex", gelu_at_call=True)
    assert unknown.peak_bytes == base.peak_bytes and unknown.interval_bytes[0] == base.interval_bytes[0]
    # the top covers the fp32 GELU (unknown_alternatives); a known binding leaves nothing to widen
    assert unknown.interval_bytes[1] > base.interval_bytes[1]
    assert unknown.interval_bytes[1] == known.interval_bytes[1] >= known.peak_bytes


def _row(split_file, rid):
    rows = json.loads((ROOT / "calibration" / "public" / split_file).read_text(encoding="utf-8"))["rows"]
    return next(r for r in rows if r["id"] == rid)


# The two microsoft/Swin-Transformer rows carry packed_qkv since est83 (its WindowAttention has one qkv
# layer): -0.137 / -0.027 and -0.229 / -0.134 before that relabel. Apex's GELU term moves each by the same ~0.11.
@pytest.mark.parametrize("split_file, rid, before, after", [
    # -0.192 / -0.082 at est59; -0.186 / -0.077 from est88 (autocast's eager attention backward, 6 bytes a score)
    ("heldout17.json", "swin-transformer-training-logs/swin-small-224-ampfp16-ddp4-b48", -0.186, -0.077),
    ("heldout17.json", "swin-transformer-training-logs/swin-tiny-224-ampfp16-ddp8-b128", -0.276, -0.182),
    # -0.045 / 0.073 until est94; -0.036 / 0.082 since the Mesa rows state DDP on one process (buckets charged)
    ("heldout10.json", "mesa-imagenet-train-memory/swin-t-apex-o1-b128", -0.036, 0.082),
])
def test_rows_before_and_after(split_file, rid, before, after):
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    row = _row(split_file, rid)
    assert row["setup"]["amp_impl"] == "apex" and row["setup"]["gelu_at_call"] is True
    assert abs(pa.evaluate(row).error - after) < 0.002
    torch_amp = json.loads(json.dumps(row))
    del torch_amp["setup"]["amp_impl"], torch_amp["setup"]["gelu_at_call"]
    assert abs(pa.evaluate(torch_amp).error - before) < 0.002


# microsoft/Swin-Transformer @ b05e621 main.py:61 ('--amp-opt-level', default 'O1') and :88-89
# (amp.initialize), models/swin_transformer.py:14-30 (Mlp with act_layer=nn.GELU), rewritten small.
SWIN_JOB = {
    "main.py": """\
        import argparse

        import torch
        from apex import amp

        from models.swin import SwinLike

        parser = argparse.ArgumentParser()
        parser.add_argument("--amp-opt-level", type=str, default="O1", choices=["O0", "O1", "O2"])
        args = parser.parse_args()

        model = SwinLike().cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        if args.amp_opt_level != "O0":
            model, optimizer = amp.initialize(model, optimizer, opt_level=args.amp_opt_level)
        for x in [torch.zeros(2, 8)]:
            loss = model(x).sum()
            with amp.scale_loss(loss, optimizer) as scaled_loss:
                scaled_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
    "models/__init__.py": "",
    "models/swin.py": """\
        import torch.nn as nn


        class Mlp(nn.Module):
            def __init__(self, dim, act_layer=nn.GELU):
                super().__init__()
                self.fc1 = nn.Linear(dim, 4 * dim)
                self.act = act_layer()
                self.fc2 = nn.Linear(4 * dim, dim)

            def forward(self, x):
                return self.fc2(self.act(self.fc1(x)))


        class SwinLike(nn.Module):
            def __init__(self):
                super().__init__()
                self.mlp = Mlp(8)

            def forward(self, x):
                return self.mlp(x)
    """,
}


def test_plan_reads_apex_o1_and_the_call_time_gelu(cli, tmp_path):
    write(tmp_path, SWIN_JOB)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    impl = fact(plan, "precision.amp_impl")
    assert impl is not None and impl.value == "apex" and impl.adapter == "apex_amp"
    assert impl.source.line == 15
    gelu = fact(plan, "model.gelu_at_call")
    assert gelu is not None and gelu.value is True and gelu.confidence == "medium"
    assert gelu.source.path.endswith("swin.py") and gelu.source.line == 5


def test_plan_twins_o2_and_a_transformers_model(cli, tmp_path):
    """O2 is fp16 weights (no per-op casts): neither fact. A job that loads a transformers model: apex still,
    but its GELUActivation is bound when built, so no call-time GELU is claimed."""
    write(tmp_path, SWIN_JOB)
    plan = plan_of(cli, "main.py", "--", "--amp-opt-level", "O2", cwd=tmp_path)
    assert fact(plan, "precision.amp_impl") is None and fact(plan, "model.gelu_at_call") is None
    hf = dict(SWIN_JOB)
    hf["main.py"] = SWIN_JOB["main.py"].replace(
        "model = SwinLike().cuda()",
        "from transformers import AutoModelForImageClassification\n"
        "        model = AutoModelForImageClassification.from_pretrained('microsoft/swin-tiny-patch4-window7-224')")
    write(tmp_path, hf)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert fact(plan, "precision.amp_impl").value == "apex"
    assert fact(plan, "model.gelu_at_call") is None


def test_plan_facts_reach_the_estimate_input(tmp_path):
    from preflight.audit import build_plan
    from preflight.estimate.inputs import input_from_plan

    write(tmp_path, SWIN_JOB)
    plan, _project = build_plan([tmp_path / "main.py"], [], root=tmp_path, argv=(), strict=True)
    inp = input_from_plan(plan)
    assert inp.amp_impl == "apex" and inp.gelu_at_call is True and inp.precision == "amp-fp16"
    assert inp.sources["gelu_at_call"].startswith("models/swin.py:5")
