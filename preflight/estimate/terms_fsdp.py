"""FSDP terms of the estimate: all-gathers without a limit, accumulated and offloaded gradient shards, SHARD_GRAD_OP's gathered model, the unsharded root, FSDP1's wrap peak, quantized constants, FSDP2 and accelerate's upcast."""

from __future__ import annotations

from typing import Any

from preflight.estimate.inputs import EstimateInput


def fsdp_all_gathers_unlimited(inp: EstimateInput) -> bool:
    """Whether FSDP1 runs without its rate limiter, so that the CPU thread, running ahead of
    the GPU, all-gathers every unit of the model before the first ones are freed.

    ``FullyShardedDataParallel(limit_all_gathers=...)``: "If True, then FSDP explicitly
    synchronizes the CPU thread to ensure GPU memory usage from only two consecutive FSDP
    instances (the current instance running computation and the next instance whose
    all-gather is prefetched). If False, then FSDP allows the CPU thread to issue
    all-gathers without any extra synchronization" (torch docstring). The default was False
    until pytorch/pytorch#104900 ("[FSDP] Default `limit_all_gathers=True`", merged
    2023-07-11), first released in torch 2.1.0; Lightning's ``FSDPStrategy`` passes no
    value of its own (only ``use_orig_params``).

    Without the limiter each unit's unsharded FlatParameter is allocated on the all-gather
    stream when the CPU issues its pre-forward hook, and the reshard after its forward only
    returns the block once the compute stream has passed it (``_free_unsharded_flat_param``
    calls ``record_stream`` on the current stream before ``_free_storage``); a GPU-bound
    step (the CPU far ahead) therefore holds every unit's gathered parameters at once in
    the all-gather stream's pool. In backward the autograd-computed unsharded gradient is
    freed after its reduce-scatter is issued, with ``record_stream`` on the post-backward
    stream (``_post_backward_hook``), so its block cannot be reused by the next unit's
    gradient until that reduce-scatter ran: again up to every unit's gradient. Both are the
    upper bound of a CPU that is ahead for the whole step.

    Training under FULL_SHARD or HYBRID_SHARD on more than one GPU only (SHARD_GRAD_OP
    keeps the parameters gathered anyway). ``fsdp_limit_all_gathers`` None takes the
    default of ``torch_version`` (unknown, or read from a lower bound such as ``torch>=2.0``,
    which installs the newest release: the current default, limited)."""
    if inp.mode != "train" or inp.fsdp not in ("full", "hybrid") or inp.world_size <= 1:
        return False
    if inp.fsdp_limit_all_gathers is not None:
        return not inp.fsdp_limit_all_gathers
    if inp.torch_version_pinned is False:
        return False
    version = inp.torch_before
    return version is not None and version < (2, 1)


def fsdp_accumulated_grads(inp: EstimateInput, prm: Any, trainable: int, full: bool,
                           grad_bytes: float, comp: int) -> float:
    """Unsharded gradients FSDP keeps between gradient syncs (bytes; 0 when it does not).

    ``FullyShardedDataParallel.no_sync()`` (what Lightning Fabric's ``no_backward_sync``
    and a hand-written accumulation loop call): "FSDP will accumulate the full model
    gradients (instead of gradient shards) until the eventual sync" (torch docstring). With
    ``use_orig_params=True`` and frozen weights in a trainable unit (LoRA inside a block
    wrapped whole), the unit's FlatParameter requires grad as a whole: "higher than
    expected gradient memory usage" (torch FSDP docstring), the frozen weights' gradients
    exist in the parameter dtype.
    """
    if not (inp.fsdp and inp.world_size > 1 and inp.grad_accum > 1 and inp.fsdp_unsharded_accum):
        return 0.0
    if full:
        return trainable * grad_bytes
    if inp.fsdp_frozen_grads:
        return prm.total * float(comp)
    return trainable * grad_bytes


