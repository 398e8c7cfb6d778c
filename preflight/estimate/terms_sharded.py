"""Memory terms of sharded and offloaded training: DeepSpeed ZeRO stages 1-3 and FSDP (1 and 2).

Split from ``terms.py``, which re-exports every name here; the cost model reads them as ``terms.X``.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput


def _zero3_kept(inp: EstimateInput, prm: Any) -> tuple[float, int, float]:
    """(elements kept gathered for reuse, whole blocks among them, the reuse distance) at the
    turn from forward to backward: see ``zero3_live_params``."""
    reuse = float(inp.max_reuse_distance if inp.max_reuse_distance is not None else C.DS_MAX_REUSE_DISTANCE)
    head = float(prm.lm_head or prm.embeddings)   # tied: the embedding matrix is the head
    kept = head if reuse > 0 else 0.0
    layers = 0
    if reuse / 2 > head:
        layers = max(int((reuse / 2 - head) // max(prm.layer, 1)), 0)
        kept += layers * prm.layer
    return kept, layers, reuse


#: The first DeepSpeed release that installs its memory-efficient Linear for a model passed to
#: ``deepspeed.initialize`` already built (617061d6b, #8189, in v0.19.4; terms.zero3_retained_linear).
DS_LINEAR_WRAPPER_FOR_BUILT_MODELS = (0, 19, 4)
#: transformers model types whose blocks are ``Conv1D`` (``torch.addmm(bias, x, self.weight)``:
#: autograd saves the parameter itself, which ZeRO-3's ``free_param`` empties)
CONV1D_MODEL_TYPES = ("gpt2", "openai-gpt", "imagegpt", "decision_transformer")


def zero3_keeps_linear(inp: EstimateInput) -> bool:
    """Whether ZeRO-3 keeps gathered Linear weights until backward (``zero3_retained_linear``):
    training, stage 3, a model built outside ``zero.Init``, parameters gathered into GPU
    buffers (more than one rank, or parameter offload), no quantized base, not compiled, and
    a DeepSpeed release known to be before 0.19.4."""
    if (inp.mode != "train" or inp.zero_stage < 3 or inp.load_placement not in ("gpu", "host")
            or not (inp.world_size > 1 or inp.offload_params) or inp.quant or inp.compiled):
        return False
    parts = deepspeed_parts(inp.deepspeed_version)
    return parts is not None and parts < DS_LINEAR_WRAPPER_FOR_BUILT_MODELS


def zero3_linear_saves_input(inp: EstimateInput) -> bool:
    """Whether ZeRO-3's ``LinearFunctionForZeroStage3`` runs every ``F.linear`` of the step,
    which saves each linear's input for backward whether its weight trains or not.

    ``zero3_linear_wrap`` (``deepspeed/runtime/zero/linear.py``) calls
    ``LinearFunctionForZeroStage3.apply``, whose forward runs ``ctx.save_for_backward(input,
    ...)`` unconditionally (v0.7.7 line 52; the same at master, line 58): a torch linear with a
    frozen weight saves no input (``mm``'s backward needs only the weight for the input's
    gradient). ``zero.Init`` installs it (``torch.nn.functional.linear = zero3_linear_wrap``,
    v0.7.7 ``partition_parameters.py`` line 404, v0.14.2 line 553) and never restores it ("This
    will persist unless manually reset"; the restore in ``__exit__`` is commented out), so a
    model built under ``zero.Init`` (transformers' ``from_pretrained`` once a ZeRO-3 config is
    registered, Accelerate's ``zero3_init_flag``) trains with it; one built outside gets it from
    DeepSpeed 0.19.4 (``DS_LINEAR_WRAPPER_FOR_BUILT_MODELS``; before that,
    ``zero3_retained_linear`` instead). The saved input is a tensor autograd keeps only when
    something upstream requires grad (LoRA adapters, or weights that train: then the input was
    saved anyway and nothing changes).

    Training under stage 3, not a quantized base (bitsandbytes' linears do not call
    ``F.linear``), not compiled; a model built outside ``zero.Init`` with a release known to be
    before 0.19.4 does not have it; unknown placement or release counts as having it."""
    if inp.mode != "train" or inp.zero_stage < 3 or inp.quant or inp.compiled:
        return False
    if inp.load_placement in ("gpu", "host"):
        parts = deepspeed_parts(inp.deepspeed_version)
        return parts is None or parts >= DS_LINEAR_WRAPPER_FOR_BUILT_MODELS
    return True


def zero3_retained_linear(inp: EstimateInput, arch: Any, prm: Any) -> float:
    """Gathered Linear weights ZeRO-3 cannot free until their backward, in elements beyond
    the live set of ``zero3_live_params`` (0 when the wrapper below is installed).

    ``torch.nn.functional.linear`` saves ``weight.t()`` for backward (``mm``/``addmm``'s
    ``mat2``): a view, with its own reference to the gathered storage. ZeRO-3 releases a
    module's parameters after its forward with ``free_param`` (``param.data =
    torch.empty(0)``, ``partition_parameters.py`` v0.14.2 5f631ab line 288), which frees
    nothing while that view is alive: every Linear weight gathered in forward stays on the GPU
    until its backward has run, and backward gathers it again beside it. DeepSpeed's
    ``LinearFunctionForZeroStage3`` (``zero/linear.py``) saves the parameter itself instead,
    but is installed (``torch.nn.functional.linear = zero3_linear_wrap``) only by the
    ``zero.Init`` context (v0.14.2 line 553; v0.18.3 line 580). A model built outside it and
    passed to ``deepspeed.initialize`` is partitioned by ``Init(module=...)``
    (``parameter_offload.py`` v0.14.2 line 197), which did not install it until 617061d6b
    (#8189, 2026-07-31, first in v0.19.4: "Without the wrapper, the standard Linear
    implementation can retain the gathered weight storage until backward completes,
    significantly increasing memory usage").

    So, with ZeRO-3 on a model built outside ``zero.Init`` (``load_placement`` gpu or host)
    and DeepSpeed before 0.19.4: each block released in forward (those not kept for reuse)
    keeps its Linear weights; the head too when nothing is kept (reuse distance 0). Not
    counted: checkpointed blocks (their forward saves nothing), ``Conv1D`` blocks (GPT-2:
    autograd saves the parameter itself), one GPU without parameter offload (the gathered
    weight is a view of the rank's own partition, ``NoGatherHandle``), a quantized base, a
    compiled model, and an unknown release (counted as the latest; see
    ``unknown_alternatives``)."""
    if not zero3_keeps_linear(inp):
        return 0.0
    _, kept_layers, reuse = _zero3_kept(inp, prm)
    n_layers = max(int(arch.num_layers) + int(arch.num_encoder_layers), 1)
    conv1d = (inp.model_impl == "transformers" and not inp.torch_mha
              and str(getattr(arch, "model_type", "")) in CONV1D_MODEL_TYPES)
    blocks = 0.0
    if not inp.grad_ckpt and not conv1d:
        blocks = max(n_layers - kept_layers, 0) * float(prm.quantizable) / n_layers
    head = float(prm.lm_head or prm.embeddings) if reuse <= 0 else 0.0
    return blocks + head


def zero3_live_params(inp: EstimateInput, prm: Any) -> float:
    """Parameters (elements) ZeRO-3 holds gathered at once in the steady state: the running
    module, the prefetch bucket (capped by ``stage3_max_live_parameters``) and what is kept
    for reuse.

    DeepSpeed's ``PartitionedParameterCoordinator.__params_to_release`` (stage 3, once the
    first step has recorded the module trace) does not release a parameter whose next use
    lies within ``stage3_max_reuse_distance`` elements (default 1e9) of the trace. At the
    turn from forward to backward the last modules of forward are the first of backward: a
    module ``S`` elements before the end of forward is next used after about ``2 S``
    elements, so the LM head (always: distance 0) and the blocks within ``reuse / 2`` of
    it stay gathered into backward.
    """
    kept, _, _ = _zero3_kept(inp, prm)
    prefetch = min(float(inp.max_live_parameters or C.DS_MAX_LIVE_PARAMETERS),
                   float(inp.prefetch_bucket_size or C.DS_PREFETCH_BUCKET))
    return min(float(prm.total), kept + prm.layer + prefetch)


def zero3_offload_gather_staging(inp: EstimateInput, prm: Any) -> tuple[float, float]:
    """ZeRO-3 with parameter offload: the GPU copy of the host partitions that each gather
    stages through, in elements (0 without parameter offload).

    ``all_gather_coalesced`` (``partition_parameters.py``: v0.7.7 lines 839-869, v0.14.2 line
    1221, master line 1262) allocates the gathered buffer on the GPU and passes
    ``param.ds_tensor.to(device)`` (one parameter) or ``torch.cat([p.ds_tensor.to(device) for p
    in params], out=...)`` (a coalesced group) to the all-gather: with the partition in host
    memory, ``.to`` makes a GPU copy of it that lives beside the buffer until the collective has
    run (on the GPU partition of an unoffloaded ZeRO-3 ``.to`` returns the tensor itself). The
    largest group gathered at once is the largest single parameter (the embedding or LM head,
    gathered alone when it is larger than the prefetch bucket, ``stage3_prefetch_bucket_size``,
    which closes once it passes the bucket) or a prefetch bucket; its partition is ``1/n`` of it.
    The head's gather comes at the end of forward, when every activation is saved and before
    the logits exist; in backward the head is still gathered (kept for reuse,
    ``zero3_live_params``) and the gathers are prefetch buckets.

    Returns (elements staged by a prefetch bucket, elements staged by the largest group)."""
    if inp.mode != "train" or inp.zero_stage < 3 or not inp.offload_params:
        return 0.0, 0.0
    n = max(inp.world_size, 1)
    bucket = min(float(inp.prefetch_bucket_size or C.DS_PREFETCH_BUCKET), float(prm.total))
    group = min(max(float(prm.largest), bucket), float(prm.total))
    return bucket / n, group / n


def zero3_ipg_buffer(inp: EstimateInput, grad_bytes: float) -> float:
    """ZeRO-3's contiguous gradient bucket: ``DeepSpeedZeroOptimizer_Stage3.
    _setup_for_real_optimizer`` allocates ``torch.empty(reduce_bucket_size)`` per gradient
    communication dtype on the GPU when ``contiguous_gradients`` is on (the default),
    whatever the number of trainable parameters, for the whole run (bytes)."""
    if not inp.contiguous_gradients:
        return 0.0
    return float(inp.reduce_bucket_size or C.DS_REDUCE_BUCKET) * grad_bytes


def zero3_step_grads(inp: EstimateInput, trainable: float, n: int, grad_bytes: float,
                     largest: float) -> tuple[float, float]:
    """ZeRO-3's optimizer step on the GPU: (the fp32 gradient of one sub-group, the flat
    16-bit copy made on the way), in bytes; (0, 0) under optimizer offload or below stage 3.

    ``DeepSpeedZeroOptimizer_Stage3.step`` (deepspeed v0.14.2 ``runtime/zero/stage3.py``,
    lines 2016-2060) updates the rank's partition one sub-group at a time; for each,
    ``_prepare_fp32_grad_for_sub_group`` (lines 1847-1866) runs
    ``self.flatten(self.averaged_gradients[sub_group_id]).to(fp32)``: the flatten makes a new
    contiguous copy of the sub-group's gradient partitions in their own dtype, and ``.to``
    a second one in fp32 that becomes the fp32 master's ``.grad`` (a no-op when the
    gradients are already fp32: the flat copy is the fp32 gradient). The 16-bit flat copy is
    freed when the statement ends, before the optimizer runs; ``_release_sub_group``
    (line 1895) drops the fp32 gradient after the sub-group's step. The same code runs at
    world size 1. A sub-group closes at the first parameter that brings it to
    ``sub_group_size`` elements (``_create_fp16_sub_groups``, line 903): at most the default
    1e9 plus one parameter's partition."""
    if inp.zero_stage < 3 or inp.offload_optimizer or not trainable:
        return 0.0, 0.0
    part = trainable / max(n, 1)
    sub = min(part, C.DS_SUB_GROUP_SIZE + largest / max(n, 1))
    return sub * 4.0, (sub * grad_bytes if grad_bytes < 4 else 0.0)


