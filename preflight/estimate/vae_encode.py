"""The VAE encode and the optimizer step of a diffusion training step, read from source (est36).

* **What the VAE encoder holds.** A training step that does not cache latents encodes the
  batch with ``AutoencoderKL.encode`` under ``no_grad`` first. diffusers' ``Encoder.forward``
  runs ``sample = self.conv_in(sample)`` and then ``for down_block in self.down_blocks: sample =
  down_block(sample)``, so the conv_in output stays referenced by ``Encoder.forward`` while the
  first ``DownEncoderBlock2D`` runs. That block runs ``for resnet in self.resnets: hidden_states
  = resnet(hidden_states, temb=None)``, so the second resnet's input is the first one's output.
  ``ResnetBlock2D.forward`` ends with ``output_tensor = (input_tensor + hidden_states) /
  self.output_scale_factor``: the sum is a new tensor and the division another, while
  ``input_tensor`` and ``hidden_states`` (conv2's output) are still bound. In the second resnet
  of the first block (``layers_per_block`` >= 2, every Stable Diffusion, SDXL, SD3, FLUX and DiT
  VAE) five feature maps of ``block_out_channels[0]`` channels at full resolution are alive:
  conv_in's output, the resnet's input, conv2's output, the sum and the quotient. With one
  resnet per block the input *is* conv_in's output: four. No autocast runs around the encode in
  the diffusers training scripts or fast-DiT (Accelerate's autocast wraps only the prepared
  model's ``forward``), so each map is in the VAE's own dtype; ``GroupNorm`` and ``SiLU`` make
  one map each and the previous one is dropped when ``hidden_states`` is rebound.
* **The VAE's dtype.** The diffusers examples cast the frozen VAE to ``weight_dtype`` (16-bit
  under mixed precision), except where they keep it fp32 (SDXL's VAE without
  ``--pretrained_vae_model_name_or_path``: "The VAE is always in float32 to avoid NaN losses").
  Scripts that never cast it (fast-DiT: ``AutoencoderKL.from_pretrained(...).to(device)``) keep
  fp32 under ``accelerate launch --mixed_precision fp16``. ``EstimateInput.vae_dtype`` says
  which ("fp32" | "16bit"); None keeps the weight dtype the examples use.
* **The previous step's gradients.** A loop that calls ``opt.zero_grad()`` after the forward,
  right before ``backward`` (fast-DiT's ``train.py`` and ``train_options/*.py``: ``x =
  vae.encode(x)...``, ``loss = ...``, ``opt.zero_grad()``, ``backward``, ``opt.step()``), frees
  the last step's gradients only then (``set_to_none``, torch 2.x's default): the VAE encode and
  the forward of every step after the first run beside a full set of fp32 gradients of the
  trained weights (``EstimateInput.zero_grad_after_forward``, ``terms_sharded.grads_through_forward``).
  The diffusers examples call ``optimizer.zero_grad()`` after ``optimizer.step()``: none.
* **DDP's gradient buckets.** ``accelerate launch --multi_gpu`` (and torchrun) wraps the trained
  model in ``DistributedDataParallel``; its ``Reducer`` allocates, at construction, one flat
  bucket tensor per ~25 MB group whose total is every trained gradient (fp32 here), and copies
  each gradient into it for the all-reduce. With ``gradient_as_bucket_view=True`` the gradients
  are views of the buckets and only the first bucket is extra (the LLM path's
  ``C.DDP_BUCKET_BYTES``). They exist in every phase, the VAE encode included. Not under ZeRO or
  FSDP (not modelled for diffusion: estimated as DDP with a note).
* **torch 2.0's foreach AdamW.** A full fine-tune's ``optimizer.step()`` holds
  ``zero_client_optim.foreach_adamw_intermediates`` fp32 lists the size of the trained weights:
  two before torch 2.1 (``exp_avg_sq_sqrt`` and ``denom``), one from 2.1.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = [
    "VAE_DTYPES",
    "adamw_step_lists",
    "check_vae_dtype",
    "ddp_bucket_bytes",
    "encode_live_maps",
    "previous_step_grads",
    "vae_elem_bytes",
    "vae_encode_bytes",
    "vae_layers_per_block",
]

#: ``EstimateInput.vae_dtype`` values
VAE_DTYPES = ("fp32", "16bit")


def vae_layers_per_block(vae_cfg: Mapping[str, Any]) -> int:
    """``AutoencoderKL``'s ``layers_per_block`` (the config's, else 2: every Stable Diffusion,
    SDXL, SD3, FLUX and DiT VAE config states 2; the class default is 1)."""
    value = vae_cfg.get("layers_per_block", 2) if isinstance(vae_cfg, Mapping) else 2
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 2


def encode_live_maps(layers_per_block: int) -> int:
    """Full-resolution feature maps alive at once in the encoder's first block (module doc)."""
    return 5 if layers_per_block >= 2 else 4


