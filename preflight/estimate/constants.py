"""Every number the cost model uses, each with where it comes from.

Three kinds of source, named on each constant:

* ``format``: a storage format's definition (bytes per element, bitsandbytes block
  layouts, framework defaults read from the framework's code). Exact by construction.
* ``published``: a figure measured and published by someone else (URL given), used
  where no GPU was available to measure it here; its interval is wide.
* ``calibration``: fitted to the committed reference measurements under
  ``calibration/data/`` (FakeTensorMode + MemTracker, two real training steps of a
  transformers model built from its config). ``tests/test_estimate_calibration.py``
  holds the estimator to that data.
"""

from __future__ import annotations

GIB = 1024 ** 3
MIB = 1024 ** 2

# --------------------------------------------------------------------------- formats

#: Bytes per element of each dtype (format).
DTYPE_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "int8": 1}

#: bitsandbytes 4-bit (NF4/FP4): 4 bits per weight plus one fp32 absmax per block of 64
#: (``bnb.functional.quantize_4bit(blocksize=64)``): 0.5 + 4/64 bytes per weight (format).
NF4_BYTES_PER_PARAM = 0.5 + 4 / 64
#: With ``bnb_4bit_use_double_quant=True`` the absmax values are themselves quantized to
#: 8 bits in blocks of 256 with one fp32 constant per block: 0.5 + 1/64 + 4/(64*256)
#: bytes per weight; QLoRA paper (Dettmers et al. 2023, sec. 3) gives the same 0.127
#: bits of constants per parameter (format).
NF4_DQ_BYTES_PER_PARAM = 0.5 + 1 / 64 + 4 / (64 * 256)
#: LLM.int8 (``load_in_8bit``): one int8 per weight; the fp32 per-row scale (``SCB``) is
#: counted per output row by the model (format).
INT8_BYTES_PER_PARAM = 1.0

#: bitsandbytes 8-bit optimizers: two uint8 states per element, one fp32 absmax per block
#: of 2048 per state (``bnb.optim`` blockwise quantization) (format).
ADAM8BIT_BYTES_PER_PARAM = 2 * (1 + 4 / 2048)

#: torchao's 4-bit AdamW (``torchao.optim.AdamW4bit``/``Adam4bit``, est77): per state, two 4-bit codes
#: packed in one uint8 and one fp32 scale per block of 128 (pytorch/ao v0.18.0
#: ``torchao/optim/subclass_4bit.py:126-127``: ``codes = torch.zeros(n_elems // 2, dtype=torch.uint8)``,
#: ``scale = torch.zeros(n_elems // block_size)``; ``adam.py:255`` (Adam4bit) and ``:352`` (AdamW4bit) ``block_size=128``) (format).
ADAM4BIT_BYTES_PER_PARAM = 2 * (0.5 + 4 / 128)

#: bitsandbytes paged optimizers (``PagedAdamW``, ``PagedAdamW8bit``, ``PagedLion``...): a
#: state tensor of a parameter with at least this many elements is allocated with
#: ``cudaMallocManaged`` (``Optimizer8bit.get_state_buffer``: ``p.numel() < 1e5`` stays a
#: plain CUDA tensor, else ``F.get_paged`` -> ``cget_managed_ptr`` in csrc/pythonInterface.cpp;
#: the same from 0.39.1 to 0.45+). Managed memory is outside PyTorch's caching allocator
#: (``torch.cuda.max_memory_allocated`` and the ``active_bytes`` peak never count it) and
#: the driver moves it to host memory when the GPU runs short (source).
PAGED_STATE_MIN_ELEMENTS = 100_000
#: bitsandbytes keeps tensors with fewer than 4096 elements in 32-bit state
#: (``Optimizer8bit(min_8bit_size=4096)``) (format).
BNB_MIN_8BIT_SIZE = 4096