def zero12_ipg_buffers(inp: EstimateInput, grad_bytes: float) -> float:
    """ZeRO-1/2's contiguous gradient buckets during backward (bytes), at any world size.

    ``DeepSpeedZeroOptimizer.setup_buckets`` (deepspeed ``runtime/zero/stage_1_and_2.py``
    edaa722, lines 2493-2515), called from the first gradient hook of each backward
    (``process_gradients``, line 1761), allocates ``torch.empty(reduce_bucket_size)`` in the
    optimizer's parameter dtype on the GPU when ``contiguous_gradients`` is on (the
    default), and a second one of the same size when ``overlap_comm`` is on ("double
    buffers", line 2508); the hooks exist whenever ``contiguous_gradients`` is set (line
    639-641). ``_release_ipg_buffers`` (line 828) frees them at the end of backward
    (``independent_gradient_partition_epilogue``, lines 919-960). Full size whatever the number
    of trainable parameters; the same code runs on one GPU. ``overlap_comm`` unset is
    DeepSpeed's default: off below stage 3 (``runtime/zero/config.py overlap_comm_valid``)."""
    if not inp.contiguous_gradients or inp.zero_stage not in (1, 2):
        return 0.0
    buffers = 2 if inp.overlap_comm else 1
    return float(inp.reduce_bucket_size or C.DS_REDUCE_BUCKET) * grad_bytes * buffers


