"""The gate's decision for one job: the full audit (code rules, plan, estimate) plus the
job-level rules PF70x, turned into admit / reject / error with reasons a user can act on.

The allocation becomes plan facts (``derived``: nodes, processes per node, world size), so
the plan rules see the world size the job will really have: PF502 checks the DeepSpeed
batch triple against nodes x GPUs when the launch line does not state it.

``gate(request)`` never raises on bad input: an unreadable job file or a bad cluster file
is an ``error`` decision (exit 2) with the file and line.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from preflight.diagnostics import FileError, Finding, Severity
from preflight.gate.cluster import Cluster, GpuChoice, Policy
from preflight.gate.job import JobSpec, outside_bases, resolve_file

GATE_VERSION = 1
ADMIT, REJECT, ERROR = "admit", "reject", "error"
EXIT = {ADMIT: 0, REJECT: 1, ERROR: 2}
_GIB = 1024 ** 3


@dataclass
class GateRequest:
    job_path: Optional[Path] = None  # a batch script or a manifest on disk
    job_text: Optional[str] = None  # or its text (the lua plugin, the webhook)
    display: str = ""
    kind: str = "auto"  # "auto", "slurm", "k8s"
    sbatch_args: Sequence[str] = ()  # sbatch command-line options (they win over directives)
    env: Mapping[str, str] = field(default_factory=dict)  # for SBATCH_* variables
    manifest: Optional[dict[str, Any]] = None  # a Kubernetes object already parsed (the webhook)
    configs: Sequence[Path] = ()  # config files given alongside (mounted ConfigMaps, ...)
    scripts: Sequence[Path] = ()  # training scripts given alongside (k8s: the code in the image)
    root: Optional[Path] = None  # where relative paths of the job resolve (the submission dir)
    cluster: Optional[Cluster] = None
    gpu: Optional[str] = None  # force the GPU model
    allow_unknown: Optional[bool] = None  # override the policy
    usable_memory: Optional[float] = None  # override the policy


@dataclass
class FitResult:
    verdict: str  # fits | tight | likely-oom | oom | unknown
    reason: str
    peak_bytes: Optional[int] = None
    interval_bytes: Optional[tuple[int, int]] = None
    usable_bytes: Optional[int] = None
    detail: Optional[dict[str, Any]] = None

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "reason": self.reason, "peak_bytes": self.peak_bytes,
                "interval_bytes": list(self.interval_bytes) if self.interval_bytes else None,
                "usable_bytes": self.usable_bytes, "estimate": self.detail}


@dataclass
class GateResult:
    decision: str
    reasons: list[str] = field(default_factory=list)  # why rejected (each actionable)
    warnings: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    job: Optional[JobSpec] = None
    fit: Optional[FitResult] = None
    policy: Optional[Policy] = None
    notes: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def exit_code(self) -> int:
        return EXIT[self.decision]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": GATE_VERSION,
            "decision": self.decision,
            "exit_code": self.exit_code,
            "reasons": self.reasons,
            "warnings": self.warnings,
            "job": self.job.summary() if self.job else None,
            "fit": self.fit.to_dict() if self.fit else None,
            "policy": None if self.policy is None else {
                "usable_memory": self.policy.usable_memory, "allow_unknown": self.policy.allow_unknown,
                "reject": list(self.policy.reject), "fail_on": self.policy.fail_on,
                "on_failure": self.policy.on_failure, "source": self.policy.source},
            "findings": [f.to_dict() for f in self.findings],
            "errors": [e.to_dict() for e in self.errors],
            "notes": self.notes,
        }

    def text(self) -> str:
        head = {ADMIT: "ADMIT", REJECT: "REJECT", ERROR: "ERROR"}[self.decision]
        job = self.job
        lines = [f"preflight gate: {head} {job.path if job else ''}".rstrip()]
        if job is not None:
            launch = job.launch
            lines.append(f"  job: {job.kind}, {job.nodes} node(s) x {job.gpus_per_node} GPU(s) "
                         f"({job.gpu_how}); GPU model: {job.gpu.name or 'unknown'} ({job.gpu.how})")
            if launch is not None:
                lines.append(f"  launch (line {launch.line}): {launch.text}")
        if self.fit is not None and not any(r.startswith("PF705 ") for r in self.reasons):
            lines.append(f"  fit: {self.fit.verdict}: {self.fit.reason}")
        for r in self.reasons:
            lines.append(f"  reject: {r}")
        for w in self.warnings:
            lines.append(f"  warning: {w}")
        for e in self.errors:
            lines.append(f"  error: {e.render()}")
        return "\n".join(lines) + "\n"


def _finding_text(f: Finding) -> str:
    return f"{f.code} {f.path}:{f.span.line}: {f.message}"


# --------------------------------------------------------------------------- the job


def read_job(req: GateRequest) -> JobSpec:
    from preflight.gate import k8s, slurm

    display = req.display or (str(req.job_path) if req.job_path else "<job>")
    if req.manifest is not None:
        return k8s.job_from_object(req.manifest, display)
    text = req.job_text
    if text is None:
        assert req.job_path is not None
        try:
            from preflight.sources import read_text_limited

            text = read_text_limited(req.job_path)
        except (OSError, UnicodeDecodeError) as exc:
            job = JobSpec(kind="unknown", path=display)
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            job.errors.append(FileError(display, f"cannot read the job file: {reason}"))
            return job
    kind = req.kind
    if kind == "auto":
        kind = "k8s" if display.endswith((".yaml", ".yml", ".json")) or _looks_like_manifest(text) else "slurm"
    if kind == "k8s":
        return k8s.parse_manifest(text, display)
    sj = slurm.parse_sbatch(text, display, list(req.sbatch_args), req.env)
    return slurm.job_from_sbatch(sj)


def _looks_like_manifest(text: str) -> bool:
    head = text.lstrip()[:2000]
    return not head.startswith("#!") and "apiVersion:" in head and "kind:" in head


def choose_gpu(job: JobSpec, cluster: Cluster, forced: Optional[str]) -> GpuChoice:
    from preflight.gate.cluster import find_gpu

    if forced:
        return GpuChoice(forced, find_gpu(forced), "--gpu")
    if job.kind == "slurm":
        sj = job.slurm
        return cluster.for_slurm(job.gpu_type_hint, sj.value("constraint"), sj.value("partition"))
    return cluster.for_labels(job.node_labels)


# --------------------------------------------------------------------------- the audit


def _bases(req: GateRequest, job: JobSpec) -> list[Path]:
    root = Path(req.root) if req.root else Path.cwd()
    bases = []
    if job.workdir:
        wd = Path(job.workdir)
        bases.append(wd if wd.is_absolute() and job.kind == "slurm" else root / str(wd).lstrip("/"))
    bases.append(root)
    if req.job_path is not None:
        bases.append(Path(req.job_path).resolve().parent)
    return bases


def _audit(req: GateRequest, job: JobSpec) -> tuple[Any, Any, list[Finding], list[FileError], dict[str, Any], str]:
    """Build the plan from the launch line's script and configs; run the code rules."""
    from preflight.audit import build_plan

    extra: dict[str, Any] = {"missing_scripts": []}
    # inputs the job names that the gate did not read: (line, name, why, option); any of
    # them makes the fit unknown (fail closed), see gate()
    unread: list[tuple[int, str, str, str]] = []
    extra["unread"] = unread
    launch = job.launch
    bases = _bases(req, job)
    scripts: list[Path] = []
    configs: list[Path] = list(req.configs)
    argv: list[str] = []
    if launch is not None:
        info = launch.info
        argv = launch.plan_argv if launch.plan_argv is not None else _launch_argv(launch.text)
        from preflight.adapters.shell import SCRIPT_DIR

        cwd = launch.cwd
        if info.script is not None and not info.module and cwd == "?":
            # `cd $(...)` before the launch line: where the script is cannot be known
            unread.append((launch.line, info.script, "is named after a cd to a place not known statically",
                           "--script"))
            job.notes.append(f"{info.script} (named by the launch line) follows a cd to a place not known "
                             "statically and was not read; give it with --script")
        elif info.script is not None and not info.module:
            found = None
            if cwd and not os.path.isabs(info.script) and cwd != SCRIPT_DIR:
                # `cd ../sft` then `deepspeed main.py` (01-ai/Yi): main.py is looked up there first
                found = resolve_file(os.path.normpath(os.path.join(cwd, info.script)), bases, req.scripts)
            found = found or resolve_file(info.script, bases, req.scripts)
            if found is not None:
                scripts.append(found)
            elif outside_bases(info.script, bases):
                unread.append((launch.line, info.script, "is outside the job's directories", "--script"))
                job.notes.append(f"{info.script} (named by the launch line) is outside the job's "
                                 "directories and was not read; give it with --script")
            elif job.kind == "slurm" and info.script.endswith(".py"):
                where = str(bases[0]) if bases else "the submission directory"
                extra["missing_scripts"].append((launch.line, info.script, where))
            else:
                job.notes.append(f"{info.script} (named by the launch line) was not found; give it with --script")
        for name in info.config_files:
            found = resolve_file(name, bases, req.configs)
            if found is not None and found not in configs:
                configs.append(found)
            elif found is None and outside_bases(name, bases):
                job.notes.append(f"{name} (named by the launch line) is outside the job's "
                                 "directories and was not read; give it with --config")
                unread.append((launch.line, name, "is outside the job's directories", "--config"))
            elif found is None:
                job.notes.append(f"{name} (named by the launch line) was not found; give it with --config")
                why = "is not a regular file the gate may read" if _exists_unreadable(name, bases) else \
                    "was not found"
                unread.append((launch.line, name, why, "--config"))
    elif req.scripts:
        scripts.extend(req.scripts)
    plan, project = build_plan(scripts, configs, root=Path(req.root) if req.root else Path.cwd(), argv=argv,
                               launch_loop=launch.loop if launch is not None else None,
                               read_roots=[*bases, *(Path(s).resolve().parent for s in req.scripts)])
    _scheduler_facts(plan, job)
    # what could not be read while the plan was built (a config that is a FIFO, binary, not
    # UTF-8, unparsable; a Hydra config directory outside the job; an adapter that failed):
    # the plan may lack what decides the fit. Rule failures (added below) do not change the plan.
    extra["plan_errors"] = list(project.errors)
    findings = _audit_findings(plan, project)  # a rule that fails adds to project.errors
    errors = list(project.errors)
    text = "\n".join(s.source.text for s in project.scripts)
    return plan, project, findings, errors, extra, text