#: DDP: ``bucket_cap_mb=25`` default; with ``gradient_as_bucket_view=False`` (default)
#: the buckets hold a second copy of every gradient (format: torch DDP; PR
#: pytorch/pytorch#41954 measured ~1 GB less peak for a ~1 GB model with bucket views).
DDP_BUCKET_BYTES = 25 * MIB

#: DeepSpeed ``zero_optimization`` defaults, in elements (format: deepspeed
#: ``runtime/zero/config.py`` v0.16: reduce/allgather 5e8, stage3 prefetch 5e7,
#: stage3_max_live_parameters 1e9). ``overlap_comm`` defaults to True only for stage 3,
#: which doubles the reduce bucket.
DS_REDUCE_BUCKET = int(5e8)
DS_ALLGATHER_BUCKET = int(5e8)
DS_PREFETCH_BUCKET = int(5e7)
DS_MAX_LIVE_PARAMETERS = int(1e9)
#: ``stage3_max_reuse_distance`` default: 1e9 elements (format: deepspeed
#: ``runtime/zero/config.py``; used by ``partitioned_param_coordinator.__params_to_release``).
DS_MAX_REUSE_DISTANCE = int(1e9)
#: ``sub_group_size`` default: 1e9 elements (deepspeed ``runtime/zero/config.py`` v0.14.2, line
#: 164); ZeRO-3's optimizer step runs one sub-group of the partition at a time
#: (``DeepSpeedZeroOptimizer_Stage3.step``, ``_create_fp16_sub_groups``).
DS_SUB_GROUP_SIZE = int(1e9)

#: FSDP keeps the unsharded parameters of the running unit plus the prefetched next unit
#: (``BackwardPrefetch.BACKWARD_PRE``, forward prefetch of FSDP2) (format: torch FSDP).
FSDP_UNSHARDED_UNITS = 2

#: PEFT's default LoRA targets when ``target_modules`` is not given (format: peft
#: ``utils/constants.py`` TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING).
LORA_DEFAULT_TARGETS = {
    "default": ("q_proj", "v_proj"),
    "gpt2": ("c_attn",), "bert": ("query", "value"), "roberta": ("query", "value"),
    "t5": ("q", "v"), "bart": ("q_proj", "v_proj"), "vit": ("query", "value"),
    "gpt_neox": ("query_key_value",), "falcon": ("query_key_value",),
    "phi": ("q_proj", "v_proj", "fc1", "fc2"),
    # PEFT's TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING for the types read since
    "mt5": ("q", "v"), "umt5": ("q", "v"), "bloom": ("query_key_value",),
    "gpt_bigcode": ("c_attn",), "mpt": ("Wqkv",), "gptj": ("q_proj", "v_proj"),
    "codegen": ("qkv_proj",), "opt": ("q_proj", "v_proj"), "stablelm": ("q_proj", "v_proj"),
    "electra": ("query", "value"), "albert": ("query", "value"),
    "deberta-v2": ("query_proj", "value_proj"),
}

# --------------------------------------------------------------------------- published