def zero12_step_grads(inp: EstimateInput, trainable: float, n: int,
                      grad_bytes: float) -> tuple[float, float]:
    """ZeRO-1/2's optimizer step on the GPU, optimizer not offloaded: (the fp32 gradient of the
    rank's partition, the flat 16-bit copy made on the way), in bytes; (0, 0) otherwise.

    ``DeepSpeedZeroOptimizer.step`` (deepspeed ``runtime/zero/stage_1_and_2.py``, v0.14.2
    5f631ab lines 1880-1886; the same at v0.9.5 fc9e1ee lines 1709-1715 and, split in two
    statements, at edaa722 lines 2356-2361) runs, per parameter group, ``self.flatten(self.averaged_gradients[i]).to(
    self.single_partition_of_fp32_groups[i].dtype)`` (``flatten_dense_tensors_aligned`` on the
    last rank): the flatten makes a contiguous copy of the partition's 16-bit gradients (views
    of ``grads_in_partition``, which stays allocated through the statement), and ``.to`` the
    fp32 gradient that becomes the fp32 partition's ``.grad``; with fp32 gradients ``.to``
    returns the flat copy itself (no second copy). The 16-bit copy dies with the statement,
    ``free_grad_in_param_list`` and ``averaged_gradients[i] = None`` (lines 1893-1895) free the
    16-bit gradients, and ``.grad = None`` after ``_optimizer_step`` (line 1905) the fp32 one.
    (From v0.19.2 a partition DeepCompile pre-flattened skips the flatten; not the default.)
    The partition is the whole model on one GPU: the same code runs at world size 1. The
    parameter groups are stepped one after another; the estimate takes the whole partition
    (weight-decay groups leave the biases and norms, a small share, in a second group).
    Not modelled: ZeRO-1 with bf16 and ``data_types.grad_accum_dtype: fp32`` (not the
    default: under ZeRO the gradients accumulate in the model dtype, ``engine.get_data_types``)
    runs ``BF16_Optimizer`` instead (``engine.py`` v0.14.2 lines 1189-1191)."""
    if inp.zero_stage not in (1, 2) or inp.offload_optimizer or not trainable:
        return 0.0, 0.0
    part = trainable / max(n, 1)
    return part * 4.0, (part * grad_bytes if grad_bytes < 4 else 0.0)


