"""Frozen models held beside the trained one: a preference or RL trainer's reference model.

DPO, KTO and GRPO with a KL term keep a *reference model*, a second copy of the starting
weights that only runs forward under ``torch.no_grad()``; PPO adds a reward model of the same
kind. Their memory is the copy's weights for the whole step and, while the copy runs, one
inference forward over the same batch. How the libraries hold it:

* TRL (``trl/trainer/dpo_trainer.py``, ``grpo_trainer.py`` at f2cd577): ``ref_model`` None and
  ``is_peft_model(model)`` -> ``self.ref_model = None`` ("the adapter can be disabled to revert
  to the initial model"): a LoRA run holds **no** copy; likewise ``precompute_ref_log_probs``
  (DPO) and ``beta == 0.0`` (GRPO). Otherwise the copy is built with the policy's
  ``model_init_kwargs`` (same dtype) and prepared with ``prepare_deepspeed`` (``trl/models/
  utils.py``: "If ZeRO-3 is used, we shard both the active and reference model. Otherwise ...
  initialized on each device with ZeRO disabled (stage 0)"), ``prepare_fsdp`` (wrapped with
  the policy's FSDP plugin: sharded) or ``accelerator.prepare_model(evaluation_mode=True)``
  (a whole replica on every GPU).
* OpenRLHF (``openrlhf/cli/train_dpo.py`` at 6a13d95): ``Actor(args.ref_pretrain, bf16=...,
  ds_config=strategy.get_ds_eval_config(offload=args.ref_offload))`` with
  ``stage=self.stage if self.stage == 3 else 0`` and ``offload_param`` on the CPU under
  ``--ref_offload``; its DPO trainer runs the policy's forward, then the reference's under
  ``torch.no_grad()`` while the policy's graph is alive, then backward.

So per GPU: ``frozen_models x parameters x bytes / shards`` resident in every phase (shards:
the world size under ZeRO-3 or FSDP full sharding, the node under hybrid, else 1; none when
offloaded), plus, in the forward phase, the copy's own forward transient (the estimator's
inference forward over the same micro-batch, without its weights) and, when sharded or
offloaded, what its forward gathers (:func:`frozen_gathered`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from preflight.estimate.inputs import EstimateInput, InputError

#: bits per frozen weight that ``frozen_bits`` accepts
BITS = (4, 8, 16, 32)
#: inference terms that are not the forward's transient (weights, overheads counted once)
_NOT_TRANSIENT = ("weights", "buffers", "lora_adapters", "cuda_context", "nccl_buffers",
                  "cublas_workspace", "fragmentation", "length_cache", "stream_cache", "pending_frees",
                  "step_segments")


def check_frozen(inp: EstimateInput) -> None:
    """InputError for frozen-model fields the estimator cannot use."""
    if not isinstance(inp.frozen_models, int) or isinstance(inp.frozen_models, bool) or inp.frozen_models < 0:
        raise InputError(f"frozen models must be a count of 0 or more, got {inp.frozen_models!r}")
    if inp.frozen_bits is not None and inp.frozen_bits not in BITS:
        raise InputError(f"unknown frozen-model bits {inp.frozen_bits!r} (expected "
                         f"{', '.join(str(b) for b in BITS)})")


def frozen_bytes_per_param(inp: EstimateInput, prm: Any, policy_bytes: float, other_bytes: float) -> float:
    """Bytes of one frozen copy as stored (whole model). ``frozen_bits`` when said (4/8 bits:
    the block matrices quantized, the rest in 16 bits); else the copy is built like the
    policy (TRL's ``model_init_kwargs``) and DeepSpeed's engine casts it to its 16-bit dtype
    (``bf16.enabled``/``fp16.enabled``: ``module.bfloat16()`` / ``.half()``), so 16 bits under
    ZeRO with autocast or 16-bit precision, else the policy's stored weights."""
    from preflight.estimate.dequant import stored_weights

    bits = inp.frozen_bits
    if bits in (16, 32):
        return prm.total * bits / 8
    if bits in (4, 8):
        return prm.quantizable * bits / 8 + (prm.total - prm.quantizable) * 2.0
    if inp.zero_stage and inp.precision != "fp32" and not inp.quant:
        return prm.total * 2.0
    return stored_weights(inp, prm, policy_bytes, other_bytes)


def frozen_shards(inp: EstimateInput) -> int:
    """Ranks one frozen copy is split over: ZeRO-3 keeps stage 3 for the copy (any other
    stage becomes 0: a replica), FSDP wraps it with the policy's plugin."""
    from preflight.estimate.step_dtypes import _shard_count

    if inp.world_size <= 1:
        return 1
    if inp.zero_stage >= 3 or inp.fsdp in ("full", "hybrid"):
        return _shard_count(inp)
    return 1


def frozen_gathered(inp: EstimateInput, prm: Any, shards: int) -> float:
    """Elements of a sharded (or offloaded) frozen copy gathered at once during its forward.

    ZeRO-3 (DeepSpeed's ``PartitionedParameterCoordinator``): the running module plus the
    prefetch bucket (``stage3_prefetch_bucket_size``, capped by ``stage3_max_live_parameters``);
    the largest module is the LM head or the embedding, gathered whole when the logits are
    made. No-grad forwards keep nothing for reuse: the trace's next use is the next step's
    forward, a whole model away (``stage3_max_reuse_distance``), and ``release_and_reset_all``
    runs at the end of forward. FSDP: the root unit (embeddings and head, not wrapped with the
    blocks) stays gathered through the forward, beside the running block."""
    from preflight.estimate import constants as C

    if shards <= 1 and not inp.frozen_offload:
        return 0.0
    if inp.fsdp in ("full", "hybrid"):
        return float(prm.embeddings + prm.lm_head + prm.layer)
    prefetch = min(float(inp.max_live_parameters or C.DS_MAX_LIVE_PARAMETERS),
                   float(inp.prefetch_bucket_size or C.DS_PREFETCH_BUCKET))
    return min(float(prm.total), max(prm.layer, prm.lm_head, prm.embeddings) + prefetch)


def add_frozen_models(inp: EstimateInput, arch: Any, prm: Any, ph: Any, pb: tuple[float, float],
                      ab: tuple[float, float], notes: list[str],
                      estimate_fn: Callable[[EstimateInput], Any]) -> None:
    """Adds ``frozen_weights`` (every training phase) and ``frozen_forward`` (the forward
    phase) for ``inp.frozen_models`` copies. ``estimate_fn`` is the model's own single
    estimate (called once, in inference mode, for the copy's forward transient)."""
    n = int(inp.frozen_models or 0)
    if n <= 0 or inp.mode != "train":
        return
    from preflight.estimate.step_dtypes import _dtypes

    _, base_bytes, other_bytes = _dtypes(inp)
    whole = frozen_bytes_per_param(inp, prm, base_bytes, other_bytes)
    shards = frozen_shards(inp)
    resident = 0.0 if inp.frozen_offload else n * whole / shards
    if resident > 0:
        ph.every(("forward", "backward", "optimizer"), "frozen_weights", resident, pb)
    # the copy's forward: the same batch through the same architecture, no grad
    ref = replace(inp, mode="infer", world_size=1, zero_stage=0, fsdp=None, lora_r=None,
                  quant=None, grad_ckpt=False, frozen_models=0, offload_params=None,
                  offload_optimizer=None, max_new_tokens=0, num_beams=1, keeps_outputs=False,
                  weights_bits=16 if whole <= prm.total * 2.0 else inp.weights_bits)
    est = estimate_fn(ref)
    transient = 0.0
    if est.ok and est.phase:
        transient = float(sum(v for t, v in est.phases[est.phase].items() if t not in _NOT_TRANSIENT))
    gathered = frozen_gathered(inp, prm, shards) * whole / max(prm.total, 1)
    if transient + gathered > 0:
        ph.add("forward", "frozen_forward", transient + gathered, ab)
    where = ("offloaded to host memory (only the running layer on the GPU)" if inp.frozen_offload
             else f"sharded over {shards} GPUs" if shards > 1 else "a whole replica on every GPU")
    notes.append(f"{n} frozen model{'s' if n > 1 else ''} beside the trained one (reference/reward "
                 f"copy): {whole / 2 ** 30:.2f} GiB each, {where}: {resident / 2 ** 30:.2f} GiB held "
                 f"per GPU; its no-grad forward adds {(transient + gathered) / 2 ** 30:.2f} GiB while the "
                 "policy's forward graph is alive (its log-probabilities' own softmax copies are not "
                 "charged)")