def _exists_unreadable(name: str, bases: Sequence[Path]) -> bool:
    """Something exists at ``name`` under a base (a FIFO, a directory, a dangling link) but
    it is not a regular file."""
    p = Path(name)
    for c in ([p] if p.is_absolute() else [b / p for b in bases]):
        if os.path.lexists(c) and not c.is_file():
            return True
    return False


def unread_reason(extra: Mapping[str, Any]) -> str:
    """Why the fit cannot be trusted: inputs the job names that were not read ("" if none)."""
    parts = [f"{name} (named by the launch line, line {line}) {why} and was not read; give it with {option}"
             for line, name, why, option in extra.get("unread") or ()]
    parts += [f"{e.render().replace(': error: ', ': ')}" for e in extra.get("plan_errors") or ()]
    if not parts:
        return ""
    return "; ".join(parts) + "; an estimate without it cannot be trusted"


def _launch_argv(text: str) -> list[str]:
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return []


def _audit_findings(plan: Any, project: Any) -> list[Finding]:
    """What ``preflight audit`` reports: every code rule over each script, every plan rule
    (configs, plan conflicts) over the whole job."""
    from preflight.engine import Selection, analyse_parsed
    from preflight.registry import all_rules

    selection = Selection(codes=tuple(all_rules()))
    out: list[Finding] = []
    for parsed in project.scripts:
        out.extend(analyse_parsed(parsed, selection, project.errors))
    try:
        from preflight.plan_rules import run_plan_rules
    except ImportError:
        return out
    out.extend(run_plan_rules(plan, project, selection))
    return out


