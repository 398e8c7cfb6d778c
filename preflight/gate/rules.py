"""Job-level rules PF70x: they read a submitted job (the allocation, the launch lines, the
configs beside them and the estimate), not Python code.

They are :class:`~preflight.rules.base.Rule` subclasses with the same metadata (checked by
``validate_metadata``), kept in their own registry (:func:`job_rules`): the code-rule
registry runs every rule's examples as Python, and these examples are job files (SLURM
batch scripts), which ``tests/test_gate_rules.py`` runs through the gate instead.
``preflight gate --explain PF701`` prints a rule's documentation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity, Span
from preflight.gate.job import JobSpec
from preflight.rules.base import Rule, validate_metadata


@dataclass
class JobContext:
    job: JobSpec
    plan: Any = None  # TrainingPlan
    project: Any = None  # adapters_api.Project (configs)
    fit: Any = None  # verdict.FitResult
    script_text: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def finding(self, rule: type[JobRule], line: Optional[int], message: str,
                evidence: Iterable[Evidence] = (), severity: Optional[Severity] = None) -> Finding:
        n = max(int(line or 1), 1)
        text = ""
        if self.job.slurm is not None:
            lines = self.job.slurm.text.splitlines()
            text = lines[n - 1] if n <= len(lines) else ""
        return Finding(code=rule.code, severity=severity or rule.severity, category=rule.category,
                       path=self.job.path, span=Span(n, 1, n, max(len(text), 1) + 1), message=message,
                       evidence=list(evidence), source_line=text)


class JobRule(Rule):
    frameworks: ClassVar[tuple[str, ...]] = ("slurm", "kubernetes")
    target: ClassVar[str] = "job"
    kind: ClassVar[str] = "job"

    def check(self, ctx: Any) -> Iterable[Finding]:
        return ()  # job rules read jobs, not Python files

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        raise NotImplementedError


def job_rules() -> dict[str, type[JobRule]]:
    return {cls.code: cls for cls in _JOB_RULES}


_JOB_RULES: list[type[JobRule]] = []


def _job_rule(cls: type[JobRule]) -> type[JobRule]:
    validate_metadata(cls)
    _JOB_RULES.append(cls)
    return cls


# --------------------------------------------------------------------------- PF701


@_job_rule
class GpuCountMismatch(JobRule):
    code = "PF701"
    name = "gpu-count-mismatch"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    summary = "The processes a job starts on each node do not match the GPUs it requests there"
    explanation = """
## What it finds

The launch line of a job starts a number of training processes per node (torchrun
`--nproc_per_node`, `srun --ntasks-per-node`, the job's tasks per node, a PyTorchJob's
`nprocPerNode`) that differs from the GPUs the job asks for on each node (`--gres=gpu:N`,
`--gpus-per-node`, `--gpus`, `--gpus-per-task`, a container's `nvidia.com/gpu` limit), or
the script sets Lightning `Trainer(devices=N)` to a value other than the tasks SLURM starts
per node. A training job that asks for no GPU at all while its code uses CUDA is reported too.

## Why it matters

More processes than GPUs: two ranks share one device, NCCL stops with "Duplicate GPU
detected" or the job runs out of memory. Fewer processes than GPUs: the extra GPUs are
held for the whole job and never used. Lightning under SLURM takes its process layout
from SLURM and refuses a `devices` value that disagrees with the tasks per node.

## How to fix it

Make the two numbers equal: `--nproc_per_node` (or `--ntasks-per-node` with `srun
python`) equal to the GPUs per node, and Lightning `devices` equal to `--ntasks-per-node`.
"""
    bad_examples = (
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --gres=gpu:4
        torchrun --nproc_per_node=8 train.py
        """,
    )
    good_examples = (
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --gres=gpu:8
        srun torchrun --nnodes=2 --nproc_per_node=8 train.py
        """,
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=4
        #SBATCH --gpus-per-task=1
        srun python train.py
        """,
    )

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        job = ctx.job
        launch = job.launch
        if launch is None or job.gpus_per_node is None:
            return
        gpus, procs = job.gpus_per_node, launch.procs_per_node
        procs_how = launch.procs_how
        if procs is not None and gpus and procs < gpus:
            spawned = _spawned_per_task(ctx, launch)
            if spawned is not None:  # each task's script starts processes itself (mp.spawn)
                if spawned[0] is None:
                    return
                procs, procs_how = procs * spawned[0], f"{procs_how}; each task spawns {spawned[0]}: {spawned[1]}"
        where = Evidence(job.gpu_line or launch.line, f"GPUs per node: {gpus} ({job.gpu_how})")
        started = Evidence(launch.line, f"processes per node: {procs} ({procs_how})")
        if gpus == 0:
            if _uses_cuda(ctx):
                yield ctx.finding(type(self), launch.line,
                                  f"the job requests no GPU ({job.gpu_how}) but its training code uses CUDA; "
                                  "add --gres=gpu:N (or an nvidia.com/gpu limit)", [where, started])
            return
        if procs is not None and procs != gpus:
            if procs > gpus:
                yield ctx.finding(type(self), launch.line,
                                  f"{procs} processes per node on {gpus} GPU(s) per node: ranks would share a GPU "
                                  f"(NCCL fails with 'Duplicate GPU detected'); start {gpus} per node or request "
                                  f"{procs} GPUs", [where, started])
            else:
                yield ctx.finding(type(self), launch.line,
                                  f"{gpus} GPUs requested per node but only {procs} process(es) per node are started: "
                                  f"{gpus - procs} GPU(s) per node stay idle; start {gpus} per node or request {procs}",
                                  [where, started], severity=Severity.WARNING)
        devices = _code_devices(ctx)
        if devices is not None and procs is not None and devices[0] != procs and launch.info.launcher == "python":
            value, fact = devices
            yield ctx.finding(type(self), launch.line,
                              f"Lightning devices={value} ({fact}) but SLURM starts {procs} task(s) per node: "
                              f"set --ntasks-per-node={value} or devices={procs}",
                              [started, Evidence(launch.line, f"devices={value} at {fact}")])


