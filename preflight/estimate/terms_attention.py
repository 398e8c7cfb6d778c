"""Terms of the cost model that depend on the attention path: which kernel a GPU and the
library versions run (SDPA, flash, eager), and the copies and saved tensors each path adds.
(Split from :mod:`preflight.estimate.terms`, which re-exports them.)"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.estimate.inputs import EstimateInput
from preflight.estimate.softcap import scores_by_hand


def attention_kernel(inp: EstimateInput) -> str:
    """The attention path that actually runs: SDPA's flash and memory-efficient kernels
    need bf16 support in hardware for bf16 inputs (compute capability 8.0+); on a T4 or
    V100 a bf16 job falls back to the math path, which materialises the scores like eager
    attention (flash-attn 2 does not run there at all)."""
    bf16 = inp.precision in ("bf16", "amp-bf16")
    if inp.attention in ("sdpa", "flash") and bf16 and inp.gpu_bf16 is False:
        return "eager"
    if inp.attention in ("sdpa", "flash") and scores_by_hand(inp.model_impl, inp.arch):
        # litgpt writes soft-capped attention out by hand (softcap.py)
        return "eager"
    if inp.attention == "sdpa" and sdpa_not_default(inp):
        return "eager"
    return inp.attention


#: transformers' first release with an SDPA attention path (4.36.0, December 2023: Llama,
#: Falcon, Whisper, Bart and kin; optimum 1.16.1's release note retires BetterTransformer for
#: them with "use transformers>=4.36 and torch>=2.1.1 to use by default PyTorch's
#: scaled_dot_product_attention"). Before it every transformers model ran its eager attention.
SDPA_FROM_TRANSFORMERS = (4, 36)
#: the torch release from which transformers picks SDPA by default
#: (``is_torch_sdpa_available``: torch >= 2.1.1); before it the default is eager
SDPA_DEFAULT_FROM_TORCH = (2, 1, 1)


def sdpa_not_default(inp: EstimateInput) -> bool:
    """The job did not choose its attention (``attention`` is the default, not read from
    the plan, a config or the command line), runs transformers' modeling code, and the
    transformers or torch version it pins gives no SDPA by default: it runs eager attention,
    which stores the attention probabilities per layer. Unknown versions keep SDPA, and so does
    an input that records no sources at all (built directly through the API, where the field
    cannot tell a default from a choice), and a model whose attention is
    ``torch.nn.MultiheadAttention`` (``torch_mha``: torch's own kernel choice)."""
    sources = inp.sources or {}
    if not sources or "attention" in sources or inp.model_impl != "transformers" or inp.torch_mha:
        return False
    version = _transformers_minor(inp)
    if version is not None and version < SDPA_FROM_TRANSFORMERS:
        return True
    m = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?", str(inp.torch_version or ""))
    if not m:
        return False
    major, minor = int(m.group(1)), int(m.group(2))
    if m.group(3) is None and (major, minor) == SDPA_DEFAULT_FROM_TORCH[:2]:
        return False   # "2.1": the patch release decides, and it is not known
    return (major, minor, int(m.group(3) or 0)) < SDPA_DEFAULT_FROM_TORCH


#: transformers model types whose SDPA query is contiguous in (batch, heads, seq, dim) memory
#: in every release with SDPA: OPT's ``_shape`` (``view().transpose(1, 2).contiguous()``, read
#: in 4.46.0 and 4.48.0), GPT-NeoX's partial-rotary ``torch.cat((query, query_pass), -1)``
#: (4.42 to 4.48); from 4.52 both go through ``integrations/sdpa_attention.py``.
_BHSD_QUERY_TYPES = ("opt", "gpt_neox")
#: Model types whose 4.48 modeling code calls ``integrations/sdpa_attention.py`` (read:
#: ``ALL_ATTENTION_FUNCTIONS`` in 4.48.0's llama and gpt_neox).
_INTEGRATION_448 = ("llama", "gpt_neox")


def sdpa_output_copied(inp: EstimateInput, arch: Any) -> bool:
    """Whether SDPA's output is copied before the output projection, so that o_proj's saved
    input is a second tensor next to the output SDPA saves (``ec x q_dim`` per token and
    layer more when o_proj trains).

    CUDA's flash kernel allocates its output with ``empty_like(q)`` after transposing q to
    (batch, seq, heads, dim) (``mha_fwd``: ``out = torch::empty_like(q_padded)``; the SDPA
    wrapper passes ``query.transpose(1, 2)``), so the output keeps the query's memory layout.
    A query contiguous in (batch, heads, seq, dim) gives an output in that layout, and the
    model's ``attn_output.transpose(1, 2).contiguous()`` is then a copy. The memory-efficient
    kernel allocates ``{B, M, heads, K}`` (no copy). transformers' shared SDPA function
    (``integrations/sdpa_attention.py``, from 4.48) makes q, k and v ``.contiguous()``.

    Flash runs for 16-bit inputs on Ampere or later (unknown GPU: assumed), head size <= 256
    and no explicit mask (packed or unpadded batches; a padding mask selects the
    memory-efficient kernel). CPU and lit-gpt/torchtune code are not covered here."""
    if inp.model_impl != "transformers" or inp.device != "cuda" or attention_kernel(inp) != "sdpa":
        return False
    if inp.precision not in ("bf16", "fp16", "amp-bf16", "amp-fp16") or inp.gpu_bf16 is False:
        return False
    if arch.head_dim > 256:
        return False
    mt = str(getattr(arch, "model_type", ""))
    if mt in _BHSD_QUERY_TYPES:
        return True
    version = _transformers_minor(inp)
    if version is None:
        return inp.transformers_version is None      # unknown: the latest (the integration)
    return version >= (4, 52) or (version >= (4, 48) and mt in _INTEGRATION_448)


def softmax_saves_input(inp: EstimateInput) -> bool:
    """Whether autograd keeps each softmax's INPUT for backward as well as its output: torch
    before 1.11 (a known ``torch_version``), training.

    Before pytorch/pytorch#65242 ("Avoid saving self for ``softmax`` and ``log_softmax``",
    2021-09; #49600 reported it in 2020-12), the derivative of ``softmax`` was
    ``_softmax_backward_data(grad, result, dim, self)``, so the generated ``SoftmaxBackward``
    saved ``self`` (``grad_fn->self_ = SavedVariable(self, false)``) although the kernels read
    only the output. The PR replaced the argument with the input's dtype (``aten::
    _softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType
    input_dtype)``), and transformers' ``pytorch_utils.softmax_backward_data`` passes the
    tensor ``if is_torch_less_than_1_11`` and its ``dtype`` otherwise: the change shipped in
    1.11. The input is the scores the softmax reads in its own dtype (under autocast, or
    with an explicit upcast, the fp32 copy), the same element size as its output."""
    version = inp.torch_before
    return inp.mode == "train" and version is not None and version < (1, 11)


def mha_output_copied(inp: EstimateInput, arch: Any) -> bool:
    """Whether ``torch.nn.MultiheadAttention`` (``inp.torch_mha``: torchvision's ViT) copies
    SDPA's output before its output projection, so that ``out_proj`` saves a second tensor
    of ``q_dim`` per token and layer next to the output SDPA saves.

    From torch 2.0 ``F.multi_head_attention_forward`` (``need_weights=False``, as torchvision's
    ``EncoderBlock`` calls it) runs ``scaled_dot_product_attention(q, k, v, ...)`` on views of
    the packed in-projection, laid out (seq, batch, heads, dim) (``_in_projection_packed``:
    ``proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()``),
    then ``attn_output.permute(2, 0, 1, 3)`` and ``.contiguous().view(bsz * tgt_len, E)``
    (``.reshape`` in later releases) before ``linear(attn_output, out_proj_weight, ...)``.

    - The memory-efficient kernel allocates its output as (batch, seq, heads, dim)
      (``_efficient_attention_forward``: ``at::empty({B, M, num_heads, Kv})``), and the math
      path returns a contiguous (batch, heads, seq, dim) ``matmul``: either way the
      (seq, batch, heads, dim) permutation is not contiguous once batch > 1, and the
      reshape copies.
    - The flash kernel's output is ``empty_like`` of the transposed query, which keeps the
      query's (seq, batch, heads, dim) layout: the reshape is a view, no copy.

    Flash runs for 16-bit inputs on Ampere or later (unknown GPU: assumed), head size <= 256,
    no mask (torchvision passes none); fp32 always takes the memory-efficient kernel (or
    math). Before torch 2.0 MHA ran its own math attention (``attention`` eager, which
    charges o_proj's input already)."""
    if not inp.torch_mha or inp.device != "cuda" or attention_kernel(inp) != "sdpa":
        return False
    version = inp.torch_before
    if version is not None and version < (2, 0):
        return False
    if int(inp.micro_batch or 1) <= 1:
        return False
    flash = (inp.precision in ("bf16", "fp16", "amp-bf16", "amp-fp16") and inp.gpu_bf16 is not False
             and arch.head_dim <= 256)
    return not flash


def value_view_keeps_qkv(inp: EstimateInput, arch: Any) -> bool:
    """transformers' GPT-NeoX hands attention a ``value`` that is a permuted view of the fused
    ``query_key_value`` output (``qkv[..., 2 * head_size:].permute(0, 2, 1, 3)`` in 4.42.0 and
    4.48.0; ``qkv.chunk(3, dim=-1)`` of a transposed view in 4.52.0), while q and k become new
    tensors in the partial-rotary ``torch.cat``. Whatever saves v (SDPA, or eager's
    ``matmul(attn_weights, value)``) keeps the whole fused output alive. From 4.48 the shared
    SDPA function copies v (``value.contiguous()``), which frees it; eager keeps the view.
    Counted on CPU for 4.42.0 (``calibration/data/saved_per_layer.json``: the (1, 16, 256, 64)
    entry of 3 x 2 x 1024 bytes per token)."""
    if inp.model_impl != "transformers" or str(getattr(arch, "model_type", "")) != "gpt_neox":
        return False
    kernel = attention_kernel(inp)
    if kernel == "eager":
        return True
    version = _transformers_minor(inp)
    return kernel == "sdpa" and version is not None and version < (4, 48)


#: transformers#39412 (merged 2025-07-15, first released in 4.54): ``sdpa_attention_forward`` hands
#: grouped k / v to SDPA with ``enable_gqa=True`` (``use_gqa_in_sdpa``: torch >= 2.5 and no
#: attention mask) instead of expanding them with ``repeat_kv``; before it every SDPA path
#: (the per-model ``*SdpaAttention`` classes from 4.36, the shared function from 4.48) expanded them
SDPA_GQA_FROM_TRANSFORMERS = (4, 54)


def sdpa_repeats_kv(inp: EstimateInput, arch: Any) -> bool:
    """Whether transformers' SDPA attention of a grouped-query model (fewer k / v heads than
    query heads) is handed k and v expanded to the query heads, so that SDPA saves the
    expanded copies for backward (``ec x 2 x q_dim`` per token and layer, not ``2 x kv_dim``).

    ``repeat_kv`` (``expand`` then ``reshape``: a copy) runs before SDPA in every release
    before :data:`SDPA_GQA_FROM_TRANSFORMERS` (or with torch before 2.5) and, from it, whenever
    an attention mask reaches SDPA: a batch with padding (``padding`` ``max_length``, or
    ``dynamic`` with more than one sample; transformers drops an all-ones mask). Measured
    (``calibration/est90_lora_step.py``, transformers 5.25 / torch 2.13 on the CPU): Qwen2-0.5B
    (14 query / 2 k-v heads) at 2 x 256 with padding keeps two q_dim-wide copies per layer (0.041
    GiB over 24 layers) and neither k nor v itself. Flash-attention 2 and eager attention are
    not this path (flash: native GQA; eager: charged as repeated already).

    Charged without checkpointing only (every layer keeps the copies). Under checkpointing the
    one recomputed layer keeps them too, but charging it there turns Liger-Kernel's README
    Llama-3-8B row at 16,384 tokens (ran at 75.2 GiB reserved, estimated +3.9% over already)
    from ``tight`` to ``likely-oom``; left until that row's excess is understood (est90)."""
    if inp.model_impl != "transformers" or attention_kernel(inp) != "sdpa" or inp.grad_ckpt:
        return False
    kv = int(getattr(arch, "num_kv_heads", 0) or 0)
    if not kv or kv >= int(getattr(arch, "num_heads", 0) or 0):
        return False
    version = _transformers_minor(inp)
    if version is not None and version < SDPA_GQA_FROM_TRANSFORMERS:
        return True
    torch_v = inp.torch_before
    if torch_v is not None and torch_v < (2, 5):
        return True
    return inp.padding == "max_length" or (inp.padding == "dynamic" and int(inp.micro_batch or 1) > 1)


def _transformers_minor(inp: EstimateInput) -> Optional[tuple[int, int]]:
    m = re.match(r"\s*(\d+)\.(\d+)", str(inp.transformers_version or ""))
    return (int(m.group(1)), int(m.group(2))) if m and inp.model_impl == "transformers" else None
