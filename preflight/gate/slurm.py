"""SLURM batch scripts: ``#SBATCH`` directives, their precedence, and the launch lines.

What sbatch does, checked against a real slurmctld 22.05.8 (``tests/test_slurm_real.py``
starts one):

- Directives are read from lines that start with ``#SBATCH`` (no leading blank) until the
  first line that is neither blank nor a comment; a ``#SBATCH`` after that is ignored
  (so is an indented ``  #SBATCH``, which is a comment). Blank and comment lines between
  directives do not end them. Text after `` #`` on a directive line is a comment.
- The same option given twice: the later one wins.
- Precedence: the command line over ``SBATCH_*`` input environment variables over
  directives (sbatch(1), "INPUT ENVIRONMENT VARIABLES").
- ``--gpus-per-node`` together with ``--gres=gpu``: sbatch keeps both in the job's
  ``TresPerNode`` (``gres:gpu:3,gres:gpu:2``) and the job was given the ``--gres`` count,
  even when ``--gpus-per-node`` came from the command line (rule PF702).

:func:`parse_sbatch` is pure: the script text, the command-line options and an environment
in, a :class:`SlurmJob` out; it never raises on bad input.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from preflight.adapters.launchers import LaunchInfo
from preflight.adapters.shell import logical_lines, read_shell, slurm_env_of
from preflight.gate.job import MAX_COMMAND_LINE, too_long

if TYPE_CHECKING:
    from preflight.gate.job import JobSpec

# Short options of sbatch that take a value, by their long name.
_SHORT = {"-N": "nodes", "-n": "ntasks", "-p": "partition", "-C": "constraint", "-G": "gpus",
          "-J": "job-name", "-D": "chdir", "-o": "output", "-e": "error", "-t": "time",
          "-c": "cpus-per-task", "-w": "nodelist", "-x": "exclude", "-A": "account", "-q": "qos",
          "-a": "array", "-d": "dependency", "-i": "input", "-L": "licenses", "-M": "clusters",
          "-m": "distribution", "-F": "nodefile", "-b": "begin", "-B": "extra-node-info",
          "-S": "core-spec"}
# Options that take no value (long names; short flags below).
_FLAGS = {"hold", "requeue", "no-requeue", "wait", "parsable", "quiet", "overcommit", "contiguous",
          "spread-job", "use-min-nodes", "test-only", "verbose", "ignore-pbs", "oversubscribe",
          "exclusive", "no-kill", "get-user-env", "help", "usage", "version", "reboot", "wait-all-nodes"}
_SHORT_FLAGS = {"-H": "hold", "-W": "wait", "-Q": "quiet", "-v": "verbose", "-O": "overcommit",
                "-s": "oversubscribe", "-h": "help", "-V": "version", "-k": "no-kill"}
# sbatch's input environment variables that set an option we read (sbatch 22.05.8 binary).
ENV_OPTIONS = {"SBATCH_PARTITION": "partition", "SBATCH_CONSTRAINT": "constraint", "SBATCH_GRES": "gres",
               "SBATCH_GPUS": "gpus", "SBATCH_GPUS_PER_NODE": "gpus-per-node",
               "SBATCH_GPUS_PER_TASK": "gpus-per-task", "SBATCH_JOB_NAME": "job-name"}


_LAUNCH_HEADS = ("srun", "torchrun", "accelerate", "accelerate-launch", "deepspeed", "mpirun",
                 "python", "python3")


@dataclass
class SlurmOption:
    """One sbatch option as given: ``name`` is the long name (``gres``), ``origin`` is
    ``cli``, ``env`` (with ``env_var``) or ``directive`` (with ``line``)."""

    name: str
    value: str
    origin: str
    line: Optional[int] = None
    env_var: Optional[str] = None
    text: str = ""

    def where(self, path: str = "") -> str:
        if self.origin == "directive":
            return f"{path}:{self.line}" if path else f"line {self.line}"
        if self.origin == "env":
            return f"environment {self.env_var}"
        return "sbatch command line"


@dataclass
class LaunchLine:
    """A line of the script body that starts training processes."""

    line: int
    text: str
    info: LaunchInfo
    cwd: Optional[str] = None  # after `cd DIR` earlier in the script (adapters.shell.LaunchLine.cwd)
    # the command the line runs when it is held in a variable or a string (`eval $cmd`,
    # `srun bash -c "$LAUNCHER $CMD"`): the line's own words are not the command
    held: Optional[list[str]] = None
    loop: Optional[Any] = None  # the shell loop around the line (adapters.shell.LaunchLine.loop)


def _held(text: str, tokens: list[str]) -> Optional[list[str]]:
    """``tokens`` (expanded) when the line does not spell out the command it runs in its first
    two words (`srun bash -c "$CMD"`, `eval $cmd`, `clear; srun ...`, `torchrun $ARGS ...`),
    else None: the line's own words are then the command."""
    try:
        words = shlex.split(text)
    except ValueError:
        return list(tokens)
    return None if words[:2] == tokens[:2] else list(tokens)