def zero12_step_norm_copy(inp: EstimateInput, largest_trainable: float, trainable: float,
                          n: int) -> float:
    """ZeRO-1/2's optimizer step on the GPU: the fp64 copy of the largest gradient slice of the
    rank's partition made for the gradient norm (bytes; 0 under optimizer offload, est84).

    ``DeepSpeedZeroOptimizer.step`` computes the norm (``scaled_global_norm`` ->
    ``get_grad_norm_direct(self.averaged_gradients[i], ...)``) before it flattens the partition
    (``zero12_step_grads``), and takes every gradient slice of the partition to fp64 on the way:
    ``g.data.double().norm(2)`` (deepspeed ``runtime/zero/stage_1_and_2.py`` v0.9.2 e0e8085 line
    1509), ``torch.norm(g.data.double().detach(), norm_type)`` (v0.13.3 afdf028 line 1685),
    ``torch.linalg.vector_norm(g.data.double().detach(), ...)`` (edaa722 of 2026-08 line 2089):
    8 bytes per element, freed at the end of its statement, so one at a time. The overflow check
    before it (``_has_inf_or_nan``: ``x.float()``) copies at 4 bytes per element, smaller. The
    largest slice is the largest trainable parameter when it lies wholly in the rank's
    partition (rank 0 holds the first parameters of the flat group, a causal LM's embedding:
    the rank the estimate follows), at most the partition (``trainable / n`` elements).
    Under optimizer offload the same copies are made as gradients go to the host
    (``zero12_offload_grad_copies``). ZeRO-3's step does the same before its sub-groups' flat
    copies (``DeepSpeedZeroOptimizer_Stage3.get_grad_norm_direct``: ``g.to(device).double()
    .norm(2)``, v0.9.2 line 1498, v0.13.3 line 1749, edaa722 line 2285; ``step`` computes
    ``_get_norm_groups()`` before ``_prepare_fp32_grad_for_sub_group``), on each parameter's own
    partition, ``1/n`` of it."""
    if (inp.mode != "train" or inp.zero_stage < 1 or inp.fsdp is not None or inp.offload_optimizer
            or largest_trainable <= 0 or trainable <= 0):
        return 0.0
    if inp.zero_stage >= 3:
        # every parameter is partitioned on its own: a rank holds 1/n of the largest
        return 8.0 * min(float(largest_trainable), float(trainable)) / max(n, 1)
    return 8.0 * min(float(largest_trainable), float(trainable), float(trainable) / max(n, 1))