#: CUDA context of a PyTorch process with lazy module loading (the default since
#: PyTorch 1.13 / CUDA 11.7+). pytorch/pytorch#86509 (measured by the PR author) reads
#: ``cudaMemGetInfo`` total - free = 287,047,680 bytes after ``torch.randn(20, 16, 50, 100).cuda()``
#: (666,632,192 with eager loading). That figure holds the tensor's allocator segment too: the
#: tensor is 1,600,000 fp32 = 6,400,000 bytes, between ``kSmallSize`` (1 MiB) and
#: ``kMinLargeAlloc`` (10 MiB), so c10's CUDACachingAllocator takes a ``kLargeBuffer`` segment of
#: 20 MiB (``get_allocation_size``). The context alone is the figure less those 20,971,520 bytes
#: (est26): 266,076,160 (253.75 MiB; invoke-ai/InvokeAI#9413 reads a flat 256 MiB per process on
#: an RTX 3090 before any tensor). The allocator's own memory is charged by the other terms.
#: No GPU here to measure it, hence the wide interval (128 MiB .. eager).
LAZY_CONTEXT_MEASURED = 287_047_680
EAGER_CONTEXT_MEASURED = 666_632_192
PR86509_SEGMENT = 20 * MIB            # kLargeBuffer: the 6.4 MB tensor's segment
CUDA_CONTEXT_BYTES = LAZY_CONTEXT_MEASURED - PR86509_SEGMENT
CUDA_CONTEXT_RANGE = (128 * MIB, EAGER_CONTEXT_MEASURED - PR86509_SEGMENT)
#: Before PyTorch 1.13 every CUDA kernel is loaded at start-up (no lazy loading): the
#: transformers guide "Efficient training on a single GPU" (v4.18-v4.21) measured 1343 MB
#: (nvidia-smi, MiB) after ``torch.ones((1, 1)).to("cuda")`` on a V100 with torch 1.10/1.11
#: (a source of the fitting half of calibration/public/devset.json). The 4-byte tensor sits in a
#: ``kSmallBuffer`` segment of 2 MiB (requests up to ``kSmallSize`` share 2 MiB segments), which
#: the figure holds: the context is 1341 MiB (est26). Range: the eager figure of
#: pytorch/pytorch#86509 without its segment .. 1.2 x the V100 context (more kernels on newer
#: builds).
#: Lazy loading needs the driver too: "Without R515+ user-mode library, Lazy Loading is not
#: available in any shape or form, even if toolkit version is 11.7+" (CUDA C Programming Guide,
#: "Lazy Loading version support"). CUDA 11.x builds run on drivers from 450 (minor version
#: compatibility, CUDA Compatibility guide), so torch 1.13 and 2.0, whose PyPI wheels are CUDA
#: 11.7 builds, may load every kernel at start-up; from torch 2.1 the PyPI wheels are CUDA 12.1
#: builds, which need driver 525 or later, so lazy loading is always on (est26). Before 2.1, or
#: with the version unknown, the context's interval reaches the eager figure, except on Hopper and
#: later GPUs: every driver that runs them is R515 or newer, and a torch build with their kernels
#: (sm_90 needs CUDA 11.8, "CUDA 11.8 ... support for the NVIDIA Hopper architecture", CUDA 11.8
#: release notes) has a runtime above 11.7, so with the version unknown lazy loading is on there.
LAZY_GUARANTEED_TORCH = (2, 1)
#: est71: the first CUDA runtime with lazy module loading ("Lazy Loading ... introduced in CUDA 11.7",
#: CUDA C Programming Guide, "Lazy Loading"): a torch build tagged ``+cu116`` or older loads every
#: kernel at start-up on any driver (gpu_facts.cuda_build_before_lazy).
LAZY_MIN_CUDA = (11, 7)
#: est30: with lazy loading, what a running job holds outside the allocator grows with the GPU's
#: resident threads (SMs x the most threads an SM keeps resident). The driver reserves local memory
#: (per-thread stack) for every resident thread of every SM (CUDA C Programming Guide,
#: ``cudaLimitStackSize``: "the driver reserves ... for each thread"; the reservation grows to the
#: largest local-memory need of any kernel launched), and that reservation is in no PyTorch counter.
#: Fitted by least squares on the fitting rows of calibration/public/context_measurements.json
#: (``bench/context_term.py``: bare lazy contexts and in-step OOM-message figures of one-GPU jobs on
#: GPUs whose SM count is public; a Theil-Sen line, so that one job holding memory of its own outside
#: PyTorch does not set the slope): base + bytes per resident thread. Held-out error in
#: docs/calibration.md "est30". A100: 446 MiB; H100: 532 MiB; T4: 128 MiB (the flat figure before
#: est30: 253.75 MiB for every GPU).
CONTEXT_LAZY_BASE = 58_094_000          # 55.4 MiB
CONTEXT_LAZY_PER_THREAD = 1850          # bytes per resident thread
#: The interval around it: the fitting rows' misses (-8%..+15%) widened to 0.75..1.5; the one fitting
#: row it does not cover (pytorch/pytorch#126766: 1,659 MiB on an A100 40GB, workload not stated)
#: stays outside.
CONTEXT_LAZY_REL = (0.75, 1.5)
#: SMs and the most resident threads per SM of the catalog's NVIDIA GPUs (NVIDIA's architecture
#: whitepapers and product specifications; threads per SM: 2048 on sm_60/70/80/90/100, 1536 on
#: sm_86/89/120, 1024 on sm_75). First matching pattern wins; names are catalog names in lower case.
GPU_SMS = (
    (r"^a100|^a800", 108, 2048), (r"^a30-", 56, 2048), (r"^a10g", 80, 1536), (r"^a10-", 72, 1536),
    (r"^a40-", 84, 1536), (r"^a2-", 10, 1536), (r"^h100-pcie", 114, 2048), (r"^h20-", 78, 2048),
    (r"^(h100|h200|h800|gh200)", 132, 2048), (r"^(b200|gb200)", 148, 2048),
    (r"^l4-", 58, 1536), (r"^l40", 142, 1536), (r"^l20-", 92, 1536), (r"^p100", 56, 2048),
    (r"^p40-", 30, 2048), (r"^v100", 80, 2048), (r"^titan-v", 80, 2048), (r"^t4-", 40, 1024),
    (r"^titan-rtx|^quadro-rtx", 72, 1024), (r"^rtx-2080-ti", 68, 1024), (r"^rtx-2080-", 46, 1024),
    (r"^gtx-1080-ti", 28, 2048), (r"^rtx-3060", 28, 1536), (r"^rtx-3080-", 68, 1536),
    (r"^rtx-3090-ti", 84, 1536), (r"^rtx-3090", 82, 1536), (r"^rtx-4060-ti", 34, 1536),
    (r"^rtx-4060-", 24, 1536), (r"^rtx-4070-ti-super", 66, 1536), (r"^rtx-4070-", 46, 1536),
    (r"^rtx-4080", 76, 1536), (r"^rtx-4090", 128, 1536), (r"^rtx-5090", 170, 1536),
    (r"^rtx-6000-ada", 142, 1536), (r"^rtx-5000-ada", 100, 1536), (r"^rtx-4000-ada", 48, 1536),
    (r"^rtx-a6000", 84, 1536), (r"^rtx-a5000", 64, 1536), (r"^rtx-a4500", 56, 1536),
    (r"^rtx-a4000", 48, 1536),
)
SMALL_SEGMENT = 2 * MIB               # kSmallBuffer
CUDA_CONTEXT_EAGER_BYTES = 1343 * MIB - SMALL_SEGMENT
CUDA_CONTEXT_EAGER_RANGE = (EAGER_CONTEXT_MEASURED - PR86509_SEGMENT,
                            int(1.2 * (1343 * MIB - SMALL_SEGMENT)))