@dataclass
class GpuRequest:
    """GPUs the job asks for on each node (None: not said), with the option that says it."""

    per_node: Optional[int]
    gpu_type: Optional[str]
    option: Optional[SlurmOption]
    how: str


@dataclass
class SlurmJob:
    path: str
    text: str
    options: list[SlurmOption] = field(default_factory=list)  # every option, in precedence order low->high
    ignored: list[SlurmOption] = field(default_factory=list)  # directives after the first command
    first_command: Optional[int] = None
    launches: list[LaunchLine] = field(default_factory=list)
    script_args: list[str] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, message): sbatch would refuse
    too_long: list[tuple[int, str]] = field(default_factory=list)  # (line, message): command lines not read

    def get(self, name: str) -> Optional[SlurmOption]:
        """The option that wins (command line > environment > the last directive)."""
        found = [o for o in self.options if o.name == name]
        return found[-1] if found else None

    def all(self, name: str) -> list[SlurmOption]:
        return [o for o in self.options if o.name == name]

    def value(self, name: str) -> Optional[str]:
        opt = self.get(name)
        return opt.value if opt is not None else None

    # -- the allocation ------------------------------------------------------------------
    def nodes(self) -> tuple[int, Optional[str]]:
        """Nodes (the minimum of a range) and a note when that is not the whole story."""
        raw = self.value("nodes")
        if raw is None:
            return 1, None
        lo, _, hi = raw.partition("-")
        n = _int(lo)
        if n is None or n < 1:
            return 1, f"--nodes {raw} is not a node count; 1 assumed"
        if hi and _int(hi) != n:
            return n, f"--nodes {raw} is a range: the job may start on {n} to {hi} nodes; {n} assumed"
        return n, None

    def tasks_per_node(self) -> Optional[int]:
        per = _int(self.value("ntasks-per-node") or "")
        if per is not None:
            return per
        total = _int(self.value("ntasks") or "")
        nodes, _ = self.nodes()
        if total is not None and total % nodes == 0:
            return total // nodes
        return None

    def gpus(self) -> GpuRequest:
        """GPUs per node from --gres, --gpus-per-node, --gpus or --gpus-per-task."""
        nodes, _ = self.nodes()
        gres = self.get("gres")
        per_node_opt = self.get("gpus-per-node")
        if gres is not None:
            count, kind = parse_gres_gpu(gres.value)
            if count is not None:
                return GpuRequest(count, kind, gres, f"--gres={gres.value}")
        if per_node_opt is not None:
            kind, count = _typed_count(per_node_opt.value)
            if count is not None:
                return GpuRequest(count, kind, per_node_opt, f"--gpus-per-node={per_node_opt.value}")
        total_opt = self.get("gpus")
        if total_opt is not None:
            kind, count = _typed_count(total_opt.value)
            if count is not None:
                if count % nodes == 0:
                    return GpuRequest(count // nodes, kind, total_opt,
                                      f"--gpus={total_opt.value} over {nodes} node(s)")
                return GpuRequest(None, kind, total_opt,
                                  f"--gpus={total_opt.value} does not divide over {nodes} nodes")
        per_task_opt = self.get("gpus-per-task")
        if per_task_opt is not None:
            kind, count = _typed_count(per_task_opt.value)
            tasks = self.tasks_per_node()
            if count is not None and tasks is not None:
                return GpuRequest(count * tasks, kind, per_task_opt,
                                  f"--gpus-per-task={per_task_opt.value} x {tasks} task(s) per node")
            return GpuRequest(None, kind, per_task_opt,
                              f"--gpus-per-task={per_task_opt.value} with an unknown number of tasks per node")
        return GpuRequest(0, None, None, "no GPU option (--gres=gpu, --gpus-per-node, --gpus, --gpus-per-task)")


def _int(text: str) -> Optional[int]:
    try:
        return int(text.strip())
    except (ValueError, AttributeError):
        return None


def _typed_count(value: str) -> tuple[Optional[str], Optional[int]]:
    """``a100:4`` -> ("a100", 4); ``4`` -> (None, 4)."""
    kind, sep, count = value.rpartition(":")
    return (kind or None) if sep else None, _int(count)