#: DeepSpeed releases whose ZeRO-1/2 offloaded step copies the fp32 partition to the GPU
#: (terms.zero12_offload_step_copy): from v0.14.1 (7b5b066, "fix pagable h2d memcpy", #5301)
#: to before v0.17.0 (17c8be0, "Fix the GPU memory usage of ZeRO-Offload", #7309).
DS_OFFLOAD_STEP_COPY_FROM = (0, 14, 1)
DS_OFFLOAD_STEP_COPY_UNTIL = (0, 17, 0)


def deepspeed_parts(version: Optional[str]) -> Optional[tuple[int, int, int]]:
    """(major, minor, patch) of a DeepSpeed version text ("0.14.4", "0.15"), else None."""
    m = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?", str(version or ""))
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else None


def zero12_offload_step_copy(inp: EstimateInput, trainable: float, n: int) -> float:
    """ZeRO-1/2 with ``offload_optimizer``: the fp32 partition copied to the GPU after the
    host step, in bytes (0 when the DeepSpeed version does not do it, or is unknown).

    From v0.14.1 the offloaded branch of ``DeepSpeedZeroOptimizer.step`` writes the updated
    weights back with ``bit16_partitions[partition_id].data.copy_(fp32_partition.to(
    get_accelerator().current_device_name()).data)`` (``runtime/zero/stage_1_and_2.py``,
    v0.14.2 5f631ab lines 1868-1871; introduced by 7b5b066, #5301, when the fp32 partition
    became pinned host memory): ``.to`` makes an fp32 copy of the whole partition on the GPU
    next to the 16-bit weights, 4 bytes per trainable parameter of the rank's partition. Before
    (v0.9.5 fc9e1ee line 1700: ``copy_(fp32_partition.data)``), a host-to-GPU ``copy_`` with a
    dtype change converts on the host (ATen ``copy_kernel_cuda``: ``src.to(dst.dtype)`` on the
    source device when the destination is CUDA), and from v0.17.0 (17c8be0, #7309: "Before the
    fix, the memory usage is about 3x that of params_FP16") a pinned 16-bit host buffer is
    copied instead: no GPU copy either way. An unknown version counts as the latest (none);
    ``unknown_alternatives`` puts the copy in the interval's top."""
    if inp.zero_stage not in (1, 2) or not inp.offload_optimizer or not trainable:
        return 0.0
    parts = deepspeed_parts(inp.deepspeed_version)
    if parts is None or not (DS_OFFLOAD_STEP_COPY_FROM <= parts < DS_OFFLOAD_STEP_COPY_UNTIL):
        return 0.0
    return trainable / max(n, 1) * 4.0


