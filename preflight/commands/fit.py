"""``preflight fit MODEL_ID``: can this model be served or fine-tuned on these GPUs?

One model, five standard jobs (inference, generation with a KV cache, LoRA, QLoRA, full
fine-tune with AdamW) against GPUs or cloud instances: a table of projected peaks and verdicts,
one answer with its remediations (``--mode M --gpu G``), or what fits, cheapest first
(``--cheapest``). The model comes from the built-in catalog (no network) or from the Hugging
Face Hub (config.json and safetensors headers through huggingface_hub, cache first; see
``preflight.hub`` and docs/fit.md).

Exit codes: 0 answered (the table; one answer that fits or is tight; ``--cheapest`` found a
target), 1 the one answer does not fit or ``--cheapest`` found nothing, 2 usage error (a
malformed model id, an unknown GPU, a bad number), 3 the model could not be read (missing,
gated, private, Hub unreachable with an empty cache, a config we cannot read) or estimated.

Only argparse is imported at module level; the estimator and huggingface_hub load in ``run``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from preflight.commands.fit_input import (
    Settings,
    _count,
    _gpu_bf16,
    build_input,
    position_limit,
    settings_for,
)

HELP = "will a catalog or Hub model fit: inference, generation, LoRA, QLoRA, full fine-tune x GPUs"
DESCRIPTION = (
    "Project the peak GPU memory of one model for five standard jobs (inference, generation with "
    "a KV cache, LoRA, QLoRA, full fine-tune with AdamW) and compare it with GPUs or cloud "
    "instances. The model is a catalog name or a Hugging Face Hub id: its config.json and "
    "safetensors headers are read (never executed) through huggingface_hub and its cache. "
    "Exit 0 answered, 1 the asked job does not fit, 2 usage error, 3 model not readable."
)

MODES = ("infer", "generate", "lora", "qlora", "full")
MODE_TITLES = {"infer": "inference", "generate": "generation", "lora": "LoRA", "qlora": "QLoRA",
               "full": "full-AdamW"}

# A representative spread of memory sizes when no --gpu is given (those the catalog has).
DEFAULT_GPUS = ("t4", "l4", "a10g", "rtx-4090", "l40s", "a100-40gb", "a100-80gb", "h100", "h200",
                "mi300x")

_GIB = 1024 ** 3
_FITTING = ("fits", "tight")
_LEGEND = ("fits: the whole interval fits; tight: the estimate fits but not the interval's top; "
           "likely-oom: only the interval's bottom fits; oom: even the bottom does not")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="MODEL_ID", help="catalog name or Hugging Face model id (org/name)")
    j = p.add_argument_group("jobs")
    j.add_argument("--mode", choices=MODES, help="one job instead of all five")
    j.add_argument("--seq-len", type=int, default=None, metavar="N",
                   help="tokens per sequence for inference and training (default 2048, or the "
                        "model's maximum positions when fewer)")
    j.add_argument("--batch-size", type=int, default=1, metavar="N", help="sequences per GPU (default 1)")
    j.add_argument("--context", type=int, default=None, metavar="N",
                   help="generation: tokens in the KV cache at the end, prompt + new (default "
                        "4096, or the model's maximum positions when fewer)")
    j.add_argument("--new-tokens", type=int, default=None, metavar="N",
                   help="generation: how many of the context's tokens are generated (default "
                        "512, at most half the default context)")
    j.add_argument("--lora-r", type=int, default=16, metavar="N", help="LoRA/QLoRA rank (default 16)")
    t = p.add_argument_group("targets and output")
    t.add_argument("--gpu", action="append", default=[], metavar="NAME|INSTANCE",
                   help="GPU or cloud instance; repeatable (default: a representative set)")
    t.add_argument("--cheapest", action="store_true",
                   help="list the GPUs and instances that fit, cheapest first (the catalog, or the --gpu ones)")
    t.add_argument("--format", choices=("text", "json"), default="text")
    h = p.add_argument_group("Hugging Face Hub")
    h.add_argument("--revision", metavar="REV", help="branch, tag or commit hash (default: main)")
    h.add_argument("--offline", action="store_true", help="use the local cache only (like HF_HUB_OFFLINE=1)")
    h.add_argument("--refresh", action="store_true", help="ask the Hub even if the cache has the revision")
    h.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="seconds per Hub request (default 10)")


# --------------------------------------------------------------------------- the model


class FitError(Exception):
    """A usage problem (exit 2)."""


class ModelError(Exception):
    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


@dataclass
class Model:
    arch: Any
    origin: str                         # "catalog" | "hub"
    hub: Optional[Dict[str, Any]] = None
    quant: Optional[str] = None         # "4bit" | "8bit" for a pre-quantized checkpoint
    notes: List[str] = field(default_factory=list)
    cli_name: str = ""                  # the MODEL_ID as the user typed it (for suggested commands)

    @property
    def name(self) -> str:
        return str(self.arch.name)

    def info(self) -> Dict[str, Any]:
        a = self.arch
        out: Dict[str, Any] = {
            "name": a.name, "origin": self.origin, "model_type": a.model_type, "family": a.family,
            "params_total": a.params_total, "params_active": a.params_active,
            "params_source": a.params_source, "sliding_window": a.sliding_window,
            "quantized": self.quant,
        }
        if self.hub:
            out["hub"] = {k: self.hub[k] for k in ("repo_id", "revision", "commit", "from_cache",
                                                   "quantization", "weights_note", "remote_code")
                          if k in self.hub}
        out["notes"] = list(self.notes)
        return out


def _catalog(name: str) -> Any:
    """``preflight.architectures`` / ``preflight.hardware`` (data packages mapped from the top-level
    ``architectures/`` and ``hardware/`` directories at install time)."""
    import importlib

    return importlib.import_module(f"preflight.{name}")


def load_model(name: str, *, revision: Optional[str] = None, online: bool = True,
               timeout: float = 10.0, refresh: bool = False) -> Model:
    """The catalog entry for ``name`` (no network), else the Hub model (cache first)."""
    if revision is None and not refresh:
        try:
            found = _catalog("architectures").lookup(name)
        except (ImportError, AttributeError):
            found = None
        if found is not None:
            return Model(arch=found, origin="catalog")
    from preflight import hub

    try:
        arch = hub.resolve_architecture(name, revision=revision, online=online, timeout=timeout,
                                        refresh=refresh)
    except hub.HubError as exc:
        raise ModelError(exc.message, exc.exit_code) from None
    info = dict(arch.extra.get("hub", {}))
    model = Model(arch=arch, origin="hub", hub=info)
    quant = info.get("quantization")
    if quant:
        bits = quant.get("bits")
        model.quant = {4: "4bit", 8: "8bit"}.get(bits) if isinstance(bits, int) else None
        if model.quant is None:
            model.notes.append(f"pre-quantized checkpoint ({quant.get('method')}, {bits} bits): "
                               "weights estimated at 16 bits")
        elif quant.get("method") != "bitsandbytes":
            model.notes.append(f"pre-quantized {quant.get('method')} checkpoint: its {bits}-bit "
                               f"weights are estimated with the bitsandbytes {model.quant} layout")
    if info.get("remote_code"):
        model.notes.append("custom (remote-code) architecture: read from config.json only, no code run")
    return model


# --------------------------------------------------------------------------- targets


def targets_of(names: Sequence[str]) -> List[Any]:
    if not names:
        return []
    try:
        find = _catalog("hardware").find
    except (ImportError, AttributeError):
        raise FitError("the hardware catalog is not available") from None
    out = []
    for name in names:
        found = find(name)
        if found is None:
            raise FitError(_catalog("hardware").unknown_message(name))
        out.append(found)
    return out


def default_targets() -> List[Any]:
    try:
        find = _catalog("hardware").find
    except (ImportError, AttributeError):
        return []
    out: List[Any] = []
    for name in DEFAULT_GPUS:
        found = find(name)
        if found is not None and all(found.name != t.name for t in out):
            out.append(found)
    return out


def _target_label(target: Any) -> str:
    gpu = getattr(target, "gpu", None)
    if gpu is not None:
        return f"{target.name} ({target.count} x {gpu.name})"
    return f"{target.name} ({target.memory_bytes / _GIB:.1f} GiB)"


@dataclass
class Cell:
    mode: str
    target: Any
    inp: Any = None
    est: Any = None
    verdict: str = "unknown"
    note: str = ""

    @property
    def peak(self) -> Optional[int]:
        return self.est.peak_bytes if self.est is not None else None


def _cell(model: Model, s: Settings, mode: str, target: Any, cache: Dict[Tuple[str, int, Optional[bool], Optional[int]], Any]) -> Cell:
    from preflight.estimate import estimate, verdict
    from preflight.estimate.gpu_facts import resident_threads

    # the estimate depends on the target's GPU count, bf16 kernels and resident threads (est30)
    threads = resident_threads(getattr(target, "gpu", target)) if target is not None else None
    key = (mode, _count(target), _gpu_bf16(target), threads)
    if key not in cache:
        inp, note = build_input(model, s, mode, target)
        cache[key] = (inp, estimate(inp) if inp is not None else None, note)
    inp, est, note = cache[key]
    if est is None:
        return Cell(mode, target, note=note)
    if not est.ok:
        return Cell(mode, target, inp, est, "unknown", "; ".join(est.notes))
    return Cell(mode, target, inp, est, verdict(est, target) if target is not None else "unknown", note)


@dataclass
class Table:
    modes: Tuple[str, ...]
    targets: List[Any]
    single: Dict[str, Cell]                        # mode -> the one-GPU estimate (no target)
    cells: Dict[Tuple[str, int], Cell]             # (mode, target index) -> cell


def fit_table(model: Model, s: Settings, modes: Sequence[str], targets: Sequence[Any]) -> Table:
    cache: Dict[Tuple[str, int, Optional[bool], Optional[int]], Any] = {}
    single = {m: _cell(model, s, m, None, cache) for m in modes}
    cells = {(m, i): _cell(model, s, m, t, cache) for m in modes for i, t in enumerate(targets)}
    return Table(tuple(modes), list(targets), single, cells)


@dataclass
class Answer:
    verdict: str
    document: Dict[str, Any]
    text: str


def one_answer(model: Model, s: Settings, mode: str, target: Any) -> Answer:
    from preflight.estimate import cheapest_targets, estimate_json, estimate_text, remediate

    cell = _cell(model, s, mode, target, {})
    head = [*_model_lines(model), f"Asked: {_mode_words(mode, s, model)}"]
    if cell.inp is None or cell.est is None:
        text = "\n".join(head) + f"\nCannot estimate {MODE_TITLES[mode]}: {cell.note}\n"
        doc = {"version": 1, "fit": {"mode": mode, "model": model.info()}, "verdict": "unknown",
               "peak_bytes": None, "missing": [], "notes": [cell.note]}
        return Answer("unknown", doc, text)
    rems = remediate(cell.inp, target) if cell.est.ok else []
    cheap_gpu, cheap_inst = cheapest_targets(cell.inp) if cell.est.ok else (None, None)
    kw = dict(target=target, verdict=cell.verdict, remediations=rems, cheapest_gpu=cheap_gpu,
              cheapest_instance=cheap_inst)
    doc = estimate_json(cell.inp, cell.est, **kw)
    doc["fit"] = {"mode": mode, "model": model.info(), "note": cell.note or None}
    if cell.note:
        head.append(f"Note:  {cell.note}")
    body = estimate_text(cell.inp, cell.est, **kw)
    if body.startswith("Model:"):  # the model lines above say more (origin, commit, active)
        body = body.split("\n", 1)[1]
    text = "\n".join(head) + "\n" + body
    return Answer(cell.verdict, doc, text)


@dataclass
class Cheapest:
    mode: str
    peak: Optional[int]
    gpus: List[Tuple[Any, str]]                  # (GPU, verdict), smallest memory first
    instances: List[Tuple[Any, str, int]]        # (Instance, verdict, peak per GPU), cheapest first
    note: str = ""

    @property
    def fitting(self) -> bool:
        return bool(self.gpus or self.instances)


def cheapest(model: Model, s: Settings, modes: Sequence[str],
             among: Sequence[Any] = ()) -> List[Cheapest]:
    """What fits each job, instances by hourly price then GPUs by memory: the whole catalog, or
    only the targets in ``among`` when given."""
    if among:
        gpus = [t for t in among if getattr(t, "gpu", None) is None]
        instances = [t for t in among if getattr(t, "gpu", None) is not None]
    else:
        try:
            hardware = _catalog("hardware")
            gpus, instances = list(hardware.gpus()), list(hardware.instances())
        except (ImportError, AttributeError):
            gpus, instances = [], []
    out = []
    for mode in modes:
        cache: Dict[Tuple[str, int, Optional[bool], Optional[int]], Any] = {}
        base = _cell(model, s, mode, None, cache)
        if base.est is None or not base.est.ok:
            out.append(Cheapest(mode, None, [], [], base.note or "cannot estimate"))
            continue
        fit_gpus = []
        for gpu in sorted(gpus, key=lambda g: (g.memory_bytes, g.name)):
            c = _cell(model, s, mode, gpu, cache)
            if c.verdict in _FITTING:
                fit_gpus.append((gpu, c.verdict))
        fit_inst = []
        priced = [i for i in instances if getattr(i, "hourly_usd", None) is not None]
        for inst in sorted(priced, key=lambda i: (i.hourly_usd, i.name)):
            c = _cell(model, s, mode, inst, cache)
            if c.verdict in _FITTING and c.peak is not None:
                fit_inst.append((inst, c.verdict, c.peak))
        out.append(Cheapest(mode, base.peak, fit_gpus, fit_inst))
    return out


# --------------------------------------------------------------------------- text


def _b(n: Optional[float]) -> str:
    return "-" if n is None else f"{n / 1e9:.2f}B"


def _model_lines(model: Model) -> List[str]:
    a = model.arch
    if model.origin == "hub" and model.hub:
        h = model.hub
        where = "the local cache" if h.get("from_cache") else "the Hub"
        first = f"Model: {a.name} @ {h.get('revision')} (commit {str(h.get('commit'))[:7]}, read from {where})"
    else:
        first = f"Model: {a.name} (built-in catalog)"
    source = {"safetensors": "exact, from the safetensors headers", "catalog": "catalog",
              "formula": "counted from config.json"}.get(a.params_source, a.params_source)
    second = f"       {a.model_type} {a.family}, {_b(a.params_total)} parameters ({source})"
    if a.params_active and a.params_active != a.params_total:
        second += f", {_b(a.params_active)} active per token"
    if model.quant:
        second += f", pre-quantized {model.quant}"
    lines = [first, second]
    lines.extend(f"       note: {n}" for n in model.notes)
    return lines


def _mode_words(mode: str, s: Settings, model: Model) -> str:
    family = model.arch.family
    limit = position_limit(model.arch)
    beyond = f" (beyond the model's {limit} positions)"
    shape = (f"{s.batch} x {model.arch.image_size or 224}px image" if family in ("vision", "cnn", "diffusion")
             else f"{s.batch} x {s.seq_len} tokens" + (beyond if limit and s.seq_len > limit else ""))
    weights = f"{model.quant} weights" if model.quant else "bf16 weights"
    if mode == "infer":
        return f"inference, {shape}, {weights}"
    if mode == "generate":
        return (f"generation, {s.batch} x {s.context}-token context ({s.context - s.new_tokens} prompt + "
                f"{s.new_tokens} new){beyond if limit and s.context > limit else ''}, {weights}, "
                "KV cache in bf16")
    if mode == "lora":
        return f"LoRA r={s.lora_r}, {shape}, frozen {weights}, AdamW on the adapters, bf16 autocast"
    if mode == "qlora":
        base = f"{model.quant} checkpoint" if model.quant else "NF4 (double-quantized) base"
        return f"QLoRA r={s.lora_r}, {shape}, {base}, gradient checkpointing, AdamW on the adapters"
    return f"full fine-tune, {shape}, AdamW, bf16 autocast over fp32 weights"


# --------------------------------------------------------------------------- entry point

def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from preflight.cli import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT, EXIT_USAGE
    from preflight.commands.fit_render import cheapest_json, cheapest_text, table_json, table_text

    def fail(message: str, code: int) -> int:
        sys.stderr.write(f"preflight: error: {message}\n")
        return code

    for flag in ("seq_len", "batch_size", "context", "lora_r"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            return fail(f"--{flag.replace('_', '-')} must be at least 1", EXIT_USAGE)
    given_context = args.context if args.context is not None else Settings().context
    if args.new_tokens is not None and not 0 <= args.new_tokens < given_context:
        return fail("--new-tokens must be at least 0 and less than --context", EXIT_USAGE)
    if not args.timeout > 0:
        return fail("--timeout must be positive", EXIT_USAGE)
    try:
        targets = targets_of(args.gpu)
    except FitError as exc:
        return fail(str(exc), EXIT_USAGE)
    try:
        model = load_model(args.model, revision=args.revision, online=not args.offline,
                           timeout=args.timeout, refresh=args.refresh)
    except ModelError as exc:
        return fail(exc.message, exc.exit_code)
    settings, capped = settings_for(model.arch, args.seq_len, args.batch_size, args.context,
                                    args.new_tokens, args.lora_r)
    if args.new_tokens is not None and args.new_tokens >= settings.context:
        return fail("--new-tokens must be at least 0 and less than --context", EXIT_USAGE)
    model.notes.extend(capped)
    model.cli_name = args.model
    modes = (args.mode,) if args.mode else MODES
    if args.cheapest:
        found = cheapest(model, settings, modes, targets)
        if args.format == "json":
            sys.stdout.write(json.dumps(cheapest_json(model, settings, found), indent=2) + "\n")
        else:
            sys.stdout.write(cheapest_text(model, settings, found))
        return EXIT_CLEAN if any(f.fitting for f in found) else EXIT_FINDINGS
    if args.mode and len(targets) == 1:
        answer = one_answer(model, settings, args.mode, targets[0])
        if args.format == "json":
            sys.stdout.write(json.dumps(answer.document, indent=2) + "\n")
        else:
            sys.stdout.write(answer.text)
        if answer.verdict == "unknown":
            return EXIT_INPUT
        return EXIT_FINDINGS if answer.verdict in ("oom", "likely-oom") else EXIT_CLEAN
    table = fit_table(model, settings, modes, targets or default_targets())
    if args.format == "json":
        sys.stdout.write(json.dumps(table_json(model, settings, table), indent=2) + "\n")
    else:
        sys.stdout.write(table_text(model, settings, table))
    return EXIT_CLEAN