def fsdp_offload_grad_shards(inp: EstimateInput, elements: float, elem_bytes: float, n: int) -> float:
    """FSDP1 with ``CPUOffload(offload_params=True)``: the reduce-scattered gradient shards of
    every unit that trains, held on the GPU until backward ends (bytes per GPU).

    ``_reduce_grad`` (torch ``distributed/fsdp/_runtime_utils.py``, read in torch 2.13's
    FSDP1) runs in the post-backward stream: it allocates the unit's sharded gradient
    (``new_sharded_grad = torch.empty_like(chunks[0])``), reduce-scatters into it, casts it to
    the FlatParameter's dtype (``_cast_grad_to_param_dtype``) and stores it as
    ``flat_param._saved_grad_shard`` (``_accumulate_sharded_grad``). With parameter offload
    ``_offload_grad`` then copies it to the pinned ``_cpu_grad``, but the GPU tensor stays
    referenced by ``_saved_grad_shard`` until the post-backward final callback
    (``_finalize_params`` -> ``FlatParamHandle.prepare_gradient_for_optim``, which takes
    ``_cpu_grad`` as ``.grad`` and only then runs ``delattr(flat_param, "_saved_grad_shard")``).
    So at the end of backward the GPU holds the rank's whole gradient shard, in the stored
    dtype, although the optimizer never reads it there. Without offload the same tensor
    becomes ``.grad`` (charged as gradients already).

    Being allocated in the post-backward stream, these blocks go back to that stream's pool
    of the caching allocator, which the compute stream's allocations cannot reuse: reserved
    memory keeps them beside the compute stream's own peak (``model.py`` charges that as
    ``stream_cache``, not counted by allocated-memory readings, the interval's bottom nor the
    verdict: the allocator releases free cached blocks before it reports out of memory). The
    same holds without offload for the sharded gradients once ``zero_grad`` has freed them
    (FSDP1's ``.grad`` is the ``_saved_grad_shard``; FSDP2's are views of the reduce-scatter
    output, allocated in its reduce-scatter stream): ``model.py`` charges them as
    ``stream_cache`` in forward and at the start of backward.

    Training under FULL_SHARD, SHARD_GRAD_OP or HYBRID_SHARD on more than one GPU (FSDP1
    switches one GPU to NO_SHARD, whose ``_reduce_grad_no_shard`` keeps no shard) with
    parameter offload, under FSDP1 only: FSDP2's ``foreach_reduce`` moves each reduce-scattered
    shard to the host at once (``new_sharded_grad.to(torch.device("cpu"))``, "we can free it
    here by not keeping a ref"; :func:`fsdp2`); ``elements``: the FlatParameters' trainable elements in all units
    (every element of a FlatParameter mixing frozen and trainable weights)."""
    if (inp.mode != "train" or inp.fsdp not in ("full", "hybrid", "grad-op") or inp.world_size <= 1
            or not inp.offload_params or elements <= 0 or fsdp2(inp)):
        return 0.0
    return float(elements) * float(elem_bytes) / max(n, 1)


def grad_op_gathered(total: float, comp: float, quantized: float = 0.0, base_bytes: float = 0.0) -> float:
    """Bytes of the unsharded parameters FSDP holds under ``fsdp: grad-op`` (FSDP1
    ``ShardingStrategy.SHARD_GRAD_OP``, FSDP2 ``fully_shard(reshard_after_forward=False)``),
    from each unit's forward to the end of its backward, beside the rank's stored shard.

    FSDP1 (torch ``distributed/fsdp/_runtime_utils.py``, 2.1 to 2.5): ``_post_forward``
    reshards only the strategies in ``RESHARD_AFTER_FORWARD_HANDLE_STRATEGIES`` (FULL_SHARD,
    HYBRID_SHARD), so a SHARD_GRAD_OP unit keeps its padded unsharded FlatParameter
    (``_full_param_padded``, in ``MixedPrecision.param_dtype`` when set) after its forward;
    ``_post_backward_reshard`` frees it (``_should_free_in_backward``: True whenever gradients
    are synchronised). The rank's ``_local_shard`` is a separate storage kept throughout.
    FSDP2 (``_fully_shard/_fsdp_param_group.py``): ``post_forward`` reshards only when
    ``reshard_after_forward`` is True; ``post_backward`` reshards (``reshard_after_backward``
    defaults to True); the sharded parameters are kept throughout. So at the end of forward
    and through backward every unit is gathered at once: ONE copy of the model in the
    gathered dtype, ``total x comp`` (a quantized base travels as its stored values,
    ``quantized x base_bytes``), on top of the ``weights / n`` shard. (Until est60 the
    estimate also kept the whole model as the stored weights, a second full copy.)"""
    if total <= 0:
        return 0.0
    q = min(max(quantized, 0.0), total)
    return float((total - q) * comp + q * base_bytes)