def zero12_offload_grad_buffer(inp: EstimateInput, largest_trainable: int, grad_bytes: float) -> float:
    """ZeRO-1/2 with ``offload_optimizer``: ``temp_grad_buffer_for_gpu_offload``, a GPU
    buffer of the largest trainable parameter's size in the parameter dtype, allocated when
    the optimizer is built and kept for the run (``stage_1_and_2.py`` edaa722, line 591;
    its twin ``temp_grad_buffer_for_cpu_offload`` at line 585 is host memory). The fp32
    partition, its gradient and the 16-bit copy for the step are host memory (lines
    488-507, 840-844). Bytes."""
    if inp.zero_stage not in (1, 2) or not inp.offload_optimizer:
        return 0.0
    return float(largest_trainable) * grad_bytes


def zero12_offload_grad_copies(inp: EstimateInput, largest_trainable: float, trainable: float,
                               n: int, grad_bytes: float) -> float:
    """ZeRO-1/2 with ``offload_optimizer`` and ``overlap_comm``: the reduction stream's cached
    blocks from the per-parameter copies made while each gradient of the rank's partition is
    sent to the host (bytes; reserved memory only, est29).

    At the accumulation boundary ``reduce_ipg_grads`` runs, for every parameter of the rank's
    partition, ``copy_grads_in_partition``, whose offload branch calls (``runtime/zero/
    stage_1_and_2.py``: v0.8.3 lines 1164-1190 and 1973-1978; the same at v0.10.0, v0.14.2,
    v0.16.4 and master 38327e0 of 2025-02-21):

    - ``set_norm_for_param_grad_in_gpu``: ``accumulated_grad.view(-1).narrow(0, start,
      num_elements).data.double().norm(2)``: an fp64 copy of the parameter's slice in the
      partition, 8 bytes per element;
    - ``update_overflow_tracker_for_param_grad`` -> ``_has_inf_or_nan(param.grad.data)``:
      ``float(x.float().sum())``, an fp32 copy of the whole 16-bit gradient (none for fp32
      gradients: ``.float()`` returns the tensor itself);
    - ``async_inplace_copy_grad_to_fp32_buffer_from_gpu``: ``src_tensor.float()`` of the slice
      (4 bytes per element; no larger than the fp64 copy).

    Each copy is freed at the end of its statement, so at most one lives at a time. Under
    ``overlap_comm`` the loop runs inside ``with stream(self.reduction_stream)``, so the
    blocks come from that stream's pool, which the compute stream cannot reuse: the pool keeps
    the largest of them for the rest of the run (reserved, released before an out-of-memory
    error). Without ``overlap_comm`` the copies are on the compute stream, come and go with
    each parameter's reduction, and are not charged (for rank 0 the first parameter of the
    flat group, the embedding of a causal LM, is reduced last, after the activations are
    freed).

    The largest slice is the largest trainable parameter when it lies wholly in the rank's
    partition (rank 0 holds the first parameters of the flat group; the partition is
    ``trainable / n`` elements). Not read: DeepSpeed releases after 2025-02."""
    if (inp.mode != "train" or inp.zero_stage not in (1, 2) or not inp.offload_optimizer
            or not inp.overlap_comm or largest_trainable <= 0 or trainable <= 0):
        return 0.0
    largest = float(min(largest_trainable, trainable))
    part = float(trainable) / max(n, 1)
    fp64_slice = 8.0 * min(largest, part)
    fp32_whole = 4.0 * largest if grad_bytes < 4 else 0.0
    return max(fp64_slice, fp32_whole)