def _spawned_per_task(ctx: JobContext, launch: Any) -> Optional[tuple[Optional[int], str]]:
    """Processes each ``srun``/``python`` task starts itself (``torch.multiprocessing.spawn`` in an
    audited script), read by the same adapter code that writes the plan's world size; None when no
    script spawns."""
    if ctx.project is None or launch.info.launcher not in (None, "python"):
        return None
    from preflight.adapters.launch_loop import spawned_per_task

    return spawned_per_task(ctx.project, launch.info)


def _uses_cuda(ctx: JobContext) -> bool:
    text = ctx.script_text
    if "cuda" in text or "device_map" in text:
        return True
    names = ctx.plan.value("framework.names", ()) if ctx.plan is not None else ()
    return any(n in ("lightning", "accelerate", "transformers", "deepspeed") for n in names or ())


def _code_devices(ctx: JobContext) -> Optional[tuple[int, str]]:
    if ctx.plan is None:
        return None
    for fact in ctx.plan.facts("dist.devices_per_node") if "dist.devices_per_node" in ctx.plan else ():
        if fact.source.kind == "code" and "lightning" in fact.adapter:
            return int(fact.value), fact.source.location()
    return None


# --------------------------------------------------------------------------- PF702


@_job_rule
class GpusPerNodeWithGres(JobRule):
    code = "PF702"
    name = "gpus-per-node-with-gres"
    severity = Severity.WARNING
    category = Category.CONFIG
    summary = "A SLURM job gives both --gpus-per-node and --gres=gpu"
    explanation = """
## What it finds

A batch job that sets the GPUs per node twice: `--gpus-per-node` and `--gres=gpu:...`,
on the command line, in `SBATCH_*` variables or in `#SBATCH` directives.

## Why it matters

sbatch does not treat one as overriding the other: it keeps both in the job's
`TresPerNode` (`gres:gpu:3,gres:gpu:2`). On Slurm 22.05.8 (measured by the gate's real
Slurm test) `sbatch --gpus-per-node=3` of a script with `#SBATCH --gres=gpu:2` ran with
2 GPUs, although the command line is meant to win over directives. Which count the job
gets depends on the Slurm version, so the script's process count may not match.

## How to fix it

Use one of the two options; `--gpus-per-node` is the newer spelling.
"""
    bad_examples = (
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:4
        #SBATCH --gpus-per-node=4
        torchrun --nproc_per_node=4 train.py
        """,
    )
    good_examples = (
        """\
        #!/bin/bash
        #SBATCH --gpus-per-node=4
        torchrun --nproc_per_node=4 train.py
        """,
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:4,nic:1
        torchrun --nproc_per_node=4 train.py
        """,
    )

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        sj = ctx.job.slurm
        if sj is None:
            return
        from preflight.gate.slurm import parse_gres_gpu

        gres = [o for o in sj.all("gres") if parse_gres_gpu(o.value)[0] is not None]
        per_node = sj.all("gpus-per-node")
        if not gres or not per_node:
            return
        g, p = gres[-1], per_node[-1]
        line = g.line or p.line
        yield ctx.finding(type(self), line,
                          f"--gres={g.value} ({g.where(sj.path)}) and --gpus-per-node={p.value} ({p.where(sj.path)}) "
                          "both set the GPUs per node; Slurm 22.05 keeps both and gave the job the --gres count; "
                          "keep only one",
                          [Evidence(g.line or 1, f"--gres={g.value} from {g.where()}"),
                           Evidence(p.line or 1, f"--gpus-per-node={p.value} from {p.where()}")])