def parse_gres_gpu(value: str) -> tuple[Optional[int], Optional[str]]:
    """The GPU part of a --gres value: ``gpu:a100:2`` -> (2, "a100"); ``gpu`` -> (1, None);
    no gpu entry -> (None, None)."""
    for item in value.split(","):
        item = item.strip()
        if item.startswith("gres:"):
            item = item[5:]
        if item.startswith("gres/"):
            item = item[5:]
        parts = item.split(":")
        if parts[0] != "gpu":
            continue
        if len(parts) == 1:
            return 1, None
        if len(parts) == 2:
            n = _int(parts[1])
            return (n, None) if n is not None else (1, parts[1])
        return _int(parts[-1]), parts[1]
    return None, None


def parse_options(tokens: Sequence[str], origin: str, line: Optional[int] = None,
                  problems: Optional[list[tuple[int, str]]] = None) -> tuple[list[SlurmOption], list[str]]:
    """sbatch options from tokens; returns the options and the tokens after them
    (the script and its arguments, for a command line)."""
    out: list[SlurmOption] = []
    i = 0
    toks = list(tokens)
    while i < len(toks):
        tok = toks[i]
        if tok == "--":
            return out, toks[i + 1:]
        if not tok.startswith("-") or tok == "-":
            return out, toks[i:]
        if tok.startswith("--"):
            name, eq, value = tok[2:].partition("=")
            if eq:
                out.append(SlurmOption(name, value, origin, line, text=tok))
                i += 1
            elif name in _FLAGS or i + 1 >= len(toks):
                out.append(SlurmOption(name, "", origin, line, text=tok))
                i += 1
            else:
                out.append(SlurmOption(name, toks[i + 1], origin, line, text=f"{tok} {toks[i + 1]}"))
                i += 2
            continue
        short = tok[:2]
        if short in _SHORT_FLAGS:
            out.append(SlurmOption(_SHORT_FLAGS[short], "", origin, line, text=tok))
            i += 1
            continue
        long = _SHORT.get(short)
        if long is None:
            if problems is not None and line is not None:
                problems.append((line, f"unknown sbatch option {tok}"))
            i += 1
            continue
        if len(tok) > 2:
            out.append(SlurmOption(long, tok[2:].lstrip("="), origin, line, text=tok))
            i += 1
        elif i + 1 < len(toks):
            out.append(SlurmOption(long, toks[i + 1], origin, line, text=f"{tok} {toks[i + 1]}"))
            i += 2
        else:
            if problems is not None and line is not None:
                problems.append((line, f"{tok} needs a value"))
            i += 1
    return out, []


def _directive_tokens(body: str) -> Optional[list[str]]:
    """Tokens of a directive's text, a trailing `` # comment`` removed; None if unparsable."""
    text = re.sub(r"\s+#.*$", "", body)
    try:
        return shlex.split(text)
    except ValueError:
        return None


def is_launch(info: LaunchInfo) -> bool:
    return info.launcher is not None and (info.script is not None or info.wrapper is not None)


def parse_sbatch(text: str, path: str = "<script>", cli: Sequence[str] = (),
                 env: Optional[Mapping[str, str]] = None) -> SlurmJob:
    """Read a batch script the way sbatch does, plus the command-line options and the
    ``SBATCH_*`` variables of ``env`` (the submitting shell's environment)."""
    job = SlurmJob(path=path, text=text)
    lines = text.splitlines()
    if not lines or not lines[0].startswith("#!"):
        job.problems.append((1, "sbatch refuses a script whose first line is not '#!' "
                                "(\"This does not look like a batch script\")"))
    directives: list[SlurmOption] = []
    for n, raw in enumerate(lines, 1):
        if raw.startswith("#SBATCH"):
            if len(raw) > MAX_COMMAND_LINE:
                job.too_long.append((n, too_long(len(raw.encode("utf-8", "replace")))))
                continue
            tokens = _directive_tokens(raw[len("#SBATCH"):])
            if tokens is None:
                job.problems.append((n, f"cannot read directive: {raw.strip()}"))
                continue
            opts, _ = parse_options(tokens, "directive", n, job.problems)
            (job.ignored if job.first_command is not None else directives).extend(opts)
            continue
        stripped = raw.strip()
        if (not stripped or stripped.startswith("#")) or (n == 1 and raw.startswith("#!")):
            continue
        if job.first_command is None:
            job.first_command = n
    envs: list[SlurmOption] = []
    for var, name in sorted(ENV_OPTIONS.items()):
        if env and env.get(var):
            envs.append(SlurmOption(name, env[var], "env", env_var=var, text=f"{var}={env[var]}"))
    cli_opts, rest = parse_options(list(cli), "cli")
    job.script_args = rest[1:] if rest else []
    job.options = directives + envs + cli_opts
    # the launch lines, read by the one launch reader audit uses too (variables set earlier,
    # ${VAR:-x} defaults and the $SLURM_* values of the directives expanded); a logical line
    # over MAX_COMMAND_LINE is not read (blanked, line numbers kept) and, when it looks like
    # a launch, rejects the job with its line
    start = job.first_command or len(lines) + 1
    kept = list(lines)
    groups = logical_lines(lines)
    for k, (n, logical) in enumerate(groups):
        if n < start or len(logical) <= MAX_COMMAND_LINE:
            continue
        words = logical.strip()[:200].split()
        head = words[0].rsplit("/", 1)[-1] if words else ""
        if head in _LAUNCH_HEADS or head.startswith("python") or head.endswith(".py"):
            job.too_long.append((n, too_long(len(logical.strip().encode("utf-8", "replace")))))
        end = groups[k + 1][0] - 1 if k + 1 < len(groups) else len(lines)
        for i in range(n - 1, end):
            kept[i] = ""
    for item in read_shell("\n".join(kept), path, args=job.script_args, start=start,
                           slurm=slurm_env_of(job)).launches:
        if is_launch(item.info):
            job.launches.append(LaunchLine(item.line, item.text, item.info, item.cwd, _held(item.text, item.tokens),
                                           item.loop))
    return job