def zero12_reduce_copy(inp: EstimateInput, trainable: float, n: int, grad_bytes: float) -> float:
    """ZeRO-1/2 with ``overlap_comm`` on more than one rank: the flat copy of a bucket whose
    gradients span two ranks' partitions, made on the reduction stream (bytes; reserved only,
    est72).

    DeepSpeed v0.19.2 ``runtime/zero/stage_1_and_2.py``: ``reduce_ipg_grads`` (line 1551) calls
    ``average_tensor`` on the bucket, which runs inside ``with stream(self.reduction_stream)``
    under ``overlap_comm`` (lines 1230-1240); with ``reduce_scatter`` on (the default) it cuts the
    bucket into one slice per destination rank, merging the slices of one rank (lines
    1260-1300), and hands them to ``allreduce_and_scatter`` (with ``use_multi_rank_bucket_
    allreduce``, the default) -> ``allreduce_and_copy_with_multiple_ranks`` -> ``allreduce_bucket``,
    whose ``self.flatten(bucket)`` (line 1701; torch's ``flatten_dense_tensors``: a view for one
    tensor, ``torch.cat`` for more) copies the slices into one tensor. A bucket inside one
    rank's partition is one slice (no copy); a bucket across a partition boundary is copied
    whole, and on ``n`` ranks ``n - 1`` boundaries are crossed every step. A bucket holds at most
    ``reduce_bucket_size`` elements; a model smaller than that is one bucket across every
    boundary. The copy is freed when the reduction returns, into the reduction stream's pool,
    which the compute stream cannot use (``zero3_streams``): reserved memory keeps it. Left out:
    a parameter larger than the bucket reduced alone across a boundary (the LM head of a causal
    LM is the flat group's last parameter, inside the last rank's partition)."""
    if (inp.mode != "train" or inp.zero_stage not in (1, 2) or not inp.overlap_comm or n < 2
            or trainable <= 0):
        return 0.0
    return min(float(inp.reduce_bucket_size or C.DS_REDUCE_BUCKET), float(trainable)) * grad_bytes


def zero3_grad_partitions(inp: EstimateInput, grads: float) -> float:
    """ZeRO-3's gradient partitions: one flat buffer for the whole run, in bytes per GPU
    (``grads``: the rank's gradient partition as the optimizer phase charges it).

    ``DeepSpeedZeroOptimizer_Stage3`` allocates ``grad_partitions_flat_buffer = torch.zeros(
    sum(p.partition_numel() for p in all_params), dtype=self.gradient_accumulation_dtype,
    device=self.device)`` when it is built and hands out views of it as each parameter's
    gradient partition (``runtime/zero/stage3.py`` v0.14.2 5f631ab lines 494-508; edaa722 line
    742; first in 4912e0ad7, #1453, v0.6.0). Nothing frees it: the buffer is allocated through
    every forward and backward, not only from backward on. ``self.device`` is the host under
    optimizer offload (line 225), where ``grads`` is 0 already. Stage 1/2 build their
    averaged partitions during backward and are not counted here."""
    if inp.mode != "train" or inp.zero_stage < 3 or inp.offload_optimizer:
        return 0.0
    return grads


