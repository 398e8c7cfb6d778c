"""The activation terms of the training step (split from :mod:`preflight.estimate.train_phase`):
what the forward keeps for the backward under the job's checkpointing, attention kernel, sequence
length, micro batch, adapters and loss."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from preflight.estimate import activations as A
from preflight.estimate import activations_vision as AV
from preflight.estimate import audio_frontend as AF
from preflight.estimate import contrastive as CL
from preflight.estimate import int8_matmul as I8
from preflight.estimate import layer_scale as LS
from preflight.estimate.apex_amp import fp32_gelu
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.length_cache import fixed_length_encoder
from preflight.estimate.shapes import (  # noqa: F401  (re-exported for callers and tests)
    _ALL_LINEAR,
    _LLAMA_SHAPES,
    _TARGET_DIMS,
    guessed_architecture,
    lora_params,
    lora_targets,
)
from preflight.estimate.softcap import scores_by_hand, softcap_logits_bytes
from preflight.estimate.softmax_dtype import softmax_input_bytes
from preflight.estimate.terms import (
    attention_kernel,
    chunked_or_fused_logits,
    compiled_loss_logits,
    hf_logits_bytes,
    hf_loss_backward_bytes,
    hf_loss_forward_bytes,
    logits_reduction_loss,
    loss_compiled,
    mha_output_copied,
    returned_logits_bytes,
    sdpa_not_default,
    sdpa_output_copied,
    sdpa_repeats_kv,
    softmax_saves_input,
    value_view_keeps_qkv,
    zero3_linear_saves_input,
)
from preflight.estimate.torchtune_loop import loop_logits_bytes


def _train_activations(inp: EstimateInput, arch: Any, d: A.Dtypes, full: bool,
                       targets: tuple[str, ...], notes: list[str]) -> dict[str, float]:
    b = inp.micro_batch
    family = arch.family
    if inp.mlp_act and getattr(arch, "extra", None) is not None:
        # the activation the job builds the model with (from_pretrained(activation_function=))
        arch = replace(arch, extra={**arch.extra, "mlp_act": str(inp.mlp_act).lower()})
    out = {"saved": 0.0, "recompute": 0.0, "layer_bwd": 0.0, "logits_fwd": 0.0,
           "logits_bwd": 0.0, "logits_held": 0.0, "logits_at_head": 0.0, "logits_loop": 0.0,
           "logits_returned": 0.0, "logits_outside_bwd": 0.0}
    if family == "cnn":
        image = inp.image_size or arch.image_size
        acts = AV.cnn(arch, d, batch=b, image=image)
        if inp.grad_ckpt:
            notes.append("gradient checkpointing of CNNs is not modelled; estimated without it")
        out["saved"], out["layer_bwd"] = acts.saved, acts.backward
        return out
    swin = family == "vision" and (getattr(arch, "extra", None) or {}).get("layout") == "swin"
    if family == "vision":
        image = inp.image_size or arch.image_size
        seq = (image // max(arch.patch_size, 1)) ** 2 + 1
    else:
        seq = int(inp.seq_len or 0)
    tokens = b * seq
    dropout = A._dropout(arch, inp.dropout)
    kernel = attention_kernel(inp)
    if mha_output_copied(inp, arch):
        notes.append("torch.nn.MultiheadAttention: the memory-efficient SDPA kernel's output is "
                     "copied before out_proj (batch > 1), and out_proj saves the copy")
    if kernel != inp.attention and sdpa_not_default(inp):
        notes.append("eager attention: the transformers/torch versions give no SDPA by default "
                     "(transformers >= 4.36 with torch >= 2.1.1); the attention probabilities "
                     "are stored per layer")
    elif kernel != inp.attention and scores_by_hand(inp.model_impl, arch):
        notes.append("litgpt computes soft-capped attention by hand (no SDPA): the scores, their "
                     "tanh cap and the softmax probabilities are stored per layer")
    elif kernel != inp.attention:
        notes.append("bf16 on a GPU without bf16 kernels (before Ampere): SDPA runs its math "
                     "path and stores the attention scores, as eager attention does")
    common: dict[str, Any] = dict(attention=kernel, train_weights=full, lora_targets=frozenset(targets),
                  lora_r=int(inp.lora_r or 0), lora_dropout=inp.lora_dropout if inp.lora else 0.0,
                  dropout=dropout, device=inp.device, fused_gelu=inp.model_impl == "litgpt",
                  impl=inp.model_impl, resid_dropout=A.resid_dropout(arch, inp.dropout),
                  sdpa_out_copy=((family == "decoder" and sdpa_output_copied(inp, arch))
                                 or mha_output_copied(inp, arch)),
                  value_view_of_qkv=value_view_keeps_qkv(inp, arch),
                  softmax_input=softmax_saves_input(inp),
                  softmax_input_bytes=softmax_input_bytes(inp, arch),
                  linear_saves_input=zero3_linear_saves_input(inp),
                  int8_matmul=inp.quant == "8bit", int8_input_bytes=I8.kept_input_bytes(inp),
                  liger=bool(inp.liger_kernels) and inp.model_impl == "transformers",
                  packed_in_proj=bool(inp.torch_mha) or bool(inp.packed_qkv),
                  # torch.compile's partitioner recomputes pointwise tensors (compiled_acts.py)
                  compiled=bool(inp.compiled) and inp.mode == "train",
                  scores_capped=scores_by_hand(inp.model_impl, arch),
                  gelu_fp32=fp32_gelu(inp), python_ops=tuple(inp.python_ops or ()),
                  sdpa_repeated_kv=sdpa_repeats_kv(inp, arch))
    if common["liger"]:
        notes.append("Liger kernels: RMSNorm keeps its input and an fp32 reciprocal RMS per token, "
                     "SwiGLU its gate and up projections (no fp32 norm copy, no activation output)")
    layers: list[A.LayerActs] = []
    # the first block's norm input and the final norm: the tokens and width they see
    first_tokens = last_tokens = tokens
    first_width = last_width = arch.hidden_size
    outside = 0.0   # saved outside the blocks (Swin's patch embedding and merging)
    if swin:
        # per stage: its tokens, width, heads and windows (activations_vision.swin)
        sw = AV.swin(arch, d, batch=b, image=image, **common)
        layers = sw.layers
        outside = sw.fixed
        first_tokens, first_width = sw.first_tokens, sw.first_width
        last_tokens, last_width = sw.last_tokens, sw.last_width
        logit_tokens = last_tokens
    elif family == "encoder-decoder":
        target = int(inp.target_len or seq)
        enc = A.transformer_layer(arch, d, tokens=tokens, seq=seq, batch=b, **common)
        dec = A.transformer_layer(arch, d, tokens=b * target, seq=target, batch=b,
                                  cross_seq=seq, cross_tokens=tokens, **common)
        layers = [enc] * arch.num_encoder_layers + [dec] * arch.num_layers
        logit_tokens = b * target
        if fixed_length_encoder(arch):
            # every step's encoder layer has the same shape: its recomputation and backward
            # reuse the same cached blocks; only the decoder's follow the labels' length
            varying = (dec.saved if inp.grad_ckpt else 0.0) + dec.backward
            fixed = (enc.saved if inp.grad_ckpt else 0.0) + enc.backward
            out["fixed_transient"] = max(fixed - varying, 0.0)
    else:
        moe_layers = arch.moe_layers if arch.num_experts else 0
        dense = A.transformer_layer(arch, d, tokens=tokens, seq=seq, batch=b, **common)
        # trained layer-scale vectors keep each branch's output for their gradient (layer_scale.py)
        dense = replace(dense, saved=dense.saved + tokens * LS.saved_per_token(inp, arch, d.comp, full))
        layers = [dense] * (arch.num_layers - moe_layers)
        if moe_layers:
            moe = A.transformer_layer(arch, d, tokens=tokens, seq=seq, batch=b, moe=True, **common)
            layers += [moe] * moe_layers
        logit_tokens = tokens
        if CL.is_clip(arch):
            # the vision tower's blocks beside the text tower's, and what it keeps outside
            # them (the image batch, the patch conv's input, ln_pre's input): contrastive.py
            vision = CL.vision_tower(arch)
            image = int(inp.image_size or vision.image_size)
            vseq = CL.vision_tokens(vision, image)
            # (its scores meet no mask: the fp16 softmax input of softmax_dtype.py)
            vcommon = {**common, "softmax_input_bytes": softmax_input_bytes(inp, vision, vision_tower=True)}
            layers += [A.transformer_layer(vision, d, tokens=b * vseq, seq=vseq, batch=b,
                                           **vcommon)] * vision.num_layers
            outside += CL.vision_fixed(vision, batch=b, image=image, comp=d.comp,
                                       autocast=d.autocast, conv_trains=full)
        elif family == "multimodal":
            notes.append("multimodal: vision-tower activations are not counted; --seq-len should "
                         "include the image tokens")
    if family == "encoder":
        # wav2vec 2.0's conv feature encoder over the raw waveform (audio_frontend.py)
        fe = AF.feature_encoder(arch, batch=b, frames=seq, autocast=d.autocast, comp=d.comp,
                                grad_ckpt=bool(inp.grad_ckpt), frozen=bool(inp.feature_encoder_frozen))
        if fe is not None:
            outside += fe.kept
            out["frontend_end"] = fe.end
    if inp.grad_ckpt:
        out["saved"] = sum(layer.inputs for layer in layers)
        if inp.activation_offload:
            # the checkpointed layer inputs go to host memory as they are saved and come
            # back one layer ahead of backward: two layers' inputs stay on the GPU
            out["saved"] = sum(layer.inputs for layer in layers[:2])
        biggest = max(layers, key=lambda layer: layer.saved)
        out["recompute"] = biggest.saved
        out["layer_bwd"] = biggest.backward
    else:
        out["saved"] = sum(layer.saved for layer in (layers[:2] if inp.activation_offload else layers))
        out["layer_bwd"] = max(layer.backward for layer in layers)
    # final norm: fp32 input; when it and the head train, the normalised value and the
    # head's input (an autocast copy under amp)
    out["saved"] += last_tokens * last_width * (4 + ((d.res + d.comp) if full else 0)) + outside
    if inp.lora and not inp.grad_ckpt and family != "encoder-decoder":
        # frozen embeddings: the first norm's input does not require grad, nothing is saved
        # there (with checkpointing PEFT's enable_input_require_grads changes that)
        # nor the noise of LoRA dropout on that input (q, k, v adapters of the first layer)
        qkv = sum(1 for n in A.qkv_names(arch, inp.model_impl) if n in targets)
        noise = (4 if d.mask > 1 else 1) * qkv if inp.lora_dropout > 0 else 0
        # (nor, under a 4-bit base, what bitsandbytes' matmul would keep of that input, nor
        # what ZeRO-3's linear Function would: terms.zero3_linear_saves_input)
        quant_in = d.comp if ((inp.quant == "4bit" and d.weights < 1.0)
                              or zero3_linear_saves_input(inp)) else 0
        if inp.quant == "8bit":   # nor LLM.int8's int8 copies of it (int8_matmul.py)
            quant_in = (I8.CAT_BYTES * len(A.qkv_names(arch, inp.model_impl))
                        + I8.kept_input_bytes(inp))
        out["saved"] -= first_tokens * first_width * (4 + noise + quant_in)
    head = str((arch.extra or {}).get("task_head", "lm"))
    if CL.is_clip(arch):
        # no vocabulary head: the loss is over the batch x batch similarity matrices
        out["logits_fwd"], out["logits_bwd"] = CL.contrastive_logits(
            batch=b, world=int(inp.world_size or 1), comp=d.comp)
        return out
    if family in ("encoder", "decoder") and head != "lm":
        # classification heads: (batch x labels) or (tokens x labels) logits, negligible
        # next to the activations; no vocabulary-sized term (a decoder's ``score`` head over
        # every position, pooled at the last token: est73)
        return out
    if family in ("decoder", "encoder", "encoder-decoder", "multimodal") and arch.vocab_size:
        tv = logit_tokens * arch.vocab_size
        if inp.loss == "logits":
            out.update(logits_reduction_loss(hf_logits_bytes(inp, d), tv))
            return out
        # (a compiled model whose loss runs eagerly on its logits: the eager loss below)
        compiled = loss_compiled(inp)
        if inp.loss == "fused" or (inp.loss == "chunked" and not compiled):
            out.update(chunked_or_fused_logits(inp, arch, d, tv, logit_tokens))
            return out
        # litgpt's final logit soft cap keeps its tanh output (softcap.py)
        capped = softcap_logits_bytes(inp.model_impl, arch, tv, hf_logits_bytes(inp, d))
        # what the output object holds: the fp32 copy before transformers 4.46 (held_outputs.py)
        out["logits_returned"] = tv * returned_logits_bytes(inp, hf_logits_bytes(inp, d), arch)
        if compiled:
            out.update(compiled_loss_logits(inp, d, tv, logit_tokens))
            out["logits_fwd"] += capped
            out["logits_bwd"] += capped
            notes.append("torch.compile: the loss's fp32 upcast and log-softmax fuse into one "
                         "kernel; its backward keeps the 16-bit logits and a logsumexp per token")
            return out
        elem = hf_logits_bytes(inp, d)
        out["logits_held"] = tv * elem
        out["logits_fwd"] = tv * hf_loss_forward_bytes(inp, elem, arch)
        out["logits_bwd"] = tv * hf_loss_backward_bytes(inp, elem, arch) + capped
        out["logits_fwd"] += capped
        out["logits_at_head"] = tv * elem   # the logits' gradient reaching the head
        # what the output object holds that the loss's backward does not count (est79):
        # the returned logits, alive through backward when the loop keeps the outputs
        out["logits_outside_bwd"] = out["logits_returned"]
        # torchtune before 0.3: the loop's own name keeps the shifted fp32 logits (torchtune_loop.py)
        out["logits_loop"] = loop_logits_bytes(inp, tv)
    return out
