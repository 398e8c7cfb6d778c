"""The plan fields the estimator reads beside the core ones (quantization details, ZeRO/FSDP
buckets and policies, loss implementation, library versions, data padding and lengths, ...):
each copied onto the :class:`~preflight.estimate.inputs.EstimateInput` with its source,
by :func:`preflight.estimate.inputs.input_from_plan`."""

from __future__ import annotations

from typing import Any

from preflight.estimate.fsdp_wrap import FSDP_WRAPS
from preflight.estimate.inputs import EstimateInput, _where


def extra_plan_fields(plan: Any, inp: EstimateInput, src: dict[str, str]) -> None:
    """Fields appended to the plan for the estimator (present only in newer plans)."""
    from preflight.plan import FIELDS

    pairs = (("quant_type", "precision.quant_type"), ("double_quant", "precision.double_quant"),
             ("reduce_bucket_size", "dist.reduce_bucket_size"),
             ("allgather_bucket_size", "dist.allgather_bucket_size"),
             ("prefetch_bucket_size", "dist.stage3_prefetch_bucket_size"),
             ("max_live_parameters", "dist.stage3_max_live_parameters"),
             ("loss", "loss.implementation"), ("kbit_prepared", "peft.kbit_prepared"),
             ("torch_version", "framework.torch_version"),
             ("transformers_version", "framework.transformers_version"),
             ("torchtune_version", "framework.torchtune_version"),
             ("fsdp_unsharded_accum", "dist.fsdp_unsharded_grad_accum"),
             ("fsdp_frozen_grads", "dist.fsdp_frozen_grads"),
             ("fsdp_limit_all_gathers", "dist.fsdp_limit_all_gathers"),
             ("fsdp_version", "dist.fsdp_version"),
             ("fsdp_wrap", "dist.fsdp_wrap"),
             ("max_reuse_distance", "dist.stage3_max_reuse_distance"),
             ("load_placement", "model.load_placement"), ("compiled", "compile.enabled"),
             ("compiled_loss", "compile.loss_inside"),
             ("mlp_act", "model.activation_function"),
             ("model_impl", "model.implementation"), ("overlap_comm", "dist.overlap_comm"),
             ("amp_impl", "precision.amp_impl"), ("gelu_at_call", "model.gelu_at_call"),
             ("contiguous_gradients", "dist.contiguous_gradients"), ("padding", "data.padding"),
             ("group_by_length", "data.group_by_length"), ("datasets", "data.datasets"),
             ("longest_sample", "data.longest_sample"), ("pad_multiple", "data.pad_to_multiple_of"),
             ("truncation", "data.truncation"),
             ("expandable_segments", "memory.expandable_segments"),
             ("loss_in_logits_dtype", "loss.in_logits_dtype"), ("use_cache", "model.use_cache"),
             ("liger_kernels", "model.liger_kernels"),
             ("feature_encoder_frozen", "model.feature_encoder_frozen"),
             ("offload_gradients", "optimizer.offload_gradients"), ("torch_mha", "model.torch_mha"),
             ("zero_grad_after_forward", "optimizer.zero_grad_after_forward"),
             ("foreach", "optimizer.foreach"),
             ("deepspeed_version", "framework.deepspeed_version"),
             ("trained_embeddings", "peft.trained_embeddings"),
             ("frozen_models", "model.frozen_copies"),
             ("keeps_outputs", "memory.keeps_outputs"), ("autocast", "precision.autocast"),
             ("weight_views", "model.weight_views"),
             ("ddp_one_process", "dist.ddp_one_process"))
    for name, plan_field in pairs:
        if plan_field not in FIELDS:
            continue
        fact = plan.resolve(plan_field)
        if fact is not None:
            value = fact.value
            if name == "fsdp_wrap" and value not in FSDP_WRAPS:
                continue  # size-based or no wrapping: not modelled, the default (a block) stays
            if name == "datasets":
                value = tuple(value) if isinstance(value, (list, tuple)) else (str(value),)
            if name == "truncation":  # the plan's words for est67's input
                value = {"cut": "truncate", "drop": "delete"}.get(value, value)
            if name == "quant_type" and value == "int8":
                inp.quant = "8bit"
                value = "nf4"
            setattr(inp, name, value)
            src[name] = _where(fact)
            if name == "torch_version":
                inp.torch_version_pinned = fact.confidence == "high"
    fused_optimizer(plan, inp, src)


def fused_optimizer(plan: Any, inp: EstimateInput, src: dict[str, str]) -> None:
    """est77: ``torch.optim.AdamW(fused=True)`` (or ``Adam``) is the estimator's ``adamw-fused``, whose step
    holds no temporaries (``terms_optim.optimizer_temporaries``): torch's fused path calls ``torch._fused_adamw_``
    on the parameter, gradient and state lists, which updates them in place (pytorch/pytorch @ 14159896
    ``aten/src/ATen/native/cuda/fused_adamw_impl.cu`` ``_fused_adamw_cuda_impl_``: the four lists through
    ``multi_tensor_apply_for_fused_optimizer<4>``, no output lists; measured on the CPU by
    ``calibration/optimizer_step_temps.py``: 0 bytes). Without this fact the plan's ``foreach`` False reads as the for-loop,
    whose two temporaries of the largest parameter the fused kernel never allocates."""
    from preflight.plan import FIELDS

    if "optimizer.fused" not in FIELDS or inp.optimizer != "adamw":
        return
    fact = plan.resolve("optimizer.fused")
    if fact is not None and fact.value is True:
        inp.optimizer = "adamw-fused"
        src["optimizer"] = _where(fact)