def fsdp_root_unsharded(inp: EstimateInput, root_bytes: float, n: int) -> float:
    """FSDP's root unit (embeddings, LM head, final norm: what the block wrap policy leaves to
    the outermost wrapper): bytes on the GPU for its unsharded parameters from the start of
    forward to the end of backward, beyond what the ``weights`` term already counts.

    The root is not resharded after forward: FSDP1's ``_post_forward`` frees the unsharded
    flat parameter only ``if not state._is_root`` (torch ``distributed/fsdp/_runtime_utils.py``),
    and FSDP2's lazy init sets the root group's ``post_forward_mesh_info = None`` ("for the
    root, do not reshard after forward": ``_fully_shard/_fsdp_state.py``). So the whole
    ``root_bytes`` is gathered through forward and backward.

    Without parameter offload the rank's own shard (``root_bytes / n``) is in ``weights``
    already, so the gathered copy adds ``root_bytes * (1 - 1/n)``. With parameter offload the
    shard lives on the host (``weights`` charges nothing on the GPU): FSDP1's ``pre_unshard``
    copies it to the GPU (``flat_param_to(self.device)``) only as the all-gather's input, and
    ``_use_unsharded_flat_param`` then points ``flat_param.data`` at the unsharded view, so the
    GPU holds the whole unsharded root, ``root_bytes``, and nothing of the shard besides.
    """
    if root_bytes <= 0 or n <= 1:
        return 0.0
    if inp.offload_params:
        return float(root_bytes)
    return float(root_bytes) * (1 - 1 / n)


def fsdp1_wrap_peak(inp: EstimateInput, root_bytes: float, layer_bytes: float, whole: float,
                    constants: float, n: int) -> tuple[float, float]:
    """FSDP1 building its units: (bytes already held, bytes of the unit, its FlatParameter and
    the rank's shard of it) at the moment the largest unit is sharded; (0, 0) when this does not apply.

    ``FullyShardedDataParallel.__init__`` runs per unit, the blocks first and the root (the
    embeddings, LM head and final norm the block policy leaves to the outermost wrapper) last
    (torch ``distributed/fsdp/_init_utils.py`` ``_init_param_handle_from_module``, read at
    2.13):

    - ``_move_module_to_device`` (with ``device_id``, which Accelerate, the HF Trainer and
      Lightning pass) moves the unit's parameters that are not yet managed to the GPU; a
      meta-device unit is materialised there instead (``param_init_fn`` /
      ``_materialize_meta_module``): the unit, whole, on the GPU;
    - ``FlatParamHandle.flatten_tensors`` (``_flat_param.py``) builds the FlatParameter with
      ``torch.cat`` beside those parameters: a second copy of the unit;
    - ``_init_param_handle_from_params`` then calls ``handle.shard()``, whose ``_get_shard``
      clones the rank's chunk (``chunk.clone()``: a ``1/n`` copy) before it frees the flat
      storage (``_typed_storage()._resize_(0)``), while the original parameters are still held
      by ``managed_params`` in ``_init_param_handle_from_module`` (they die when it returns);
      under parameter offload ``flat_param_to(cpu)`` then moves the shard to the host.

    So the largest unit peaks at ``2 + 1/n`` times its bytes, on top of what the earlier units
    left on the GPU: their shards (``(whole - unit) / n``), or under parameter offload only what FSDP does
    not manage (the 4-bit quantization constants, ``fsdp_quant_constants``). The caching
    allocator keeps the blocks, so reserved memory keeps that peak. Not charged: the 250 MB flat
    copies of ``sync_module_states``' broadcast, whose lifetime depends on how far the host runs
    ahead of NCCL.

    Training under FSDP1 on more than one GPU, the model not already whole on the GPU
    (``load_placement`` "gpu" has its own load term). Not FSDP2, whose ``fully_shard`` copies each
    parameter's chunk into its shard one parameter at a time, with no flat copy of the unit."""
    if (inp.mode != "train" or inp.fsdp not in ("full", "hybrid", "grad-op") or n <= 1
            or fsdp2(inp) or inp.load_placement == "gpu"):
        return 0.0, 0.0
    unit = max(float(root_bytes), float(layer_bytes))
    if unit <= 0:
        return 0.0, 0.0
    held = float(constants) if inp.offload_params else max(float(whole) - unit, 0.0) / n
    return held, unit * (2.0 + 1.0 / n)


