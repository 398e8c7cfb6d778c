"""PF268 bf16-on-gpu-without-bf16: bfloat16 training in a SLURM job whose ``#SBATCH`` directives request a
GPU type without bfloat16 support (V100, T4, P100, RTX 20xx), or whose launch script's comment says it runs
on one."""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_hardware import comment_gpus, launch_scripts
from preflight.sources import read_text_limited

_BF16_MODES = ("bf16", "amp_bf16")


def _requested_gpu(pctx: PlanContext) -> Optional[tuple[str, int, Any, str]]:
    """(batch script display path, directive line, catalog GPU, how it was asked) when the job's batch
    script has ``#SBATCH`` directives naming a GPU type the catalog knows."""
    from preflight.gate.slurm import parse_sbatch

    for display, path in launch_scripts(pctx):
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        if "#SBATCH" not in text:
            continue
        request = parse_sbatch(text, display).gpus()
        option = request.option
        if request.gpu_type is None or option is None or option.origin != "directive" or option.line is None:
            continue
        try:
            from preflight import hardware
        except ImportError:
            return None
        gpu = hardware.find(request.gpu_type)
        if gpu is None or not hasattr(gpu, "bf16"):
            continue
        return display, option.line, gpu, request.how
    return None


# a comment that compares GPUs or precisions, or hedges, does not say what this job runs on
_HEDGED = re.compile(r"bf16|fp16|bfloat|float16|precision|support|instead|\bor\b|\bvs\b|\bif\b|\bnot\b|"
                     r"\bno\b|tested|compar|\bother\b|\balso\b|\bexcept\b|\bunlike\b|paper|original|"
                     r"reported|\bbefore\b|\bafter\b|\blater\b|e\.g\.|example|recommend|requir|minimum|"
                     r"at least|\bwas\b|\bwere\b")


def _commented_gpu(pctx: PlanContext) -> Optional[tuple[str, int, Any, str]]:
    """(launch script display path, comment line, catalog GPU, the comment) when the comments of the job's
    launch script name one GPU model, in a comment that neither compares nor hedges (``# Colab runtime:
    NVIDIA T4 (16 GB)``)."""
    mentions = comment_gpus(pctx)
    if len({m.gpu.name for m in mentions}) != 1:
        return None
    first = mentions[0]
    if any(_HEDGED.search(m.text.lower()) for m in mentions):
        return None
    return first.display, first.line, first.gpu, f"`{first.text}`"


def _launch_bf16(pctx: PlanContext) -> Optional[str]:
    """The launch line's ``--bf16`` switch (bare, or ``--bf16 True``/``--bf16=true``) when the line also
    passes ``--output_dir``: the HF TrainingArguments of a script whose arguments classes come from a package
    preflight does not read (LMFlow's ``AutoArguments``), so the plan holds no precision fact."""
    argv = pctx.project.argv
    if not argv or "--bf16" not in " ".join(argv):
        return None
    from preflight.adapters.launchers import parse_launch

    tokens = list(parse_launch(argv).script_args)
    names = {t[2:].partition("=")[0].replace("-", "_") for t in tokens if t.startswith("--")}
    if "output_dir" not in names:
        return None
    for i, tok in enumerate(tokens):
        name, eq, value = tok.partition("=")
        if name != "--bf16":
            continue
        if not eq:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            value = nxt if nxt and not nxt.startswith("-") else "true"
        if value.strip().lower() in ("true", "1", "yes", "y"):
            return tok
    return None