# --------------------------------------------------------------------------- PF703


@_job_rule
class DirectiveAfterCommand(JobRule):
    code = "PF703"
    name = "sbatch-directive-after-command"
    severity = Severity.WARNING
    category = Category.CONFIG
    summary = "An #SBATCH directive after the first command of a batch script is ignored"
    explanation = """
## What it finds

A `#SBATCH` line below the first line of the script that is neither blank nor a comment
(a `module load`, an `export`, `set -e`, ...).

## Why it matters

sbatch stops reading directives at the first command, silently: the option is not
applied. A `--gres=gpu:8` there leaves the job without GPUs, a `--time` there gives it the
partition's default limit. (Checked with Slurm 22.05.8: a `--job-name` after `set -e` is
not applied.) The finding is an error when the ignored option is one the gate reads
(GPUs, nodes, tasks, partition, constraint).

## How to fix it

Move every `#SBATCH` line above the first command.
"""
    bad_examples = (
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        module load cuda
        #SBATCH --gres=gpu:4
        torchrun --nproc_per_node=4 train.py
        """,
    )
    good_examples = (
        """\
        #!/bin/bash
        #SBATCH --nodes=1

        # GPUs
        #SBATCH --gres=gpu:4
        module load cuda
        torchrun --nproc_per_node=4 train.py
        """,
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:4
        module load cuda
          #SBATCH is only a comment here, indented
        torchrun --nproc_per_node=4 train.py
        """,
    )

    _MATTERS = frozenset({"gres", "gpus", "gpus-per-node", "gpus-per-task", "nodes", "ntasks",
                          "ntasks-per-node", "partition", "constraint"})

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        sj = ctx.job.slurm
        if sj is None or not sj.ignored:
            return
        for opt in sj.ignored:
            severe = opt.name in self._MATTERS
            yield ctx.finding(type(self), opt.line,
                              f"#SBATCH {opt.text} comes after the first command (line {sj.first_command}) and is "
                              "ignored by sbatch; move it above that line",
                              [Evidence(sj.first_command or 1, "the first command: directives end here")],
                              severity=Severity.ERROR if severe else None)


# --------------------------------------------------------------------------- world size


def world_size(job: JobSpec) -> Optional[int]:
    launch = job.launch
    if launch is None or launch.procs_per_node is None:
        return None
    nodes = job.nodes
    info = launch.info
    if info.wrapper is None and job.kind == "slurm":
        nodes = info.nodes or 1  # a bare launcher in a batch script runs on the first node only
    return nodes * launch.procs_per_node



# --------------------------------------------------------------------------- PF704 / PF705


