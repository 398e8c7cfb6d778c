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


def _context_top(**kw):
    bert = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 768,
            "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12,
            "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2}
    kw.setdefault("foreach", False)   # torch < 2.1's foreach AdamW holds one more list (est34): not this test's point
    est = estimate(EstimateInput(arch=from_hf_config(bert, name="bert-base"), seq_len=128, **kw))
    return est, est.interval_bytes[1]


def test_lazy_loading_is_only_sure_from_torch_2_1():
    # CUDA 11.7 wheels (torch 1.13, 2.0) run on drivers >= 450; lazy loading needs R515+: the
    # interval's top allows the eager context; CUDA 12.1 wheels (torch 2.1+) need driver >= 525
    old, old_top = _context_top(torch_version="2.0.1")
    new, new_top = _context_top(torch_version="2.1.0")
    unknown, unknown_top = _context_top()
    eager_top = int(1.2 * (1343 - 2) * MIB)
    lazy_top = 666_632_192 - 20 * MIB
    assert old.peak_bytes == new.peak_bytes == unknown.peak_bytes      # the point stays lazy
    # (the interval's top carries the unmodelled band on top of every term's top)
    band = 1 + C.UNMODELLED_HI
    assert old_top - new_top == unknown_top - new_top
    assert abs((old_top - new_top) - (eager_top - lazy_top) * band) <= 2
    assert any("older than R515" in n for n in old.notes)
    assert not any("older than R515" in n for n in new.notes)
    # a lower bound (torch>=2.0) resolves to the newest release: lazy loading
    lower, lower_top = _context_top(torch_version="2.0", torch_version_pinned=False)
    assert not any("older than R515" in n for n in lower.notes)
    assert lower_top == new_top


def test_hopper_targets_have_lazy_loading_when_the_version_is_unknown():
    # every driver that runs a Hopper GPU is R515 or newer, and a torch build with sm_90 kernels is
    # a CUDA >= 11.8 build: with the version unknown, no eager context on H100/H200 ...
    unknown_hopper, hopper_top = _context_top(gpu_hopper=True)
    _, new_top = _context_top(torch_version="2.1.0", gpu_hopper=True)
    assert not any("older than R515" in n for n in unknown_hopper.notes)
    assert hopper_top == new_top
    # ... but an older GPU with the version unknown keeps the eager top, and a pinned torch 2.0
    # (a CUDA 11.7 wheel) keeps it on Hopper too
    unknown_ampere, ampere_top = _context_top(gpu_hopper=False)
    assert any("older than R515" in n for n in unknown_ampere.notes)
    assert ampere_top > hopper_top
    pinned_old, _ = _context_top(torch_version="2.0.1", gpu_hopper=True)
    assert any("older than R515" in n for n in pinned_old.notes)