def job_from_sbatch(sj: SlurmJob) -> JobSpec:
    """The scheduler-neutral view of a batch script: allocation and launches."""
    from preflight.gate.job import JobSpec, Launch

    job = JobSpec(kind="slurm", path=sj.path, name=sj.value("job-name") or "", slurm=sj)
    job.nodes, note = sj.nodes()
    if note:
        job.notes.append(note)
    req = sj.gpus()
    job.gpus_per_node, job.gpu_how, job.gpu_type_hint = req.per_node, req.how, req.gpu_type
    if req.option is not None:
        job.gpu_line = req.option.line
        if req.option.origin != "directive":
            job.gpu_how += f" ({req.option.where()})"
    job.tasks_per_node = sj.tasks_per_node()
    job.workdir = sj.value("chdir")
    job.rejections.extend(f"{sj.path}:{line}: {message}" for line, message in sj.too_long)
    for item in sj.launches:
        launch = Launch(item.line, item.text, item.info, cwd=item.cwd, plan_argv=item.held, loop=item.loop)
        _procs(job, launch)
        job.launches.append(launch)
    return job


def _procs(job: JobSpec, launch: Any) -> None:
    info = launch.info
    w = info.wrapper_options
    srun_per_node: Optional[int] = None
    how = ""
    if info.wrapper == "srun":
        per = _int(w.get("__ntasks_per_node", ""))
        total = _int(w.get("-n", w.get("__ntasks", "")))
        nodes = _int(w.get("-N", w.get("__nodes", ""))) or job.nodes
        if per is not None:
            srun_per_node, how = per, "srun --ntasks-per-node"
        elif total is not None and nodes and total % nodes == 0:
            srun_per_node, how = total // nodes, f"srun -n {total} over {nodes} node(s)"
        elif job.tasks_per_node is not None:
            srun_per_node, how = job.tasks_per_node, "srun inherits the job's tasks per node"
        else:
            srun_per_node, how = 1, "srun: one task per node (the job asks for no more tasks)"
    if info.launcher == "python":
        if srun_per_node is not None:
            launch.procs_per_node, launch.procs_how = srun_per_node, how
        else:
            launch.procs_per_node, launch.procs_how = 1, "one python process (on the first node only)"
        return
    per_launcher = info.procs_per_node
    nproc = info.options.get("__nproc_per_node")
    visible = ""
    if per_launcher is None and info.launcher in ("torchrun", "torch.distributed.launch"):
        if nproc is None:
            per_launcher = 1
        elif nproc in ("gpu", "auto") and job.gpus_per_node:
            per_launcher, visible = job.gpus_per_node, f"--nproc_per_node {nproc}: one per allocated GPU"
    elif per_launcher is None and info.launcher == "deepspeed" and job.gpus_per_node \
            and "__num_gpus" not in info.options and "__num_accelerators" not in info.options \
            and "__include" not in info.options:
        per_launcher, visible = job.gpus_per_node, "deepspeed without --num_gpus: every allocated GPU"
    if per_launcher is None:
        return
    if visible and not srun_per_node:
        launch.procs_per_node, launch.procs_how = per_launcher, visible
        return
    launch.procs_per_node = per_launcher * (srun_per_node or 1)
    launch.procs_how = (f"{info.launcher} {per_launcher} process(es) x {srun_per_node} srun task(s) per node"
                        if srun_per_node and srun_per_node != 1 else f"{info.launcher} process count per node")