def accumulated_grads(inp: EstimateInput, grads: float, fsdp_no_sync: bool) -> float:
    """Gradients (bytes per GPU) alive through a micro-batch's forward and backward under
    gradient accumulation: 0 without it.

    With ``grad_accum`` > 1 the optimizer steps once every ``grad_accum`` micro-batches and
    ``zero_grad`` runs only then: micro-batch k > 1 starts with the gradients of the earlier
    ones in ``param.grad`` (torch's ``AccumulateGrad`` adds the new gradient into it in place),
    and they stay through its forward and its whole backward. The step's peak is then on
    such a micro-batch: every gradient next to the saved activations at backward's start.
    What is kept is what the optimizer phase reads (``grads``: sharded under ZeRO-2/3 and FSDP,
    none when offloaded to host memory). FSDP with ``no_sync`` keeps unsharded gradients
    instead (:func:`fsdp_accumulated_grads`, charged there), and a step inside backward
    (``optimizer_in_backward``) has no accumulation to keep.
    """
    if inp.mode != "train" or inp.grad_accum <= 1 or fsdp_no_sync or inp.optimizer_in_backward:
        return 0.0
    return grads


def grads_through_forward(inp: EstimateInput) -> bool:
    """Whether the previous step's gradients are alive during the forward: the loop calls
    ``optimizer.zero_grad()`` after the forward and before ``backward`` (``logits =
    model(x); loss = ...; optimizer.zero_grad(); loss.backward(); optimizer.step()``, plan
    ``optimizer.zero_grad_after_forward``). With ``set_to_none`` (torch 2.x's default)
    ``zero_grad`` frees them only then, so every forward after the first runs next to a full
    set of gradients; backward starts without them. Zeroed gradients that are kept anyway
    (``set_to_none=False``) and accumulation are charged through every phase elsewhere;
    DeepSpeed ZeRO keeps its own gradient partitions and buckets (its ``zero_grad`` order does
    not decide them), and a step inside backward leaves no gradients to keep."""
    return (inp.zero_grad_after_forward and inp.mode == "train" and not inp.zero_stage
            and not inp.optimizer_in_backward and not inp.offload_gradients)


def offloaded_grads(prm: Any, trainable: float, grad_bytes: float) -> float:
    """GPU gradients (bytes) under torchao's ``CPUOffloadOptimizer(offload_gradients=True)``.

    ``torchao/optim/cpu_offload.py``: every parameter of ``minimal_size`` (4,096) elements or
    more gets a ``register_post_accumulate_grad_hook`` that copies its gradient into a pinned
    host buffer on a side stream, then ``p_device.grad.record_stream(self.stream)`` and
    ``p_device.grad = None``: the device gradient is freed as soon as it is accumulated (its
    block returns to the pool once the copy has run). At most the largest parameter's
    gradient is live at a time; the smaller ones (biases, norms: kilobytes to a few MiB)
    stay on the GPU and are left out."""
    return min(float(prm.largest), float(trainable)) * grad_bytes














def deepspeed_casts_params(inp: EstimateInput) -> bool:
    """Whether DeepSpeed's engine holds a LoRA or k-bit job's floating parameters in 16 bits.

    ``DeepSpeedEngine._configure_distributed_model`` runs ``self.module.half()`` when the
    config's fp16 section is on and ``self.module.bfloat16()`` for bf16 (deepspeed
    ``runtime/engine.py`` v0.9.5 lines 1035-1042; from #8066, 2026, ``_cast_module_mixed_precision``
    casts the parameters the same way and keeps fp32 buffers). ``Module.half`` casts floating
    tensors only: bitsandbytes' int8 and packed 4-bit weights stay as they are, while PEFT's
    fp32 adapters and the norms, embeddings and head that ``prepare_model_for_kbit_training``
    upcast to fp32 come back to 16 bits. Its ZeRO-1/2 optimizer keeps the fp32 master copy of
    the trainable (16-bit) parameters. The plan spells DeepSpeed's fp16/bf16 modes as
    ``precision`` fp16/bf16 with a ZeRO stage; only LoRA and k-bit jobs have floating
    parameters outside 16 bits for the cast to change."""
    return (inp.zero_stage > 0 and inp.precision in ("fp16", "bf16")
            and (inp.lora or bool(inp.quant)) and inp.model_impl == "transformers")