#: cuBLAS workspace that PyTorch allocates through its caching allocator: default
#: ``CUBLAS_WORKSPACE_CONFIG=:4096:8`` on Hopper = 8 x 4 MiB (format: torch
#: ``aten/src/ATen/cuda/CublasHandlePool.cpp``); older GPUs use less.
CUBLAS_WORKSPACE_BYTES = 32 * MIB
#: Before Hopper the default is ``:4096:2:16:8`` = 2 x 4 MiB + 8 x 16 KiB = 8.125 MiB per
#: workspace: pytorch/pytorch#95668 (torch 2.0 nightly, A10G) reads 8,519,680 bytes still
#: allocated after one ``nn.Linear`` call (1.13: 0). One workspace per (cuBLAS handle, stream);
#: handles are per thread, and a training step's backward runs on autograd's device thread,
#: so training holds two (the forward thread's and the backward thread's).
CUBLAS_WORKSPACE_PRE_HOPPER_BYTES = (4096 * 2 + 16 * 8) * 1024
#: Catalog names of NVIDIA GPUs of compute capability 9 or later (Hopper H100/H200/H800/H20,
#: GH200; Blackwell B100/B200/GB200 and the GeForce RTX 50 series).
HOPPER_NAME = r"^((gh|gb|h|b)\d|rtx-50\d\d)"
#: Blackwell (compute capability 10 and 12): B100/B200/GB200, GeForce RTX 50.
BLACKWELL_NAME = r"^(gb\d|b\d|rtx-50\d\d)"
#: The 32 MiB default went to Hopper alone (``properties->major == 9 && properties->minor ==
#: 0``) in pytorch/pytorch#91564 (merged January 2023, torch 2.0); Blackwell (major 10 and 12)
#: got it in pytorch/pytorch#175344 (merged 19 February 2026). The first release carrying it
#: is taken as 2.11 (not checked against a wheel: an unknown or later torch keeps the
#: 8.125 MiB figure as the interval's bottom).
BLACKWELL_32MIB_TORCH = (2, 11)
#: Caching-allocator fragmentation: reserved-but-unallocated memory at an OOM, as a
#: fraction of allocated: 1.83 GiB / 75.31 GiB = 2.43% (published OOM message,
#: vllm-project/compressed-tensors#587, Llama-3.3-70B); that project now reserves 5%,
#: the top of our interval.
FRAGMENTATION = 0.0243
FRAGMENTATION_RANGE = (0.0, 0.05)
#: In training, reserved-but-unallocated memory in a forward or backward phase is at least this
#: share of the phase's transient length-dependent tensors (``length_cache.LENGTH_TERMS``),
#: even when every batch has the same length: best-fit splitting of the large blocks the step
#: frees leaves remainders that requests of other sizes cannot use, so the allocator takes new
#: segments. Measured, not fitted to any public row: fake-tensor traces of training steps
#: replayed through the simulator of torch 2.1's caching allocator (calibration/fixed_length.py
#: -> calibration/data/fixed_length.json, "summary"): the median over its 22 runs whose peak is
#: a forward or backward phase (Llama-2-7B LoRA with eager and SDPA attention at 1-4 x 2,048
#: tokens, rank-64 LoRA on every projection, Llama-3.2-3B without checkpointing, est10's
#: Qwen-7B/Yi-6B runs at 512-8,192 tokens; range 0.216 .. 1.209). The interval's top uses the
#: 90th percentile; its bottom keeps ``FRAGMENTATION_RANGE``'s 0 (the allocator may reuse it all).
STEP_CACHE_RATIO = 0.3485
STEP_CACHE_HI = 0.795
#: Reserved memory above a fixed-length run's, per byte of the step's transient
#: length-dependent tensors (``length_cache.LENGTH_TERMS``), when batch lengths vary (dynamic
#: padding): the caching allocator keeps blocks of every length it served. Measured by
#: replaying training steps recorded on fake tensors through a simulator of torch 2.1's
#: allocator (calibration/variable_length.py -> calibration/data/variable_length.json,
#: "ratios"): the median and range over its 28 runs (Qwen-7B and Yi-6B LoRA with
#: checkpointing, Qwen-7B without, max lengths 512-8,192, two length distributions). Not
#: fitted to any measured row.
#: (est10's figure for its one dataset; the estimate charges LENGTH_SPREAD since est23)
LENGTH_CACHE_RATIO = 2.8
LENGTH_CACHE_RANGE = (0.0, 5.3)
#: est23: reserved memory above the same job padded to the cap, per byte of the step's transient
#: length-dependent tensors AT THE CAP, when batches are padded per batch and the data's lengths
#: are not known: (lowest, median, highest) over a grid of 16 simulated runs per setting
#: (calibration/length_spread.py -> calibration/data/length_spread.json: caps 2,048 and 8,192;
#: log-normal lengths with est10's spread and a mean of 0.1/0.3/1/3 times the cap; samples over
#: the cap dropped or cut), keyed by (batch order, allocator). Negative: the longest batch stays
#: under the cap. Not fitted to any measured row. The native shuffled runs whose data mostly
#: reaches the cap and are dropped above it (est10's kind of data) read 2.98-5.37 (est10: 2.8).
LENGTH_SPREAD = {
    ("shuffled", "native"): (0.0, 2.06, 5.37),
    ("shuffled", "expandable"): (-0.76, -0.01, 0.01),
    ("group_by_length", "native"): (-0.78, 0.0, 0.01),
    ("group_by_length", "expandable"): (-0.76, 0.0, 0.01),
}
#: est39: of that cache, what PyTorch's allocator can NOT give back before an out-of-memory error
#: (``release_cached_blocks`` frees only wholly free segments), in the same unit: (lowest, median,
#: highest) over the shuffled native runs of the same grid, each the smallest capacity at which the
#: whole run completes less that of the run padded to the cap (calibration/length_cache_kept.py ->
#: calibration/data/length_cache_kept.json). The verdict counts it. Not fitted to any measured row.
LENGTH_CACHE_KEPT = (-0.79, 0.0, 0.13)
#: est67: the same grid split by what the job does with a sample over the cap, when the plan knows
#: it: "truncate" (cut to the cap: a tokenizer's ``truncation=True`` or ``input_ids[:MAX_LENGTH]``)
#: or "delete" (dropped: ms-swift's ``truncation_strategy='delete'``); (lowest, median, highest)
#: over the 8 runs of each (calibration/data/length_spread.json, the rows' ``truncation``). Not
#: fitted to any measured row: the runs and their order are est23's.
LENGTH_SPREAD_CUT = {
    ("shuffled", "native", "truncate"): (0.0, 0.75, 2.78),
    ("shuffled", "native", "delete"): (0.11, 2.86, 5.37),
    ("shuffled", "expandable", "truncate"): (-0.76, -0.0, 0.01),
    ("shuffled", "expandable", "delete"): (-0.76, -0.02, 0.0),
    ("group_by_length", "native", "truncate"): (-0.78, 0.0, 0.01),
    ("group_by_length", "native", "delete"): (-0.78, -0.02, 0.0),
    ("group_by_length", "expandable", "truncate"): (-0.76, 0.0, 0.01),
    ("group_by_length", "expandable", "delete"): (-0.76, -0.02, 0.0),
}