@_job_rule
class FitUnknown(JobRule):
    code = "PF704"
    name = "fit-unknown"
    severity = Severity.ERROR
    category = Category.MEMORY
    summary = "The gate cannot tell whether the job fits the GPU it will land on"
    explanation = """
## What it finds

The gate could not estimate the job's peak memory per GPU against the GPU it will run
on: the GPU model is unknown (no partition, GPU type, constraint or node label in the
cluster file matches) or the estimate lacks an input (the model is not known, the
script was not found).

## Why it matters

An unknown is rejected by default: a gate that admits what it cannot check lets
exactly the jobs it exists for through. A platform may allow unknowns with
`policy.allow_unknown: true` in the cluster file or `--allow-unknown`; the finding is
then a warning.

## How to fix it

Add the partition / GPU type / node label to the cluster file, make the model
reference visible to preflight (a Hub id or catalog name, a config given with
`--config`), or ask the platform team to allow unknowns.
"""
    bad_examples = (
        """\
        #!/bin/bash
        #SBATCH --partition=unlisted
        #SBATCH --gres=gpu:1
        python train.py
        """,
    )
    good_examples = (
        """\
        #!/bin/bash
        #SBATCH --partition=a100
        #SBATCH --gres=gpu:1
        python train.py
        # model: gpt2 (a model the estimator knows; the partition is in the cluster file)
        """,
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:a100:1
        python train.py
        # model: gpt2
        """,
    )

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        fit = ctx.fit
        if fit is None or fit.verdict != "unknown":
            return
        line = ctx.job.gpu_line or (ctx.job.launch.line if ctx.job.launch else 1)
        yield ctx.finding(type(self), line, f"cannot tell whether the job fits: {fit.reason}",
                          severity=Severity.WARNING if ctx.extra.get("allow_unknown") else None)


@_job_rule
class ProjectedOom(JobRule):
    code = "PF705"
    name = "projected-oom"
    severity = Severity.ERROR
    category = Category.MEMORY
    summary = "The job's projected peak memory per GPU exceeds what the cluster policy allows"
    explanation = """
## What it finds

The estimator's projected peak memory per GPU for the job (model, precision, optimizer,
batch, sequence length, sharding over the job's world size) against the GPU the job
lands on, times the policy's usable fraction (`policy.usable_memory`, e.g. 0.95). The
verdicts the policy rejects (`policy.reject`, default `oom` and `likely-oom`) are
reported.

## Why it matters

The job would wait in the queue, hold its GPUs, load the model and die with CUDA out of
memory in its first steps.

## How to fix it

The message lists the changes that would make it fit and the memory each saves
(gradient checkpointing, a smaller micro-batch with more accumulation, ZeRO/FSDP
sharding, 8-bit optimizer, LoRA, a larger GPU). `preflight estimate` shows the breakdown.
"""
    bad_examples = (
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:a100:1
        python train.py
        # model: meta-llama/Llama-2-7b-hf (train.py: full fine-tuning with the HF Trainer, AdamW)
        """,
    )
    good_examples = (
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:a100:1
        python train.py
        # model: gpt2
        """,
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:a100:8
        torchrun --nproc_per_node=8 train.py --deepspeed zero3.json
        # model: meta-llama/Llama-2-7b-hf
        # zero3.json: {"zero_optimization": {"stage": 3}, "bf16": {"enabled": true}, "train_micro_batch_size_per_gpu": 1}
        """,
    )

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        fit = ctx.fit
        if fit is None or fit.verdict not in ctx.extra.get("reject", ("oom", "likely-oom")):
            return
        line = ctx.job.launch.line if ctx.job.launch else 1
        yield ctx.finding(type(self), line, fit.reason,
                          [Evidence(ctx.job.gpu_line or line, f"GPU: {ctx.job.gpu.name} ({ctx.job.gpu.how})")])


# --------------------------------------------------------------------------- PF706


@_job_rule
class LaunchScriptMissing(JobRule):
    code = "PF706"
    name = "launch-script-missing"
    severity = Severity.ERROR
    category = Category.CONFIG
    summary = "A batch script launches a Python script that does not exist where the job starts"
    explanation = """
## What it finds

A launch line of a SLURM batch script (`python`, `torchrun`, `srun`, `accelerate
launch`, `deepspeed`) names a `.py` file that does not exist relative to the
directory the job starts in (`--chdir`, else the directory sbatch is run from).

## Why it matters

The job waits in the queue, gets its GPUs and fails at once with "can't open file".

## How to fix it

Fix the path, submit from the right directory, or set `#SBATCH --chdir`.
"""
    bad_examples = (
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:1
        python does_not_exist.py
        """,
    )
    good_examples = (
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:1
        python train.py
        # train.py is in the submission directory
        """,
        """\
        #!/bin/bash
        #SBATCH --gres=gpu:1
        python -m my_package.train   # a module: resolved by Python at run time
        """,
    )

    def evaluate(self, ctx: JobContext) -> Iterable[Finding]:
        missing = ctx.extra.get("missing_scripts") or []
        for line, name, where in missing:
            yield ctx.finding(type(self), line, f"{name} does not exist in {where}: the job would fail at start")