@register
class Bf16OnGpuWithoutBf16(PlanRule):
    code = "PF268"
    name = "bf16-on-gpu-without-bf16"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ()
    summary = ("bfloat16 training on GPUs without bfloat16 support (V100, T4, P100) that the SLURM directives "
               "request or the launch script's comment names: the run stops at start-up or crawls through "
               "emulation")
    explanation = """
## What it finds

A job whose precision is bfloat16 (`TrainingArguments(bf16=True)` or `--bf16 True`,
Lightning/Fabric `precision="bf16-mixed"`/`"bf16-true"`, accelerate/DeepSpeed bf16, a
bf16 autocast) while the launch script is a batch script whose `#SBATCH` directives
request a GPU type that has no bfloat16 tensor cores in preflight's hardware catalog
(`--gres=gpu:v100:8`, `--gpus-per-node=t4:2`, `--gpus=p100:4`). When the script's
arguments classes come from a package preflight does not read (LMFlow's
`AutoArguments`), the `--bf16` switch of a launch line that also passes `--output_dir`
(the HF TrainingArguments) is the precision (OptimalScale/LMFlow issue 88: `--bf16` on
RTX 2080 Ti GPUs).

Without directives, a comment of the launch script that names the one GPU model the job
runs on counts as the request (`# Colab runtime: NVIDIA T4 (16 GB)` above `accelerate
launch --mixed_precision bf16`: Linaqruf/kohya-trainer issue 246, where accelerate stops
with "bf16 mixed precision requires PyTorch >= 1.10 and a supported device").

## Why it matters

Volta, Turing and Pascal GPUs have no bfloat16 math. transformers checks at start-up and
stops with "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using
Ampere GPU with cuda>=11.0" (lm-sys/FastChat issue 399: the repository's command line
with `--bf16 True --tf32 True` on a V100 node; `--tf32` fails the same way). Lightning
and plain torch either fail in the first bf16 kernels or run through slow emulation,
depending on the torch release (Lightning-AI/litgpt PR 416 picks bf16 only when
`torch.cuda.is_bf16_supported()`). The job waits in the queue for its nodes and then
does not train.

## How to fix it

Use fp16 mixed precision on these GPUs (`--fp16 True --tf32 False`,
`precision="16-mixed"`), choose the precision from `torch.cuda.is_bf16_supported()`,
or request Ampere or newer GPUs (`--gres=gpu:a100:8`).

## When preflight stays silent

* The directives name no GPU type (`--gres=gpu:8`), a type the catalog does not know,
  or one with bfloat16 support (A100, A10G, L4, H100, ...).
* The GPU type is given on the sbatch command line or in the environment (the
  directives of the script, else its comments, are what preflight reads).
* The comments name two GPU models, or the comment naming the GPU compares or hedges
  (it mentions bf16/fp16/precision/support, "or", "vs", "if", "not", "no", "tested",
  "instead", "other", "also", "except", "paper", "original", "before", "after",
  "e.g.", "example", "requires", "minimum", "was"/"were"): which GPU runs the job is
  then not said.
* The precision is fp16, fp32, or chosen at run time (`"bf16-true" if
  torch.cuda.is_bf16_supported() else "16-true"`).
"""
    bad_examples = examples("preflight.rules.plan._pf268_examples", "PF268_BAD")
    good_examples = examples("preflight.rules.plan._pf268_examples", "PF268_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        fact = pctx.plan.resolve("precision.mode")
        switch = None
        if fact is None or (fact.source.kind == "derived" and fact.value == "fp32"):
            # no precision setting read (or only the fp32 guess of a script whose arguments classes
            # preflight does not see): the launch line's HF switch decides
            fact = None
            switch = _launch_bf16(pctx)
            if switch is None:
                return
        elif fact.value not in _BF16_MODES:
            return
        found = _requested_gpu(pctx)
        said = "requests"
        if found is None:
            found = _commented_gpu(pctx)
            said = "runs on"
        if found is None:
            return
        display, line, gpu, how = found
        if gpu.bf16:
            return
        if fact is None:
            mode, where, evidence = "bf16", f"`{switch}` on the launch line, the HF TrainingArguments switch", None
        else:
            mode, where = fact.value, fact.source.location()
            evidence = pctx.fact_evidence(fact, f"the job trains in {fact.value} here")
        yield pctx.location_finding(
            self, display, line,
            f"the job {said} {gpu.name} GPUs ({how}), which have no bfloat16 support, but trains in "
            f"{mode} ({where}): transformers stops at start-up with \"Your setup doesn't "
            "support bf16/gpu\", other frameworks fail in the first bf16 kernels or fall back to slow emulation. "
            "Train in fp16 mixed precision on these GPUs, or request Ampere or newer ones",
            evidence=[evidence] if evidence is not None else None)
