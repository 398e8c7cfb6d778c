"""The CUDA context constants without the caching allocator's segment their published
measurements hold (est26), recomputed from c10's CUDACachingAllocator sizes: a request up to
``kSmallSize`` (1 MiB) shares a ``kSmallBuffer`` (2 MiB) segment, one between 1 MiB and
``kMinLargeAlloc`` (10 MiB) gets a ``kLargeBuffer`` (20 MiB) segment, a larger one is rounded to
``kRoundLarge`` (2 MiB)."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config

MIB = 2 ** 20
K_SMALL_SIZE, K_SMALL_BUFFER = 1 * MIB, 2 * MIB
K_LARGE_BUFFER, K_MIN_LARGE_ALLOC, K_ROUND_LARGE = 20 * MIB, 10 * MIB, 2 * MIB


def segment(nbytes: int) -> int:
    """The segment cudaMalloc'd for one request into an empty allocator (get_allocation_size)."""
    if nbytes <= K_SMALL_SIZE:
        return K_SMALL_BUFFER
    if nbytes < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return -(-nbytes // K_ROUND_LARGE) * K_ROUND_LARGE


def test_the_published_figures_hold_one_segment_each():
    # pytorch/pytorch#86509: torch.randn(20, 16, 50, 100).cuda() -> 1,600,000 fp32 elements
    assert segment(20 * 16 * 50 * 100 * 4) == 20 * MIB
    assert C.CUDA_CONTEXT_BYTES == 287_047_680 - segment(6_400_000) == 266_076_160
    assert C.CUDA_CONTEXT_RANGE[1] == 666_632_192 - segment(6_400_000)
    # transformers' guide: torch.ones((1, 1)).to("cuda") -> 4 bytes, a 2 MiB small segment
    assert segment(4) == 2 * MIB
    assert segment(4) + C.CUDA_CONTEXT_EAGER_BYTES == 1343 * MIB


def test_nvidia_smi_figure_moves_by_the_segment_and_tensors_do_not():
    bert = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 768,
            "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12,
            "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2}
    est = estimate(EstimateInput(arch=from_hf_config(bert, name="bert-base"), seq_len=128,
                                 torch_version="2.1.0"))
    ctx = est.phases[est.phase]["cuda_context"]
    assert ctx == 266_076_160
    assert est.peak_bytes - ctx == sum(v for t, v in est.breakdown.items() if t != "cuda_context")
