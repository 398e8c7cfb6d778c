"""A bitsandbytes paged optimizer's states (``terms.paged_state_bytes``), recomputed by hand.

bitsandbytes (0.39.1 .. 0.45+, ``Optimizer8bit.get_state_buffer``) allocates the state of a
parameter with 1e5 or more elements with ``cudaMallocManaged`` (``F.get_paged``): PyTorch's
caching allocator never sees it (``max_memory_allocated`` and the ``active_bytes`` peak leave
it out) and the driver moves it to host memory when the GPU runs short. Smaller tensors and
the 8-bit optimizers' fp32 absmax stay plain CUDA tensors. Issue 17: torchtune's Llama 3.1 8B
full fine-tune with ``PagedAdamW8bit`` measured 18.9 GiB (``peak_memory_active``) on a 4090;
the estimate counted the 15 GiB of states and called it a likely OOM."""

from __future__ import annotations

from preflight import hardware  # type: ignore[attr-defined]
from preflight.estimate import EstimateInput, estimate, verdict
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.report import estimate_text
from preflight.estimate.terms import paged_state_bytes

LLAMA31_8B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
              "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
              "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
              "tie_word_embeddings": False}

# by hand: per layer q, k, v, o and the three MLP matrices; embeddings and head untied
BLOCK = 4096 * 4096 + 2 * 4096 * 1024 + 4096 * 4096 + 3 * 4096 * 14336      # 218,103,808
MATRICES = 32 * BLOCK                                                         # 6,979,321,856
TABLES = 2 * 128256 * 4096                                                    # 1,050,673,152
NORMS = (2 * 32 + 1) * 4096                                                   # 266,240
GIB = 2 ** 30


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA31_8B, name="llama-3.1-8b"), mode="train",
                precision="bf16", optimizer="paged-adamw-8bit", micro_batch=2, seq_len=2048,
                attention="sdpa", loss="chunked", grad_ckpt=True, model_impl="torchtune",
                optimizer_in_backward=True, torch_version="2.5.1")
    base.update(kw)
    return EstimateInput(**base)


def test_managed_states_by_hand():
    est = estimate(_inp())
    # two uint8 states per element of every tensor of 1e5+ elements: 14.96 GiB
    assert C.PAGED_STATE_MIN_ELEMENTS == 100_000
    assert est.paged_bytes == 2 * (MATRICES + TABLES) == 16_059_990_016
    # what stays on the device: the norms' states and the blocks' fp32 absmax
    on_device = NORMS * C.ADAM8BIT_BYTES_PER_PARAM + (MATRICES + TABLES) * (C.ADAM8BIT_BYTES_PER_PARAM - 2)
    assert abs(est.breakdown["optimizer_states"] - on_device) <= 1
    # the same job unpaged holds all of it in the allocator
    unpaged = estimate(_inp(optimizer="adamw-8bit"))
    assert abs(unpaged.breakdown["optimizer_states"] - (est.breakdown["optimizer_states"] + est.paged_bytes)) <= 2


def test_the_peak_leaves_them_out_the_top_counts_them():
    est, unpaged = estimate(_inp()), estimate(_inp(optimizer="adamw-8bit"))
    assert est.peak_bytes is not None and unpaged.peak_bytes is not None
    assert est.interval_bytes is not None
    # about the torchtune README's 18.9 GiB (peak_memory_active: tensors only), not 33 GiB
    assert 17.5 * GIB < est.tensor_peak()[0] < 20 * GIB
    assert unpaged.peak_bytes - est.peak_bytes > 14.9 * GIB
    assert est.interval_bytes[1] - est.peak_bytes > est.paged_bytes


def test_a_4090_is_tight_not_an_oom_and_the_unpaged_twin_is_not_spared():
    gpu = hardware.find("RTX-4090-24GB")
    assert verdict(estimate(_inp()), gpu) == "tight"
    assert verdict(estimate(_inp(optimizer="adamw-8bit")), gpu) in ("oom", "likely-oom")


def test_the_report_says_what_it_did_not_count():
    text = estimate_text(_inp(), estimate(_inp()))
    assert "not counted: 14.96 GiB paged optimizer states in CUDA managed memory" in text
    twin = _inp(optimizer="adamw-8bit")
    assert "not counted" not in estimate_text(twin, estimate(twin))


def test_small_lora_adapters_stay_on_the_device():
    arch = from_hf_config(LLAMA31_8B, name="llama-3.1-8b")
    # r=8: A is 8 x 4096 = 32,768 and B 1024 x 8 (v_proj): both under 1e5, nothing managed
    est = estimate(_inp(lora_r=8, lora_targets=("q_proj", "v_proj")))
    assert est.paged_bytes == 0
    # r=64: A (64 x 4096 = 262,144) is paged in both; q's B (4096 x 64) too; v's B
    # (1024 x 64 = 65,536) is not
    big = 32 * (64 * 4096 + 64 * 4096 + 64 * 4096)
    assert paged_state_bytes("paged-adamw-8bit", C.ADAM8BIT_BYTES_PER_PARAM, arch, None, False,
                             64, ("q_proj", "v_proj")) == 2 * big


def test_unpaged_and_tiny_models_are_untouched():
    arch = from_hf_config(LLAMA31_8B, name="llama-3.1-8b")
    assert paged_state_bytes("adamw-8bit", 2.0, arch, None, True, 0, ()) == 0.0
    tiny = {**LLAMA31_8B, "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4,
            "num_key_value_heads": 4, "vocab_size": 1000}
    # every matrix of a 64-wide model is under 1e5 elements, and so are its 1000 x 64 tables
    assert estimate(_inp(arch=from_hf_config(tiny, name="tiny"))).paged_bytes == 0