# --------------------------------------------------------------------------- activations
#
# Saved-for-backward tensors, per token, in units of the tensor's element size. The
# structure (which tensor autograd keeps, in which dtype) is read from the transformers
# modeling code; every constant below was checked tensor by tensor against the saved
# tensors of one layer, and the whole model against calibration/data/cpu_reference.json
# (31 cases: Llama/Mistral/Qwen2/Mixtral/Qwen2-MoE/GPT-2/BERT/T5/ViT/ResNet/ConvNeXt x
# fp32/autocast/bf16 x AdamW/SGD/Adafactor x eager/SDPA x checkpointing x LoRA:
# mean 0.6%, worst 4.4%; tests/test_estimate_calibration.py pins it).

#: RMSNorm keeps the fp32 upcast of its input (Llama's ``hidden.to(float32)``, or the fp32
#: residual itself) and, when its weight trains, the normalised value in the input dtype
#: (calibration/data/cpu_reference.json, llama-* cases).
NORM_SAVED_FP32 = 1.0
NORM_SAVED_NORMED = 1.0
#: Gated MLP (SwiGLU/GeGLU): gate output, activation output, up output, product
#: (llama-*, mistral-*, qwen2-* cases; MoE per routed row: mixtral-*, qwen2_moe-*).
GATED_MLP_SAVED = 4.0
#: Plain MLP (GELU/ReLU): fc1 output, activation output (bert-*, vit-*, t5-* cases).
PLAIN_MLP_SAVED = 2.0
#: A ReLU MLP (OPT) saves one tensor of the MLP width: ReLU keeps its output, which is the
#: down projection's input (torch ``threshold_backward(grad, result, 0)``; OPT's
#: ``fc2(dropout(relu(fc1(x)), p=activation_dropout=0.0))``). From the code, not fitted.
RELU_MLP_SAVED = 1.0
#: GPT-2's ``gelu_new`` is the tanh formula in Python ops: input, tanh, 0.5*x, 1+tanh,
#: output (gpt2-* cases).
PY_GELU_MLP_SAVED = 5.0
#: A plain MLP's saved tensors by transformers' activation name (``ACT2FN[name]``), per
#: token, in MLP-width tensors, with the down projection training (one fewer when it is
#: frozen: it then does not keep the activation's output). Measured on transformers' own
#: ``GPT2MLP`` (5.24.0, torch 2.13, fp32 and bf16 alike) by ``calibration/mlp_act_saved.py``
#: (``calibration/data/mlp_act_saved.json``). torch's one-kernel activations
#: (``F.gelu`` exact or ``approximate="tanh"``: ``gelu``, ``gelu_pytorch_tanh``; ``F.silu``)
#: keep their input (fc's output) and the down projection their output: 2. The formulas
#: written in Python ops keep their intermediates: ``gelu_new`` / ``gelu_python_tanh`` /
#: ``gelu_accurate`` 5 (input, tanh, 0.5*x, 1+tanh, output), ``gelu_python`` 4, ``quick_gelu``
#: 3 (input, sigmoid, output), ``gelu_fast`` 8. ReLU keeps its output only: 1
#: (``RELU_MLP_SAVED``, also with the down projection frozen).
MLP_ACT_SAVED = {"gelu": 2.0, "gelu_pytorch_tanh": 2.0, "silu": 2.0, "swish": 2.0,
                 "gelu_new": 5.0, "gelu_python_tanh": 5.0, "gelu_accurate": 5.0,
                 "gelu_python": 4.0, "quick_gelu": 3.0, "gelu_fast": 8.0}
