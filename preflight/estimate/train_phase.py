"""The training step's terms (split from :mod:`preflight.estimate.model`, which calls
``train_phases``): weights, gradients, optimizer state, activations and the transients of one
optimizer step under the job's precision, sharding, offload, adapters and loss."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from preflight.estimate import ckpt_submodules as CS
from preflight.estimate import constants as C
from preflight.estimate import contrastive as CL
from preflight.estimate import int8_matmul as I8
from preflight.estimate import quant_autocast as QA
from preflight.estimate.autocast_cache import cached_weights
from preflight.estimate.dequant import dequant_transients, stored_weights
from preflight.estimate.dtype_groups import lora_largest, mixed_dtype_temporaries
from preflight.estimate.frozen_tables import applies as frozen_applies
from preflight.estimate.frozen_tables import frozen_table_params, largest_block_matrix
from preflight.estimate.fsdp_wrap import largest_module
from preflight.estimate.held_outputs import held_outputs
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.pending_frees import unlimited_gather_excess
from preflight.estimate.shapes import (  # noqa: F401  (re-exported for callers and tests)
    _ALL_LINEAR,
    _LLAMA_SHAPES,
    _TARGET_DIMS,
    guessed_architecture,
    lora_params,
    lora_targets,
)
from preflight.estimate.step_dtypes import _dtypes, _shard_count
from preflight.estimate.terms import (
    accelerate_fsdp_upcast,
    accumulated_grads,
    deepspeed_casts_params,
    fsdp_accumulated_grads,
    fsdp_all_gathers_unlimited,
    fsdp_offload_grad_shards,
    fsdp_quant_constants,
    fsdp_root_unsharded,
    grad_op_gathered,
    grads_through_forward,
    head_grad_at_backward_start,
    offloaded_grads,
    optimizer_temporaries,
    paged_state_bytes,
    state_bytes,
    tied_embedding_grad,
    zero3_grad_partitions,
    zero3_ipg_buffer,
    zero3_live_params,
    zero3_offload_gather_staging,
    zero3_retained_linear,
    zero3_step_grads,
    zero12_ipg_buffers,
    zero12_offload_grad_buffer,
    zero12_offload_grad_copies,
    zero12_offload_step_copy,
    zero12_reduce_copy,
    zero12_step_grads,
    zero12_step_norm_copy,
)
from preflight.estimate.train_activations import _train_activations
from preflight.estimate.trained_embeddings import table_notes, trained_tables
from preflight.estimate.zero2_grads import partition_at_backward_start
from preflight.estimate.zero3_streams import (
    allgather_pool,
    allgather_pool_note,
    reduce_pool,
    reduce_pool_note,
)
from preflight.estimate.zero_client_optim import zero_client_step_temporaries
from preflight.estimate.zero_master import zero_fp32_master

#: Every term a phase may hold, in the order reports list them.
if TYPE_CHECKING:
    from preflight.estimate.model import _Params, _Phases


def _train(inp: EstimateInput, arch: Any, prm: _Params, ph: _Phases, pb: tuple[float, float],
           ab: tuple[float, float], notes: list[str]) -> int:
    if inp.zero_stage and inp.precision.startswith("amp") and not inp.quant:
        # DeepSpeed's bf16/fp16 modes are not autocast: the engine holds 16-bit weights and
        # the optimizer an fp32 master copy (2 + 2 + 12 bytes per parameter)
        inp = replace(inp, precision=inp.precision[4:])
        notes.append("DeepSpeed mixed precision: 16-bit weights and gradients, fp32 master "
                     "weights and optimizer states in the (sharded) optimizer")
    d, base_bytes, other_bytes = _dtypes(inp)
    # DeepSpeed's fp16/bf16 engine casts every floating parameter to 16 bits when it wraps the
    # model (terms_sharded.deepspeed_casts_params): PEFT's fp32 adapters and what k-bit
    # preparation left in fp32 (norms, embeddings, head) become 16-bit, the norms' outputs
    # with them (a 16-bit residual stream); the optimizer keeps an fp32 master copy of what trains
    ds_cast = deepspeed_casts_params(inp)
    if ds_cast:
        other_bytes = min(other_bytes, 2.0) if inp.quant else other_bytes
        d = replace(d, res=2)
        notes.append("DeepSpeed fp16/bf16: the engine casts every floating parameter (adapters, "
                      "fp32 norms and embeddings) to 16 bits; fp32 master copies in the optimizer")
    fsdp_mp = bool(inp.fsdp and inp.world_size > 1 and inp.precision.startswith("amp") and not inp.quant)
    if fsdp_mp:
        # FSDP's MixedPrecision(param_dtype=bf16/fp16) (accelerate's mixed_precision with
        # FSDP): the gathered parameters are cast to 16 bits before forward, so the model
        # computes in 16 bits: 16-bit residual stream, no autocast weight copies; the
        # sharded fp32 parameters, gradients reduced to fp32 and the optimizer stay as they are
        d = replace(d, res=2, autocast=False)
        notes.append("FSDP mixed precision: parameters cast to 16 bits for compute (activations "
                     "in 16 bits); fp32 sharded weights and optimizer states")
        if accelerate_fsdp_upcast(inp):
            # Accelerate upcasts the 16-bit-loaded parameters to fp32 under mixed precision
            # (terms_sharded.accelerate_fsdp_upcast): the shards are 4 bytes per parameter
            base_bytes = other_bytes = 4.0
            d = replace(d, weights=4.0)
            notes.append("Accelerate FSDP under mixed precision upcasts the model's 16-bit "
                         "parameters to fp32 (" + ("every parameter, FSDP2's fsdp2_prepare_model"
                                                   if inp.fsdp_version == 2 else
                                                   "every FlatParameter that trains, FSDP1")
                         + "): the shards hold 4 bytes per parameter")
    lora = inp.lora
    targets = lora_targets(inp, arch) if lora else ()
    n_lora = lora_params(arch, int(inp.lora_r or 0), targets) if lora else 0
    if inp.quant and not lora:
        notes.append("quantized weights cannot be trained without adapters: estimating as if "
                     "the quantized base were frozen (add --lora-r)")
    full = not lora and not inp.quant
    # vocabulary tables trained beside the adapters (trained_embeddings.py)
    table_b = other_bytes if inp.quant else base_bytes
    tables = trained_tables(inp, prm, table_b)
    # a full fine-tune with frozen vocabulary tables trains the blocks only (frozen_tables.py)
    frozen_tables = frozen_applies(inp, full)
    trainable = prm.total - frozen_table_params(inp, prm, full) if full else n_lora + tables.params
    largest_trained = min(largest_block_matrix(arch) if frozen_tables else prm.largest, trainable)
    weights = stored_weights(inp, prm, base_bytes, other_bytes) + tables.copy
    if inp.quant == "8bit":
        weights += (arch.num_layers + arch.num_encoder_layers) * 7 * arch.hidden_size * 4  # SCB rows
        if inp.mode == "train":
            notes.append(I8.outlier_note(inp, prm.quantizable * C.INT8_BYTES_PER_PARAM))
    # PEFT keeps adapters in fp32 over a 16-bit base; litgpt and torchtune build them in the
    # model's dtype (Lightning's bf16-true, torchtune's dtype: bf16)
    adapter_bytes = 4.0 if (inp.model_impl == "transformers" and not ds_cast) else float(d.comp)
    grad_bytes = base_bytes if full else adapter_bytes
    # ZeRO's optimizers copy what trains to fp32 whatever its dtype (zero_master.py)
    master = (full and base_bytes == 2 and inp.zero_stage > 0) or (ds_cast and lora) \
        or zero_fp32_master(inp, trainable)
    state_dtype = 4.0 if (master or grad_bytes == 4) else 2.0
    states = (trainable - tables.params) * state_bytes(inp.optimizer, state_dtype, arch, full) + tables.states
    temps = optimizer_temporaries(inp, trainable, state_dtype, prm)
    mixed = mixed_dtype_temporaries(inp, n_lora, state_dtype, tables.params, table_b,
                                    max(prm.embeddings, prm.lm_head), lora_largest(inp, arch))
    temps = temps if mixed is None else mixed
    grads = (trainable - tables.params) * grad_bytes + tables.grads
    master_b = trainable * 4.0 if master else 0.0
    # sharding
    n = _shard_count(inp)
    sharded = inp.world_size > 1 and (inp.zero_stage > 0 or inp.fsdp is not None)
    w_div = g_div = s_div = 1
    if inp.zero_stage >= 1 and sharded:
        s_div = n
    if inp.zero_stage >= 2 and sharded:
        g_div = n
    if inp.zero_stage >= 3 and sharded:
        w_div = n
    if inp.fsdp and sharded:
        # every FSDP mode stores a 1/n shard of each parameter between steps; SHARD_GRAD_OP /
        # reshard_after_forward=False differ in what is gathered beside it (below)
        s_div = g_div = w_div = n
    weights_gpu = weights / w_div
    if inp.offload_params and (inp.zero_stage >= 3 or inp.fsdp):
        weights_gpu = 0.0
        if inp.fsdp:
            grads, states, master_b, temps = 0.0, 0.0, 0.0, 0.0
    if inp.fsdp and sharded and w_div > 1:
        # bitsandbytes' quantization constants are no parameters: FSDP leaves them whole on
        # every GPU (terms.fsdp_quant_constants)
        weights_gpu += fsdp_quant_constants(inp, prm.quantizable, base_bytes, n)
    if inp.offload_optimizer or inp.offload_params:
        host = (trainable * (state_bytes(inp.optimizer, 4.0, arch, full) + 8.0)
                if inp.offload_optimizer else 0.0) + (weights if inp.offload_params else 0.0)
        notes.append(f"offload keeps about {host / 1024 ** 3:.0f} GiB in host memory over all "
                     f"ranks ({inp.offload_optimizer or inp.offload_params}); host memory is not "
                     "checked against the target")
    if inp.offload_optimizer:
        states, master_b, temps = 0.0, 0.0, 0.0
        if inp.zero_stage >= 2:
            grads = 0.0  # partitions go to host memory; only the reduce buckets stay
        if inp.zero_stage == 0 and not inp.fsdp:
            notes.append("optimizer offload needs ZeRO (DeepSpeed) or FSDP; estimated as asked")
    if inp.optimizer.startswith("paged") and states:
        # bitsandbytes allocates the states of tensors of 1e5+ elements in CUDA managed
        # memory (terms.paged_state_bytes): PyTorch's allocator never sees them and the
        # driver moves them to host memory when the GPU runs short. Not in the peak; the
        # interval's top counts them resident (what the GPU holds when there is room)
        managed = min(paged_state_bytes(inp.optimizer, state_bytes(inp.optimizer, state_dtype,
                                                                    arch, full),
                                        arch, prm, full, int(inp.lora_r or 0), targets)
                      + tables.managed, states)
        states -= managed
        ph.managed = managed / s_div
        notes.append(f"paged optimizer: {ph.managed / 1024 ** 3:.1f} GiB of its states live in "
                     "CUDA managed memory, outside PyTorch's allocator, and move to host memory "
                     "when the GPU runs short; the peak leaves them out, the interval's top "
                     "counts them")
    notes.extend(table_notes(inp, tables))
    train_phases = ("forward", "backward", "optimizer")
    fsdp_no_sync = False
    offload_shards = 0.0
    ph.every(train_phases, "weights", weights_gpu, pb)
    ph.every(train_phases, "lora_adapters", n_lora * adapter_bytes, pb)
    ph.every(train_phases, "optimizer_states", states / s_div, pb)
    ph.every(train_phases, "master_weights", master_b / s_div, pb)
    if inp.optimizer_in_backward and trainable:
        # the step runs inside backward, one parameter at a time, and frees that gradient:
        # at most the largest parameter's gradient (and its step temporaries) is ever live
        one = largest_trained
        grads = one * grad_bytes
        temps = min(temps, 2 * one * state_dtype)
        g_div = 1
    if inp.offload_gradients and inp.offload_optimizer and trainable and not sharded:
        # torchao CPUOffloadOptimizer(offload_gradients=True) (torchao/optim/cpu_offload.py):
        # each parameter's post-accumulate-grad hook copies its gradient to pinned host memory
        # on a side stream and drops the device copy (record_stream, p.grad = None), so one
        # parameter's gradient at a time is live (terms.offloaded_grads)
        grads = offloaded_grads(prm, trainable, grad_bytes)
        g_div = 1
    ph.add("optimizer", "gradients", grads / g_div, pb)
    ph.add("optimizer", "optimizer_temporaries", temps / s_div, pb)
    # gathered / unsharded parameters and communication buffers
    comp = d.comp
    if inp.zero_stage >= 3 and (sharded or inp.offload_params):
        # (with parameter offload ZeRO-3 gathers each module's parameters from host memory
        # into GPU buffers even on one GPU: the same live set as when sharded); what is
        # reused soon is kept (terms.zero3_live_params); before DeepSpeed 0.19.4, a model built
        # outside zero.Init keeps each released block's Linear weights until its backward
        # (terms.zero3_retained_linear)
        live = zero3_live_params(inp, prm) + zero3_retained_linear(inp, arch, prm)
        # (under parameter offload each gather stages through a GPU copy of the host
        # partitions, a prefetch bucket's at a time: terms.zero3_offload_gather_staging; the
        # largest group's, the head's, at the end of forward below)
        live += zero3_offload_gather_staging(inp, prm)[0]
        ph.every(("forward", "backward"), "gathered_params", live * comp, pb)
        # their blocks stay in the all-gather stream's pool through the step (zero3_streams.py)
        pool = allgather_pool(inp, live * comp)
        if pool:
            ph.add("optimizer", "stream_cache", pool, (0.0, pb[1]))
            notes.append(allgather_pool_note(pool))
    if inp.zero_stage >= 3 and trainable:
        # the contiguous gradient bucket exists from the optimizer's construction on, full size
        ph.every(train_phases, "zero_buckets", zero3_ipg_buffer(inp, 2.0 if comp == 2 else 4.0), pb)
        # each bucket's flat copy for the reduce-scatter, cached by the reduce stream (est72)
        rpool = reduce_pool(inp, trainable, largest_trained, 2.0 if comp == 2 else 4.0)
        if rpool:
            ph.every(train_phases, "stream_cache", rpool, (0.0, pb[1]))
            notes.append(reduce_pool_note(rpool))
    if inp.fsdp and sharded:
        grad_op = inp.fsdp == "grad-op"
        if grad_op:
            # SHARD_GRAD_OP (FSDP1: _should_free_in_backward is False after forward, the
            # unsharded flat parameter is freed in each unit's post-backward) and FSDP2's
            # reshard_after_forward=False: every unit's unsharded parameters, in the compute
            # dtype, live from its forward to its backward, beside the rank's stored shard
            # (weights / n above): ONE gathered copy of the model (terms_fsdp.grad_op_gathered)
            ph.every(("forward", "backward"), "gathered_params", grad_op_gathered(
                prm.total, comp, prm.quantizable if inp.quant else 0.0, base_bytes), pb)
        # FSDP all-gathers what each rank stores: a quantized base (bnb 4-bit with a
        # quant_storage dtype) travels as packed 4-bit values; the rest in the compute
        # dtype (MixedPrecision param_dtype)
        layer_q = prm.quantizable / max(arch.num_layers + arch.num_encoder_layers, 1)
        layer_bytes = ((layer_q * base_bytes + (prm.layer - layer_q) * comp) if inp.quant
                       else prm.layer * comp)
        per_module = inp.fsdp_wrap == "module" and not inp.quant
        if per_module:
            # every module its own unit: the largest module is gathered, the root keeps
            # nothing (fsdp_wrap.py)
            layer_bytes = largest_module(arch, prm, inp.model_impl) * comp
        # (grad-op: the units are part of the whole gathered copy above)
        unit = 0.0 if grad_op else layer_bytes * C.FSDP_UNSHARDED_UNITS
        # without FSDP1's rate limiter (limit_all_gathers=False, the default before torch
        # 2.1) a CPU ahead of the GPU gathers every block before the first is freed, and
        # every block's unsharded gradient waits for its reduce-scatter
        # (terms.fsdp_all_gathers_unlimited)
        unlimited = fsdp_all_gathers_unlimited(inp)
        blocks = max(arch.num_layers + arch.num_encoder_layers, 1)
        if unlimited:
            # the blocks beyond the limited case are freed (CPU side) with an event pending
            # on the compute stream: reserved, not allocated, and released before an
            # out-of-memory error (terms_sharded.unlimited_gather_excess)
            excess = unlimited_gather_excess(unit, layer_bytes * blocks)
            ph.every(("forward", "backward"), "pending_frees", excess, (0.0, pb[1]))
        ph.every(("forward", "backward"), "gathered_params", unit, pb)
        # the unit's unsharded gradients exist only for weights that train (all of the
        # unit's weights when FSDP1 mixes frozen and trainable ones in a FlatParameter)
        frozen_grads = bool(inp.fsdp_frozen_grads) and not full
        layer_trainable = (prm.layer if full or frozen_grads
                           else n_lora / max(arch.num_layers + arch.num_encoder_layers, 1))
        if per_module and (full or frozen_grads):
            layer_trainable = layer_bytes / comp
        accum = fsdp_accumulated_grads(inp, prm, trainable, full, grad_bytes, comp)
        fsdp_no_sync = bool(accum)
        if accum:
            # no_sync: every unit's unsharded gradient is kept between syncs (forward of
            # the next micro-batch and its backward), the running unit's among them
            ph.every(("forward", "backward"), "gradients", accum, pb)
        else:
            # the unsharded gradient has the gathered parameters' dtype: the compute dtype under
            # MixedPrecision (reduce_dtype = param_dtype: no cast before the reduce-scatter)
            unsharded = comp if (frozen_grads or fsdp_mp) else grad_bytes
            ph.add("backward", "gathered_params", layer_trainable * unsharded, pb)
            if unlimited:
                ph.add("backward", "pending_frees", unlimited_gather_excess(
                    layer_trainable * unsharded, layer_trainable * unsharded * blocks), (0.0, pb[1]))
        if frozen_grads:
            # the sharded gradient covers the frozen weights too until zero_grad
            ph.add("optimizer", "gradients", prm.total * comp / n, pb)
        # with parameter offload every unit's reduce-scattered gradient shard stays on the
        # GPU until backward ends, in the post-backward stream's pool
        # (terms.fsdp_offload_grad_shards)
        offload_shards = fsdp_offload_grad_shards(
            inp, prm.total if (full or frozen_grads) else n_lora,
            comp if frozen_grads else grad_bytes, n)
        # the root unit (embeddings, LM head, final norm) is not wrapped with the blocks:
        # gathered at the start of forward and kept until backward ends; whole under
        # parameter offload, whose shard is on the host (terms.fsdp_root_unsharded)
        root = 0.0 if (per_module or grad_op) else (prm.embeddings + prm.lm_head) * comp
        ph.every(("forward", "backward"), "gathered_params", fsdp_root_unsharded(inp, root, n), pb)
    if inp.zero_stage in (1, 2) and trainable:
        # the contiguous gradient buckets (full size, one or two) live through backward, and
        # under optimizer offload a largest-parameter staging buffer for the whole run; both
        # on one GPU too (terms.zero12_ipg_buffers, terms.zero12_offload_grad_buffer)
        ph.add("backward", "zero_buckets", zero12_ipg_buffers(inp, grad_bytes), pb)
        one = largest_trained
        ph.every(train_phases, "zero_buckets", zero12_offload_grad_buffer(inp, one, grad_bytes), pb)
        # under optimizer offload with overlap_comm, the fp64/fp32 copies made on the reduction
        # stream as each gradient of the partition goes to the host stay in that stream's pool:
        # reserved only, released before an out-of-memory error (terms.zero12_offload_grad_copies)
        copies = zero12_offload_grad_copies(inp, one, trainable, n if sharded else 1, grad_bytes)
        # and a bucket across two ranks' partitions is flattened there for its all-reduce: the
        # pool keeps the larger of the two (terms.zero12_reduce_copy, est72)
        flat = zero12_reduce_copy(inp, trainable, n if sharded else 1, grad_bytes)
        ph.every(train_phases, "stream_cache", max(copies, flat), (0.0, pb[1]))
        if flat > copies:
            notes.append(f"ZeRO-{inp.zero_stage} with overlap_comm: a gradient bucket across two ranks' "
                         f"partitions is copied flat on DeepSpeed's reduction stream, whose cached blocks "
                         f"({flat / 1024 ** 3:.2f} GiB) the compute stream cannot use (reserved, released "
                         "before an out-of-memory error)")
        if copies >= 2 ** 26:
            notes.append(f"ZeRO-{inp.zero_stage} optimizer offload with overlap_comm: the reduction "
                         f"stream keeps {copies / 1024 ** 3:.2f} GiB of blocks from the per-parameter "
                         "fp64 norm and fp32 copies made as gradients go to the host (reserved, "
                         "released before an out-of-memory error)")
    ag_bytes = 0.0
    if inp.zero_stage in (1, 2) and sharded and trainable:
        ag_bytes = min(inp.allgather_bucket_size or C.DS_ALLGATHER_BUCKET, trainable) * max(base_bytes, 2.0)
        ph.add("optimizer", "zero_buckets", ag_bytes, pb)
    if inp.zero_stage in (1, 2) and trainable:
        # the step's fp32 gradient of the rank's partition and, while it is made, the flat
        # 16-bit copy it is cast from, at any world size (terms.zero12_step_grads); under
        # optimizer offload, DeepSpeed 0.14.1-0.16 instead copy the updated fp32 partition to
        # the GPU (terms.zero12_offload_step_copy)
        fp32_grad, flat = zero12_step_grads(inp, trainable, n if sharded else 1, grad_bytes)
        ph.add("optimizer", "zero_buckets", fp32_grad + flat, pb)
        # before them, alone, the norm's fp64 copy of the largest gradient slice of the partition
        # (terms.zero12_step_norm_copy, est84): what it holds beyond the step's other buffers
        norm = zero12_step_norm_copy(inp, largest_trained, trainable, n if sharded else 1)
        ph.add("optimizer", "zero_buckets", max(norm - fp32_grad - flat - ag_bytes, 0.0), pb)
        # a client optimizer (the HF Trainer's, no optimizer in the DeepSpeed config) steps the
        # flat partition: partition-sized temporaries (zero_client_optim)
        ph.add("optimizer", "optimizer_temporaries", zero_client_step_temporaries(
            inp, trainable, n if sharded else 1, largest_trained, flat), pb)
        ph.add("optimizer", "zero_buckets",
               zero12_offload_step_copy(inp, trainable, n if sharded else 1), pb)
    if inp.zero_stage >= 3 and trainable:
        # the step's fp32 gradient of one sub-group and, while it is made, the flat 16-bit
        # copy it is cast from, at any world size (terms.zero3_step_grads; DeepSpeed's own
        # optimizers step in place: no optimizer temporaries under ZeRO)
        fp32_grad, flat = zero3_step_grads(inp, trainable, n if sharded else 1, grad_bytes,
                                           largest_trained)
        ph.add("optimizer", "zero_buckets", fp32_grad + flat, pb)
        ph.add("optimizer", "optimizer_temporaries", zero_client_step_temporaries(
            inp, trainable, n if sharded else 1, largest_trained, flat), pb)
    # DDP's Reducer allocates its buckets at construction whatever the world size: a job that wraps
    # the model in DDP on one process holds them too (est94, docs/calibration.md)
    ddp = inp.world_size > 1 or inp.ddp_one_process
    if ddp and not inp.zero_stage and not inp.fsdp and trainable:
        if not inp.ddp_bucket_view:
            ph.every(train_phases, "ddp_buckets", grads, pb)
        else:
            ph.every(train_phases, "ddp_buckets", min(grads, C.DDP_BUCKET_BYTES), pb)
    # autocast keeps a compute-dtype copy of every fp32 matmul weight until its backward
    if d.autocast and d.comp < base_bytes and not inp.quant:
        # with checkpointing the forward still ends holding every cast: torch's cache keeps them
        # until the outermost autocast region exits, whatever autograd keeps (autocast_cache.py);
        # the backward runs outside it: the head's cast (saved by its matmul) and the one layer
        # being recomputed inside checkpoint's own autocast region (est73)
        # an LM head tied to the embeddings is cast too (the embedding lookup is not)
        cached = cached_weights(inp, arch, prm)     # the head and the matmul weights
        head = cached - (prm.total if arch.family == "cnn" else prm.quantizable)
        forward = cached
        backward = (head + prm.layer) if inp.grad_ckpt else cached
        ph.add("forward", "autocast_weight_cache", forward * d.comp / w_div, pb)
        ph.add("backward", "autocast_weight_cache", backward * d.comp / w_div, pb)
    # activations
    acts = _train_activations(inp, arch, d, full, targets, notes)
    # a 4-bit base under autocast with fp32 other parts keeps fp32 tensors (quant_autocast.py)
    acts = QA.apply(acts, inp, arch, notes)
    # checkpointing per submodule keeps each wrapped module's input (ckpt_submodules.py)
    acts = CS.apply(acts, inp, arch, d, notes)
    ph.fixed_transient = acts.get("fixed_transient", 0.0)
    ph.add("forward", "activations", acts["saved"], ab)
    ph.add("forward", "logits_loss", acts["logits_fwd"], ab)
    if inp.zero_stage >= 3 and inp.offload_params:
        # ZeRO-3 gathers the LM head (the largest group) at the end of forward through a GPU
        # copy of its host partition, beside every saved activation and before the logits
        # exist (terms.zero3_offload_gather_staging)
        bucket, group = zero3_offload_gather_staging(inp, prm)
        ph.add("forward", "gathered_params", max((group - bucket) * comp - acts["logits_fwd"], 0.0), pb)
    # forward: a 4-bit head dequantizes while the 16-bit logits of the earlier chunks are held
    # (before the loss runs); a block matrix before any logits exist
    head_t, block_t = dequant_transients(inp, arch, prm, d.comp)
    fwd_at_head = (acts["logits_held"] + head_t) if head_t else 0.0
    ph.add("forward", "dequant_transient",
           max(fwd_at_head - acts["logits_fwd"], block_t - acts["logits_fwd"], 0.0), ab)
    # a loop that keeps its outputs object (held_outputs.py): previous step's logits and cache
    held = held_outputs(inp, arch, d.comp, float(inp.micro_batch * (inp.seq_len or 0)),
                        max(acts.get("logits_returned", 0.0), acts["logits_held"]), acts["logits_loop"],
                        acts.get("logits_outside_bwd", 0.0))
    ph.add("forward", "held_outputs", held["forward"], ab)
    # Backward starts with every activation saved, the loss gradients over the vocabulary
    # (or, later, one recomputed layer and its own gradients); it ends with every gradient
    # and little else. The backward phase is the larger of the two moments.
    # (The compute-dtype logits are not held: a training step keeps only the loss, as
    # the Trainer's compute_loss does; see calibration/data.)
    version = inp.torch_before
    keeps = inp.zero_grad_keeps or (version is not None and version < (2, 0)
                                    and "zero_grad_keeps" not in inp.sources)
    # gradient accumulation: the gradients of micro-batches 1..k-1 are accumulated into
    # (AccumulateGrad adds in place) and live through micro-batch k's forward and backward
    # (terms.accumulated_grads; FSDP's unsharded no_sync gradients are charged above instead)
    kept = grads / g_div if keeps else accumulated_grads(inp, grads / g_div, fsdp_no_sync)
    # ZeRO-3 holds its gradient partitions in one buffer allocated with the optimizer, so
    # they are allocated through every phase (terms.zero3_grad_partitions)
    kept = max(kept, zero3_grad_partitions(inp, grads / g_div))
    if kept:
        # zero_grad(set_to_none=False) (the default before torch 2.0, and Trainer's
        # model.zero_grad() then): zeroed gradients stay allocated through every phase
        ph.add("forward", "gradients", kept, pb)
    elif grads_through_forward(inp):
        # forward, loss, zero_grad(), backward, step: the previous step's gradients live
        # through the forward and are freed before backward (terms.grads_through_forward)
        ph.add("forward", "gradients", grads / g_div, pb)
        if grads:
            notes.append("zero_grad() runs between the forward and backward: the previous step's "
                         f"{grads / g_div / 1024 ** 3:.1f} GiB of gradients are held through every "
                         "forward (call it before the forward or after the step to free them)")
    start: dict[str, float] = {"activations": acts["saved"]}
    # a 4-bit base dequantizes each weight in its matmul (dequant.py): the LM head's (when it
    # is 4-bit) next to the loss gradients, a block matrix's next to that layer's gradients
    head_t, block_t = dequant_transients(inp, arch, prm, d.comp)
    # an LLM.int8 base makes its weight 16-bit again for the input's gradient (int8_matmul.py)
    block_t += I8.backward_dequant(inp, arch)
    # the head's own backward makes its weight gradient next to the logits' gradient
    head_g = head_grad_at_backward_start(arch, full and not sharded and not kept and not CL.is_clip(arch)
                                         and not frozen_tables,
                                         grad_bytes)
    # (chunked, fused and compiled losses reach the head chunk by chunk: at their own peak)
    at_logits = acts["logits_at_head"] or acts["logits_bwd"]
    at_head = at_logits + head_g if at_logits else 0.0
    if max(acts["logits_bwd"], at_head) + head_t >= acts["recompute"] + acts["layer_bwd"] + block_t:
        if at_head > acts["logits_bwd"]:
            start["logits_loss"] = at_logits
            start["gradients"] = head_g
        else:
            start["logits_loss"] = acts["logits_bwd"]
        start["dequant_transient"] = head_t
    else:
        start["activation_recompute"] = acts["recompute"]
        start["backward_transient"] = acts["layer_bwd"]
        start["dequant_transient"] = block_t
    if held["backward_start"]:
        start["held_outputs"] = held["backward_start"]
    # ZeRO-2: the worst rank's gradient partition buffer exists from the first bucket reduction,
    # at the start of backward when the head and one block fill a bucket (zero2_grads.py)
    z2 = 0.0 if kept else partition_at_backward_start(inp, prm, full and not frozen_tables, grads / g_div)
    if z2:
        start["gradients"] = start.get("gradients", 0.0) + z2
    end_transient = max(acts["recompute"] + acts["layer_bwd"],
                        tied_embedding_grad(arch, full and not sharded and not frozen_tables, grad_bytes),
                        acts.get("frontend_end", 0.0))
    # FSDP CPU offload: the gradient shards are allocated at the end of backward, and their
    # blocks stay in the post-backward stream's pool, which the compute stream cannot reuse:
    # reserved memory is the compute stream's peak plus that pool in every phase
    # (``stream_cache``: reserved only; at the end of backward what the compute stream cached
    # at its start, terms.fsdp_offload_grad_shards)
    pool_at = {"forward": offload_shards, "backward": offload_shards, "optimizer": offload_shards}
    # without offload FSDP's sharded gradients are the same post-backward-stream blocks (FSDP1:
    # prepare_gradient_for_optim hands _saved_grad_shard to .grad; FSDP2: views of the
    # reduce-scatter output); once zero_grad frees them they stay in that stream's pool through
    # the next forward and the start of backward (terms.fsdp_offload_grad_shards)
    post_grads = (grads / g_div if (inp.fsdp and sharded and not offload_shards and not kept
                                    and inp.mode == "train") else 0.0)
    if post_grads:
        pool_at = {"forward": post_grads, "backward": post_grads, "optimizer": 0.0}
    if kept:
        ph.add("backward", "gradients", kept, pb)
        end = {"backward_transient": end_transient, "held_outputs": held["backward_end"]}
        if offload_shards + sum(end.values()) > sum(start.values()):
            pool_at["backward"] = max(sum(start.values()) - sum(end.values()), 0.0)
            start = end
            ph.add("backward", "gradients", offload_shards, pb)
        for term, value in start.items():
            ph.add("backward", term, value, ab)
    elif grads / g_div + offload_shards + end_transient + held["backward_end"] > sum(start.values()):
        end_compute = grads / g_div - post_grads + end_transient + held["backward_end"]
        pool_at["backward"] = max(sum(start.values()) - end_compute, 0.0)
        ph.add("backward", "gradients", grads / g_div + offload_shards, pb)
        ph.add("backward", "backward_transient", end_transient, ab)
        ph.add("backward", "held_outputs", held["backward_end"], ab)
        ph.terms["backward"].pop("autocast_weight_cache", None)
    else:
        for term, value in start.items():
            ph.add("backward", term, value, ab)
    if offload_shards or post_grads:
        # (the interval's bottom leaves the pool out: the allocator releases it when short)
        for phase, value in pool_at.items():
            ph.add(phase, "stream_cache", value, (0.0, pb[1]))
    if offload_shards:
        notes.append(f"FSDP CPU offload: every unit's sharded gradient ({offload_shards / 1024 ** 3:.1f} "
                     "GiB in all) stays on the GPU until backward ends, then cached by the "
                     "post-backward stream (reserved, released before an out-of-memory error)")
    elif post_grads:
        # no offload: the note must not name one (it printed "FSDP CPU offload ... (0.0 GiB)")
        notes.append(f"FSDP: the sharded gradients ({post_grads / 1024 ** 3:.1f} GiB) are blocks of the "
                     "post-backward stream; once zero_grad frees them they stay cached in its pool "
                     "through the next forward (reserved, released before an out-of-memory error)")
    return trainable