def vae_encode_bytes(batch: int, res: int, channels: int, layers_per_block: int, elem: int) -> int:
    """Bytes the VAE encode of ``batch`` images of ``res`` x ``res`` px holds at its peak:
    ``encode_live_maps`` maps of ``channels`` (``block_out_channels[0]``) x ``res`` x ``res``
    elements of ``elem`` bytes each."""
    return encode_live_maps(layers_per_block) * batch * channels * res * res * elem


def vae_elem_bytes(inp: Any, frozen_bytes: int) -> int:
    """Bytes per element of the VAE's weights and feature maps: ``inp.vae_dtype`` when said,
    else the frozen models' weight dtype (``frozen_bytes``)."""
    dtype = getattr(inp, "vae_dtype", None)
    return 4 if dtype == "fp32" else 2 if dtype == "16bit" else frozen_bytes


def check_vae_dtype(inp: Any) -> None:
    """``vae_dtype`` must be None or one of ``VAE_DTYPES`` (InputError otherwise)."""
    from preflight.estimate.inputs import InputError

    dtype = getattr(inp, "vae_dtype", None)
    if dtype is not None and dtype not in VAE_DTYPES:
        raise InputError(f"unknown VAE dtype {dtype!r} (expected {', '.join(VAE_DTYPES)})")


def adamw_step_lists(inp: Any) -> int:
    """fp32 lists the size of the trained weights a foreach AdamW step holds (1 unknown/2.1+,
    2 before torch 2.1; see ``zero_client_optim.foreach_adamw_intermediates``)."""
    from preflight.estimate.zero_client_optim import foreach_adamw_intermediates

    version = getattr(inp, "torch_before", None)
    if version is not None and version < (2, 0):
        return 1  # the for-loop default before 2.0: charged as one list, as before est36
    return foreach_adamw_intermediates(inp)


def previous_step_grads(inp: Any, trainable: int) -> int:
    """Bytes of the previous step's fp32 gradients alive in the VAE encode and the forward:
    ``4 x trainable`` when the loop zeroes them after the forward (module doc), else 0."""
    from preflight.estimate.terms_sharded import grads_through_forward

    return 4 * trainable if grads_through_forward(inp) else 0


def ddp_bucket_bytes(inp: Any, trainable: int) -> int:
    """Bytes of DDP's gradient buckets for ``trainable`` fp32 gradients on more than one GPU
    (module doc); 0 on one GPU unless DDP wraps the model there (``ddp_one_process``)."""
    from preflight.estimate import constants as C

    ddp = inp.world_size > 1 or getattr(inp, "ddp_one_process", False)   # est94: DDP on one process
    if not ddp or inp.mode != "train" or not trainable or inp.zero_stage or inp.fsdp:
        return 0
    grads = 4 * trainable
    return int(min(grads, C.DDP_BUCKET_BYTES)) if getattr(inp, "ddp_bucket_view", False) else grads