#: MLP-width tensors alive at once in a NO-GRAD MLP forward (inference, generation's prefill
#: and decoding), per token: the peak of ``calibration/mlp_live_nograd.py`` (torch 2.13.0+cpu,
#: ``calibration/data/mlp_live_nograd.json``). A gated MLP (``down(act(gate(x)) * up(x))``)
#: holds 3 (the activation's output, up's output, their product), which is also what
#: ``preflight/estimate/inference.py`` charges any other MLP (``MLP_LIVE_NOGRAD_DEFAULT``);
#: transformers' Python-written tanh GELU (``gelu_new``: ``0.5 * input * (1.0 + torch.tanh(...
#: (input + 0.044715 * torch.pow(input, 3.0))))``) holds 4: its input, ``0.5 * input`` and two
#: chain temporaries at every step of the formula (est70).
MLP_LIVE_NOGRAD_DEFAULT = 3.0
PY_GELU_MLP_LIVE = 4.0
#: MoE routing per token and chosen expert: int64 indices (3 x 8), fp32 weights (3 x 4)
#: and a 4-byte score, as transformers' grouped-experts Mixtral/Qwen-MoE keep them
#: (mixtral-*, qwen2_moe-* cases).
ROUTER_BYTES_PER_CHOICE = 40
#: Eager attention with an explicit fp32 softmax (Llama, T5, ViT): the fp32 probabilities
#: and their compute-dtype copy, per head per key: 4 + 2 bytes (4 in fp32)
#: (llama-*-eager, qwen2-*-eager, vit-*-eager cases).
EAGER_SCORE_BYTES_16 = 4 + 2
EAGER_SCORE_BYTES_32 = 4
#: SDPA/flash: logsumexp, fp32, per head per query token (llama-*-sdpa cases).
LSE_BYTES = 4
#: A layer's backward grows memory by about one gradient of its widest intermediate:
#: its saved tensors are freed as fast as new gradients appear (vit-*, bert-*,
#: *-ckpt cases, whose backward peaks are set by it).
LAYER_BACKWARD_WIDTHS = 1.0