def _scheduler_facts(plan: Any, job: JobSpec) -> None:
    """What the allocation says, as derived facts (a launcher's own flags win)."""
    from preflight.gate.rules import world_size
    from preflight.plan import Source

    launch = job.launch
    line = job.gpu_line
    what = "SLURM allocation" if job.kind == "slurm" else f"Kubernetes {job.kind}"
    if launch is not None and launch.procs_per_node is not None:
        plan.add("dist.devices_per_node", launch.procs_per_node,
                 Source("derived", job.path, launch.line, None, f"{what}: {launch.procs_how}"), "medium",
                 adapter="gate")
    world = world_size(job)
    if world is not None:
        plan.add("dist.world_size", world,
                 Source("derived", job.path, line or (launch.line if launch else None), None,
                        f"{what}: {job.nodes} node(s) x {launch.procs_per_node if launch else '?'} "
                        "process(es) per node"), "medium", adapter="gate")
        plan.add("dist.nodes", job.nodes if (launch and launch.info.wrapper) or job.kind != "slurm" else 1,
                 Source("derived", job.path, line, None, what), "medium", adapter="gate")


# --------------------------------------------------------------------------- the estimate


def estimate_fit(plan: Any, gpu: GpuChoice, usable: float) -> FitResult:
    """The estimator's verdict for the plan against ``gpu`` with the usable fraction."""
    if gpu.name is None:
        return FitResult("unknown", f"the GPU model is unknown: {gpu.how}")
    if gpu.gpu is None:
        return FitResult("unknown", f"{gpu.name} is not in the hardware catalog ({gpu.how})")
    try:
        from preflight import estimate as est
    except ImportError as exc:
        return FitResult("unknown", f"the estimator is not available ({exc})")
    ref = plan.value("model.ref")
    arch = None
    if ref:
        try:
            arch = est.resolve_architecture(str(ref))
        except est.InputError as exc:
            if plan.value("model.num_parameters") is None:
                return FitResult("unknown", f"{exc}")
    try:
        inp = est.input_from_plan(plan, {}, arch=arch)
        result = est.estimate(inp)
    except est.InputError as exc:
        return FitResult("unknown", f"cannot estimate: {exc}")
    if not result.ok:
        return FitResult("unknown", "cannot estimate without: " + "; ".join(result.missing))
    verdict = est.verdict(result, gpu.gpu, usable_fraction=usable)
    remedies = est.remediate(inp, gpu.gpu, usable_fraction=usable) if verdict in ("oom", "likely-oom") else []
    detail = est.estimate_json(inp, result, target=gpu.gpu, verdict=verdict, remediations=remedies)
    peak = int(result.peak_bytes or 0)
    interval = result.interval_bytes
    lo_hi = (int(interval[0]), int(interval[1])) if interval else None
    total = int(gpu.gpu.memory_bytes)
    usable_bytes = int(total * usable)
    pct = f"{usable:.0%} of " if usable < 1 else ""
    span = f" (interval {lo_hi[0] / _GIB:.1f}-{lo_hi[1] / _GIB:.1f} GiB)" if lo_hi else ""
    model = getattr(result, "arch_name", None) or ref or "the model"
    reason = (f"{model}: projected peak {peak / _GIB:.1f} GiB per GPU{span} vs {usable_bytes / _GIB:.1f} GiB "
              f"usable ({pct}{gpu.name}, {total / _GIB:.1f} GiB): {verdict}")
    fixes = [r for r in remedies if r.fits][:3]
    if fixes:
        reason += "; would fit with: " + " | ".join(
            f"{r.description} (-{r.saved_bytes / _GIB:.1f} GiB)" for r in fixes)
    return FitResult(verdict, reason, peak, lo_hi, usable_bytes, detail)


