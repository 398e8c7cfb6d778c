"""litgpt never ties its LM head to the token embeddings (issue 17, docs/calibration.md "est17";
the fitting half's litgpt Falcon-40B NF4 generate rows, in-sample for this fix).

``lit_gpt/model.py:25-28`` at 8641822 (the resource tables' lit-gpt) and ``litgpt/model.py``
since build ``self.lm_head = nn.Linear(config.n_embd, config.padded_vocab_size)`` next to
``transformer.wte = nn.Embedding(config.padded_vocab_size, config.n_embd)`` and never share
their weights; a checkpoint whose head is tied (Falcon, Gemma) is converted with the embedding
copied into the head. Under ``--quantize bnb.nf4`` the head is one more 4-bit Linear
(Lightning's BitsandbytesPrecision replaces every ``nn.Linear``), dequantized in its forward
from an fp16 state into a bf16 copy (``estimate/dequant.py``).
"""

from __future__ import annotations

from preflight import architectures
from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config

GIB = 2 ** 30


def arch(name):
    for e in architectures.entries():
        if e["name"] == name:
            return from_hf_config(dict(e["config"]), name=name)
    raise KeyError(name)


FALCON = arch("Falcon-40B")


def falcon(**changes):
    base = dict(arch=FALCON, mode="generate", precision="bf16", micro_batch=1, seq_len=16,
                max_new_tokens=50, attention="sdpa", model_impl="litgpt", quant="4bit",
                quant_type="nf4", double_quant=False, kbit_prepared=False)
    base.update(changes)
    return EstimateInput(**base)


def test_falcon_head_recomputed_by_hand():
    assert FALCON.tie_embeddings          # the HF config ties them (FalconConfig's default)
    head = FALCON.vocab_size * FALCON.hidden_size          # 65,024 x 8,192
    lit = estimate(falcon())
    hf = estimate(falcon(model_impl="transformers"))
    # the 4-bit head is stored once more: 0.5 byte per weight and one fp32 absmax per 64
    assert abs(lit.phases["prefill"]["weights"] - hf.phases["prefill"]["weights"]
               - head * C.NF4_BYTES_PER_PARAM) < 1e-3 * head
    # prefill dequantizes it: the fp16 state and its bf16 copy, 4 bytes per weight, larger
    # than the largest block matrix (8,192 x 32,768 at 4 bytes)
    assert lit.phases["prefill"]["dequant_transient"] == head * 4
    assert lit.params_total == hf.params_total + head
    assert any("no weight tying" in n for n in lit.notes)
    # fitting half: 24.73 GiB (nf4) and 22.94 GiB (nf4-dq) max_memory_allocated on an A100
    for inp, measured in ((falcon(), 24.73), (falcon(double_quant=True), 22.94)):
        value = estimate(inp).allocated_peak()[0] / GIB
        assert abs(value - measured) / measured < 0.02


def test_twins_unchanged():
    # transformers keeps the tie (and leaves its head in 16 bits): no note, no second head
    hf = estimate(falcon(model_impl="transformers"))
    assert not any("no weight tying" in n for n in hf.notes)
    # litgpt on an untied model: nothing to untie
    llama = arch("Llama-2-7B")
    assert not llama.tie_embeddings
    a = estimate(falcon(arch=llama))
    b = estimate(falcon(arch=llama, model_impl="transformers"))
    assert a.params_total == b.params_total
    assert not any("no weight tying" in n for n in a.notes)


def test_tricky_published_total_grows_by_the_head():
    # Gemma-7B's catalog total is published (the tied matrix once); litgpt adds its head
    gemma = arch("Gemma-7B")
    assert gemma.tie_embeddings and gemma.params_total
    inp = dict(arch=gemma, mode="train", precision="bf16", micro_batch=1, seq_len=512,
               lora_r=16, attention="sdpa")
    lit = estimate(EstimateInput(model_impl="litgpt", **inp))
    hf = estimate(EstimateInput(**inp))
    assert lit.params_total == gemma.params_total + gemma.vocab_size * gemma.hidden_size
    assert hf.params_total == gemma.params_total