#: Logits and loss, bytes per (token x vocab) beyond the compute-dtype logits:
#: HF ``ForCausalLMLoss`` upcasts logits to fp32 (4) and ``log_softmax`` keeps its
#: fp32 output (4) during forward; at the start of backward the saved output, the nll
#: gradient and the log_softmax gradient coexist (4 + 4 + 4). The compute-dtype logits
#: are not held during backward: the step keeps only the loss, as the Trainer's
#: ``compute_loss`` does (llama-* cases, whose peak is that moment).
LOGITS_FORWARD_FP32 = 4 + 4
LOGITS_BACKWARD_FP32 = 4 + 4 + 4
#: transformers 4.45 and earlier, and 4.46-4.48's ``ForCausalLMLoss``: ``shift_logits =
#: logits[..., :-1, :].contiguous()`` of the fp32 logits, one more fp32 copy alive while
#: log_softmax runs (4.49 pads the labels instead; read in the transformers wheels). Only with
#: more than one sequence per micro-batch: at batch 1 the slice is contiguous and
#: ``contiguous()`` returns it as it is (``terms.shifted_logits_copy``, est28).
HF_SHIFTED_LOGITS_FP32 = 4
#: torchtune ``CEWithChunkedOutputLoss(num_output_chunks=8)`` (format: torchtune default).
CHUNKED_LOSS_CHUNKS = 8

