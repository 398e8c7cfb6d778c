"""``preflight estimate``: peak VRAM per GPU, a verdict against a GPU, and what would fit.

Exit codes: 0 fits (or estimated with no target), 1 does not fit (``tight`` too with
``--strict``), 2 usage error, 3 could not estimate (0 with ``--allow-unknown``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "estimate peak GPU memory of a job, a verdict against a GPU, and changes that fit"
DESCRIPTION = (
    "Estimate the peak GPU memory per GPU of a training or generation job, phase by phase, with "
    "an interval; compare it with a GPU or cloud instance (--gpu, or target-gpu in "
    "[tool.preflight]); list the changes that would make it fit. Reads the script and configs "
    "like `audit` (nothing is run); flags override what the plan says. Exit 0 fits, 1 does "
    "not fit, 3 could not estimate."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scripts", nargs="*", type=Path, metavar="SCRIPT", help="training script(s)")
    p.add_argument("--config", action="append", type=Path, default=[], metavar="FILE",
                   help="a training config (DeepSpeed JSON, YAML, TOML); repeatable")
    m = p.add_argument_group("model")
    m.add_argument("--model", metavar="NAME|HUB_ID", help="catalog name or Hugging Face id")
    m.add_argument("--params", metavar="N", help="parameter count (7B, 350M); shape is guessed")
    m.add_argument("--online", action="store_true", help="read a Hub model not in the catalog from the Hub")
    j = p.add_argument_group("job (override the plan)")
    j.add_argument("--mode", choices=("train", "infer", "generate"))
    j.add_argument("--batch-size", type=int, metavar="N", help="micro-batch per GPU")
    j.add_argument("--seq-len", type=int, metavar="N", help="tokens per sample (prompt for generate)")
    j.add_argument("--image-size", type=int, metavar="PX")
    j.add_argument("--precision", choices=("fp32", "amp-fp16", "amp-bf16", "fp16", "bf16"))
    j.add_argument("--optimizer", choices=("adamw", "adamw-fused", "adamw-8bit", "adamw-4bit", "paged-adamw-8bit",
                                           "adafactor", "sgd", "sgd-momentum", "lion"))
    j.add_argument("--grad-ckpt", action="store_true", default=None, help="gradient checkpointing")
    j.add_argument("--attention", choices=("eager", "sdpa", "flash"))
    j.add_argument("--ema", action="store_true", default=None,
                   help="diffusion training keeps an EMA copy of the trained weights on the GPU (--use_ema)")
    j.add_argument("--cache-text-embeddings", action="store_true", default=None,
                   help="diffusion: prompts encoded once and the text encoders freed before the loop")
    j.add_argument("--cache-latents", action="store_true", default=None,
                   help="diffusion: latents encoded once and the VAE freed before the loop")
    j.add_argument("--textual-inversion", action="store_true", default=None,
                   help="diffusion: textual inversion (only the text encoder's token embedding trains)")
    j.add_argument("--vae-dtype", choices=("fp32", "16bit"),
                   help="diffusion: the VAE's dtype when the script does not cast it to the weight dtype "
                        "(fp32: fast-DiT, SDXL's default VAE in the diffusers examples)")
    j.add_argument("--frozen-embeddings", action="store_true", default=None,
                   help="full fine-tune whose input embedding and LM head do not train (requires_grad "
                        "False): no gradients or optimizer states for them")
    j.add_argument("--frozen-models", type=int, metavar="N",
                   help="frozen full copies of the model beside the trained one (a DPO/KTO/GRPO reference "
                        "model: 1; PPO's reference and reward model: 2; a LoRA run whose reference is the "
                        "base with the adapter disabled, as TRL does for a PEFT model: 0); sharded like the "
                        "model under ZeRO-3/FSDP")
    j.add_argument("--frozen-bits", type=int, choices=(4, 8, 16, 32),
                   help="bits per weight of the frozen copies (default: as the trained model is loaded; "
                        "16 under DeepSpeed)")
    j.add_argument("--frozen-offload", action="store_true", default=None,
                   help="the frozen copies' weights live in host memory (DeepSpeed offload_param, "
                        "OpenRLHF --ref_offload)")
    j.add_argument("--zero", type=int, choices=(0, 1, 2, 3), metavar="{0,1,2,3}", help="DeepSpeed ZeRO stage")
    j.add_argument("--fsdp", choices=("full", "hybrid", "grad-op"))
    j.add_argument("--fsdp-wrap", choices=("block", "module"),
                   help="FSDP's auto-wrap unit: block (one unit per decoder block, the default) or "
                        "module (a policy true for every module: each Linear its own unit)")
    j.add_argument("--offload-optimizer", choices=("cpu", "nvme"))
    j.add_argument("--offload-params", choices=("cpu", "nvme"))
    j.add_argument("--world-size", type=int, metavar="N", help="GPUs in total")
    j.add_argument("--lora-r", type=int, metavar="N", help="LoRA rank (adapters only are trained)")
    j.add_argument("--quant", choices=("4bit", "8bit"), help="quantized base weights (bitsandbytes)")
    j.add_argument("--loss", choices=("standard", "chunked", "fused", "logits"),
                   help="LM loss: standard (full logits + fp32 copy), chunked (torchtune, litgpt), "
                        "fused (Liger, Unsloth, Cut Cross-Entropy), logits (a reduction of the "
                        "logits, no cross-entropy: logits.sum() benchmarks)")
    j.add_argument("--load-placement", choices=("gpu", "host", "sharded"),
                   help="where each rank materialises the weights before ZeRO-3/FSDP shards them: "
                        "gpu (ZeRO-3 without zero.Init, device_map/.to('cuda') before wrapping), "
                        "host, sharded (zero.Init, meta-device init)")
    j.add_argument("--transformers-version", metavar="VERSION",
                   help="transformers version (e.g. 4.41.2): generate's KV cache before 4.42 and "
                        "prompt logits before 4.45, the LM loss's logits copies (default: what the "
                        "requirement files declare)")
    j.add_argument("--deepspeed-version", metavar="VERSION",
                   help="DeepSpeed version (e.g. 0.14.4): ZeRO-1/2 with --offload-optimizer copies "
                        "the fp32 partition to the GPU after each step in 0.14.1 to 0.16.x "
                        "(default: what the requirement files pin, else the latest)")
    j.add_argument("--trained-embeddings", choices=("copy", "resized", "embedding"),
                   help="the embeddings and LM head train beside the LoRA adapters: copy "
                        "(LoraConfig(modules_to_save=[...])), resized (resize_token_embeddings "
                        "after get_peft_model: trainable before transformers 4.35), embedding "
                        "(only the input embedding, in place: LongLoRA's trainable_params 'embed,norm')")
    j.add_argument("--keeps-outputs", action="store_true", default=None,
                   help="the training loop keeps the model's outputs across steps (outputs = "
                        "model(...) at loop level): the previous step's logits and returned "
                        "cache live through the next forward")
    j.add_argument("--autocast", action=argparse.BooleanOptionalAction, default=None,
                   help="autocast runs around the forward (default: what --precision says; "
                        "--no-autocast with amp-* under FSDP: only MixedPrecision casts the "
                        "weights, and a loss on the 16-bit logits stays 16-bit)")
    j.add_argument("--use-cache", action=argparse.BooleanOptionalAction, default=None,
                   help="the decoder returns its KV cache in training (config.use_cache); "
                        "default: on, switched off by transformers' own gradient checkpointing. "
                        "Give --use-cache when checkpointing is torch's wrapper (FSDP/accelerate "
                        "activation_checkpointing), which leaves the cache on")
    j.add_argument("--padding", choices=("max_length", "dynamic", "packed"),
                   help="how batches are padded: max_length, dynamic (to each batch's longest "
                        "sample: the caching allocator keeps blocks of other lengths), packed")
    j.add_argument("--longest-sample", type=int, metavar="N",
                   help="tokens in the data's longest sample (chat template included): with "
                        "--padding dynamic the step is sized at it when under --seq-len")
    j.add_argument("--truncation", choices=("truncate", "delete"),
                   help="what the job does with a sample over --seq-len: truncate (cut to it: a "
                        "tokenizer's truncation=True) or delete (dropped: ms-swift's "
                        "truncation_strategy delete); with --padding dynamic it picks the "
                        "allocator runs the cache of other lengths is read from")
    j.add_argument("--group-by-length", action=argparse.BooleanOptionalAction, default=None,
                   help="batches padded per batch come grouped by length, the longest first "
                        "(TrainingArguments(group_by_length=True)): the allocator's cache of "
                        "other lengths stays small")
    j.add_argument("--expandable-segments", action=argparse.BooleanOptionalAction, default=None,
                   help="the job sets PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: batches "
                        "of varying length leave little reserved memory above the allocated peak")
    j.add_argument("--max-new-tokens", type=int, metavar="N")
    j.add_argument("--num-beams", type=int, metavar="N")
    t = p.add_argument_group("target and output")
    t.add_argument("--gpu", metavar="NAME|INSTANCE", help="GPU or cloud instance to check against")
    t.add_argument("--format", choices=("text", "json"), default="text")
    t.add_argument("--color", choices=("auto", "always", "never"), default=None,
                   help="colour the memory bar: auto (on a terminal; NO_COLOR, FORCE_COLOR), "
                        "always or never")
    t.add_argument("--strict", action="store_true", help="exit 1 on 'tight' too")
    t.add_argument("--allow-unknown", action="store_true", help="exit 0 when it cannot estimate")
    t.add_argument("--settings", metavar="FILE", type=Path, help="settings TOML (default: pyproject.toml)")


_OVERRIDES = {"batch_size": "micro_batch", "seq_len": "seq_len", "image_size": "image_size",
              "precision": "precision", "optimizer": "optimizer", "grad_ckpt": "grad_ckpt",
              "attention": "attention", "zero": "zero_stage", "fsdp": "fsdp", "fsdp_wrap": "fsdp_wrap",
              "offload_optimizer": "offload_optimizer", "offload_params": "offload_params",
              "world_size": "world_size", "lora_r": "lora_r", "quant": "quant", "mode": "mode",
              "max_new_tokens": "max_new_tokens", "num_beams": "num_beams", "loss": "loss",
              "load_placement": "load_placement", "transformers_version": "transformers_version",
              "deepspeed_version": "deepspeed_version", "keeps_outputs": "keeps_outputs", "use_cache": "use_cache",
              "autocast": "autocast",
              "group_by_length": "group_by_length", "expandable_segments": "expandable_segments",
              "padding": "padding", "truncation": "truncation", "longest_sample": "longest_sample", "ema": "ema", "trained_embeddings": "trained_embeddings",
              "cache_text_embeddings": "cache_text_embeddings", "cache_latents": "cache_latents",
              "textual_inversion": "textual_inversion", "vae_dtype": "vae_dtype",
              "frozen_models": "frozen_models", "frozen_bits": "frozen_bits", "frozen_offload": "frozen_offload",
              "frozen_embeddings": "frozen_embeddings"}


def run(args: argparse.Namespace) -> int:
    import json
    import re
    import sys

    from preflight.cli import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT, EXIT_USAGE
    from preflight.estimate import (
        InputError,
        cheapest_targets,
        estimate,
        estimate_json,
        estimate_text,
        input_from_plan,
        parse_count,
        remediate,
        resolve_architecture,
        target_of,
        verdict,
    )

    def fail(message: str, code: int) -> int:
        sys.stderr.write(f"preflight: error: {message}\n")
        return code

    for flag in ("batch_size", "seq_len", "image_size", "world_size", "lora_r", "num_beams"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            return fail(f"--{flag.replace('_', '-')} must be at least 1", EXIT_USAGE)
    if args.max_new_tokens is not None and args.max_new_tokens < 0:
        return fail("--max-new-tokens must not be negative", EXIT_USAGE)
    if args.transformers_version is not None and not re.match(r"\s*\d+\.\d+", args.transformers_version):
        return fail(f"--transformers-version {args.transformers_version!r} is not a version "
                    "(expected major.minor[.patch], e.g. 4.41.2)", EXIT_USAGE)
    if args.deepspeed_version is not None and not re.match(r"\s*\d+\.\d+", args.deepspeed_version):
        return fail(f"--deepspeed-version {args.deepspeed_version!r} is not a version "
                    "(expected major.minor[.patch], e.g. 0.14.4)", EXIT_USAGE)
    params = None
    if args.params is not None:
        try:
            params = parse_count(args.params)
        except InputError as exc:
            return fail(str(exc), EXIT_USAGE)
    plan = None
    if args.scripts or args.config or args.launch:
        from preflight.audit import build_plan
        from preflight.jobs import resolve_job

        job = resolve_job(args.scripts, args.config, args.launch, Path.cwd())
        plan, project = build_plan(job.scripts, job.configs, root=Path.cwd(), argv=job.argv,
                                   launch_at=job.launch_at(), launch_loop=job.launch_loop)
        for note in job.notes:
            plan.note(note)
        for err in job.errors:
            sys.stderr.write(err.render() + "\n")
        for err in project.errors:
            sys.stderr.write(err.render() + "\n")
    target_name = args.gpu
    if target_name is None:
        from preflight.config import SettingsError, load_settings

        try:
            target_name = load_settings(args.settings).target_gpu
        except SettingsError as exc:
            return fail(exc.render(), EXIT_USAGE)
    try:
        target = target_of(target_name)
    except InputError as exc:
        return fail(str(exc), EXIT_USAGE)
    overrides = {dest: getattr(args, flag) for flag, dest in _OVERRIDES.items()}
    arch, arch_source, model_error = None, None, None
    model_name = args.model or (plan.value("model.ref") if plan is not None else None)
    if model_name:
        try:
            arch = resolve_architecture(str(model_name), online=args.online)
            arch_source = "cli --model" if args.model else "plan model.ref"
        except InputError as exc:
            model_error = str(exc)
    if params is not None:
        overrides["params"] = params
    from_instance = (target is not None and getattr(target, "count", None) is not None
                     and args.world_size is None
                     and (plan is None or plan.resolve("dist.world_size") is None))
    if from_instance:
        overrides["world_size"] = int(target.count)
    try:
        inp = input_from_plan(plan, overrides, arch=arch)
    except InputError as exc:
        return fail(str(exc), EXIT_USAGE)
    if arch_source:
        inp.sources["arch"] = arch_source
    gpu = (getattr(target, "gpu", None) or target) if target is not None else None
    if gpu is not None and inp.gpu_bf16 is None:
        # the kernels the target runs (bf16 attention kernels need Ampere or newer)
        inp.gpu_bf16 = bool(getattr(gpu, "bf16", True))
        inp.sources["gpu_bf16"] = f"target {gpu.name}"
    if gpu is not None and inp.gpu_hopper is None:
        from preflight.estimate.gpu_facts import hopper_or_later

        inp.gpu_hopper = hopper_or_later(gpu)   # sizes the cuBLAS workspaces
    if gpu is not None and inp.gpu_blackwell is None:
        from preflight.estimate.gpu_facts import blackwell

        inp.gpu_blackwell = blackwell(gpu)
    if gpu is not None and inp.gpu_link is None:
        from preflight.estimate import nccl

        inp.gpu_link = nccl.link(gpu)           # sizes NCCL's buffers (channels by link)
    if gpu is not None and inp.gpu_threads is None:
        from preflight.estimate.gpu_facts import resident_threads

        inp.gpu_threads = resident_threads(gpu)  # sizes the memory outside the allocator (est30)
    if from_instance:
        inp.sources["world_size"] = f"instance {target.name} ({target.count} GPUs)"
    if arch is None and not inp.params and model_error:
        sys.stderr.write(f"preflight: {model_error}\n")
        return EXIT_CLEAN if args.allow_unknown else EXIT_INPUT
    est = estimate(inp)
    v = verdict(est, target)
    rems = remediate(inp, target) if (est.ok and target is not None) else []
    cheap_gpu, cheap_inst = cheapest_targets(inp) if est.ok else (None, None)
    kw = dict(target=target, verdict=v, remediations=rems, cheapest_gpu=cheap_gpu,
              cheapest_instance=cheap_inst)
    if args.format == "json":
        sys.stdout.write(json.dumps(estimate_json(inp, est, **kw), indent=2) + "\n")
    else:
        from preflight.report.color import use_color

        sys.stdout.write(estimate_text(inp, est, **kw, color=use_color(args.color, sys.stdout)))
    if not est.ok:
        return EXIT_CLEAN if args.allow_unknown else EXIT_INPUT
    if v in ("oom", "likely-oom") or (v == "tight" and args.strict):
        return EXIT_FINDINGS
    return EXIT_CLEAN