# --------------------------------------------------------------------------- decision


def gate(req: GateRequest) -> GateResult:
    from preflight.gate.rules import JobContext, job_rules

    start = time.perf_counter()
    cluster = req.cluster or Cluster()
    policy = Policy(**{**cluster.policy.__dict__})
    if req.allow_unknown is not None:
        policy.allow_unknown = req.allow_unknown
    if req.usable_memory is not None:
        policy.usable_memory = req.usable_memory
    job = read_job(req)
    result = GateResult(ERROR, job=job, policy=policy)
    if job.errors:
        result.errors = list(job.errors)
        result.reasons = [e.render() for e in job.errors]
        result.elapsed = time.perf_counter() - start
        return result
    job.gpu = choose_gpu(job, cluster, req.gpu)
    result.reasons.extend(job.rejections)
    if job.slurm is not None:
        for line, message in job.slurm.problems:
            target = result.reasons if "sbatch refuses" in message else result.warnings
            target.append(f"{job.path}:{line}: {message}")
    plan, project, findings, errors, extra, script_text = _audit(req, job)
    usable = job.gpu.usable_memory if job.gpu.usable_memory is not None and req.usable_memory is None \
        else policy.usable_memory
    fit = estimate_fit(plan, job.gpu, usable) if job.gpus_per_node else None
    if fit is None and job.gpus_per_node == 0:
        fit = FitResult("fits", "the job requests no GPU: nothing to fit")
    elif fit is None:  # GPUs asked for, but how many per node cannot be told: fail closed
        fit = FitResult("unknown", f"the GPUs per node cannot be told: {job.gpu_how}")
    unread = unread_reason(extra)
    if unread and fit is not None and job.gpus_per_node and fit.verdict != "unknown":
        # fail closed: the estimate was made without an input the job names
        fit = FitResult("unknown", f"{unread} (without it: {fit.verdict})", detail=fit.detail)
    result.fit = fit
    extra.update(allow_unknown=policy.allow_unknown, reject=policy.reject)
    ctx = JobContext(job=job, plan=plan, project=project, fit=fit, script_text=script_text, extra=extra)
    job_findings: list[Finding] = []
    for cls in job_rules().values():
        job_findings.extend(cls().evaluate(ctx))
    result.findings = sorted(job_findings, key=lambda f: f.sort_key()) + sorted(findings, key=lambda f: f.sort_key())
    result.errors = errors
    result.notes = list(job.notes) + list(plan.notes)
    fail_on = None if policy.fail_on == "never" else Severity.parse(policy.fail_on)
    for f in result.findings:
        if f.code == "PF704" and policy.allow_unknown:
            result.warnings.append(_finding_text(f))
        elif fail_on is not None and f.severity >= fail_on:
            result.reasons.append(_finding_text(f))
        elif f.severity >= Severity.WARNING:
            result.warnings.append(_finding_text(f))
    for e in errors:
        result.warnings.append(f"not analysed: {e.render()}")
    result.decision = REJECT if result.reasons else ADMIT
    result.elapsed = time.perf_counter() - start
    return result


def request_from_env(environ: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """The ``SBATCH_*`` variables of an environment (the submitting shell's)."""
    from preflight.gate.slurm import ENV_OPTIONS

    env = os.environ if environ is None else environ
    return {k: env[k] for k in ENV_OPTIONS if env.get(k)}