# --------------------------------------------------------------------------- intervals

#: Relative uncertainty of each kind of term, by what we know (documented in
#: docs/estimator.md, "Interval"). Exact counts: weights/grads/optimizer from a
#: catalog or safetensors count; formula: parameters from a config by formula
#: (a margin for configs the catalog has not checked against a published total);
#: guessed: a shape guessed from ``--params`` alone.
PARAMS_REL = {"catalog": 0.0, "safetensors": 0.0, "formula": 0.03, "params": 0.0, "guessed": 0.0}
#: Activations: the calibration tolerance (10% worst case; measured worst 4.4% on the CPU
#: reference, which cannot see CUDA kernels' own workspaces) for known shapes; a shape
#: guessed from a parameter count is off by up to +-40% (hidden width and depth vary
#: that much between published models of the same size, e.g. 7B Llama vs 7B Falcon).
ACTIVATIONS_REL = {"known": 0.10, "guessed": 0.40}
#: A batch size that was not found (assumed 1): activations could be any multiple; the
#: upper end of the interval doubles them.
ASSUMED_BATCH_HI = 2.0
#: What the cost model does not see (allocator growth, kernels' private workspaces, setup
#: details a published job leaves unstated): the interval's top is raised by this share.
#: Fitted on the fitting half of calibration/public/devset.json only (45 measured peaks,
#: 2026-12-01): no measured peak lies below an interval's bottom, and measured / interval
#: top has its 90th percentile at 1.044, rounded up to 5%. ``python bench/public_accuracy.py
#: --fit-interval`` recomputes it.
UNMODELLED_HI = 0.05
#: torch.compile (not modelled term by term): AOTAutograd's min-cut partitioner may recompute
#: pointwise tensors in backward instead of saving them, so a compiled step can only save
#: less than the eager one. The share it can drop, counted on a Llama-3-8B layer (bf16,
#: full fine-tune, SDPA) from this model's own per-token accounting: SiLU output and the
#: gate x up product (2 of the gated MLP's 4 widths), the RMSNorms' fp32 copies (bf16
#: instead) and normalised values: about 90 of 184 KB per token, ~50%. An assumed bound,
#: not measured here: the interval's low end only (est54: the point estimate drops the norms'
#: fp32 copies and the gated MLP's activation output, compiled_acts.py).
COMPILE_ACTIVATIONS_LOW = 0.5