def fsdp_quant_constants(inp: EstimateInput, quantized: float, base_bytes: float, n: int) -> float:
    """bitsandbytes 4-bit under FSDP: the quantization constants (absmax, and under double
    quantization the 8-bit absmax with its fp32 block constants) that stay whole on every
    GPU, beyond what the ``weights`` term already counts of them (bytes per GPU).

    The constants are no parameters: they live in ``Params4bit.quant_state`` (and the
    ``Linear4bit.quant_state`` bitsandbytes keeps for the FSDP case), so FSDP, which flattens
    and shards ``nn.Parameter`` objects only, neither shards nor offloads them. Under FSDP
    transformers quantizes each weight on the GPU and then moves only its packed data away
    (``type(value)(value.data.to(param_to), **value.__dict__)`` in
    ``_load_state_dict_into_meta_model``: "cpu" on local rank 0, "meta" elsewhere), so the
    ``quant_state`` made on the GPU stays there on every rank. The weights term charges the
    constants at ``(base_bytes - 0.5)`` per quantized weight divided like the packed values:
    by ``n`` when sharded, not at all under parameter offload; the rest is this term.

    Not torchtune: its 4-bit base is torchao's ``NF4Tensor``, whose scalers are tensors of
    the subclass itself, sharded and gathered with it (``fsdp_pre_all_gather``).
    """
    if (inp.quant != "4bit" or not inp.fsdp or n <= 1 or quantized <= 0
            or inp.model_impl == "torchtune"):
        return 0.0
    per = max(float(base_bytes) - 0.5, 0.0)
    whole = float(quantized) * per
    return whole if inp.offload_params else whole * (1 - 1 / n)


def fsdp2(inp: EstimateInput) -> bool:
    """Whether the job shards with FSDP2 (``fully_shard``): stated (``fsdp_version``), or
    unknown on a torchtune recipe (``training.shard_model`` applies ``fully_shard`` to each
    layer and the root). Unknown elsewhere is FSDP1, the ``FullyShardedDataParallel`` wrapper
    that Accelerate (``fsdp_version`` 1 by default), Lightning's ``FSDPStrategy`` and the HF
    Trainer build."""
    if inp.fsdp_version is not None:
        return inp.fsdp_version == 2
    return inp.model_impl == "torchtune"


def accelerate_fsdp_upcast(inp: EstimateInput) -> bool:
    """Whether Accelerate stores a 16-bit-loaded model's FSDP parameters in fp32 (est27).

    Under mixed precision Accelerate follows DeepSpeed and holds the sharded parameters in
    full precision:

    - FSDP2: ``fsdp2_prepare_model`` ends with ``if accelerator.mixed_precision != "no" and
      (model_dtype is None or model_dtype != torch.float32): model = model.to(torch.float32)``
      (accelerate ``utils/fsdp_utils.py``, since FSDP2 support, #3394 of 2025-03-27): every
      parameter, frozen ones too; ``MixedPrecisionPolicy(param_dtype=bf16)`` casts the gathered
      copies back to 16 bits for compute.
    - FSDP1: ``Accelerator.prepare_model`` upcasts each ``FlatParameter`` whose dtype is not
      fp32 and that ``requires_grad`` (``param.data = param.data.to(torch.float32)``, #2674 of
      2024-04-29): a full fine-tune's every unit. A unit mixing frozen weights and adapters
      (``use_orig_params``) is not decided here and keeps the loaded dtype.

    Only for a plan whose FSDP Accelerate prepares (``fsdp_by_accelerate``), under autocast
    (``mixed_precision`` bf16/fp16), with 16-bit weights loaded (``weights_bits`` 16), not
    quantized (4-bit storage is not a float parameter that ``.to`` converts here)."""
    if not (inp.fsdp and inp.fsdp_by_accelerate and inp.precision.startswith("amp")
            and inp.weights_bits == 16 and not inp.quant and inp.world_size > 1):
        return False
    return inp.fsdp_version == 2 or not inp.lora
