"""PF1041 concurrent-launches-share-rendezvous-port: a launch script starts two distributed launches
(``torchrun``, ``python -m torch.distributed.launch``, ``deepspeed``, ``accelerate launch --multi_gpu``) in the
background on the same machine at once, both on the same rendezvous port (the launchers' default 29500): the
second one cannot bind it and fails with "Address already in use"."""

from __future__ import annotations

import re
import shlex
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_batch_scripts import job_shell_scripts

_DEFAULT_PORT = "29500"
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# commands that run the launch elsewhere (another node, a scheduler, a container): no shared local port
_REMOTE = frozenset({"ssh", "srun", "pdsh", "mpirun", "mpiexec", "sbatch", "qsub", "bsub", "docker", "kubectl",
                     "salloc", "clush", "parallel"})
_WRAPPERS = frozenset({"nohup", "env", "exec", "time", "stdbuf", "setsid", "numactl", "taskset", "uv", "run",
                       "poetry", "pipenv", "conda"})


class _Launch:
    def __init__(self, line: int, launcher: str, port: Optional[str]) -> None:
        self.line, self.launcher, self.port = line, launcher, port


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(last line number, text) of each command line, ``\\`` continuations joined (the line that ends
    with the ``&``), comment lines dropped."""
    out: list[tuple[int, str]] = []
    pending: Optional[tuple[int, str]] = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if pending is None and line.lstrip().startswith("#"):
            continue
        if pending is not None:
            pending = (number, pending[1] + " " + line.strip())
        else:
            pending = (number, line.strip())
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1])
            continue
        out.append(pending)
        pending = None
    if pending is not None:
        out.append(pending)
    return out


def _words(command: str) -> Optional[list[str]]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return None


def _option(words: list[str], *names: str) -> Optional[str]:
    for i, w in enumerate(words):
        for name in names:
            if w == name and i + 1 < len(words):
                return words[i + 1]
            if w.startswith(name + "="):
                return w.split("=", 1)[1]
    return None


def _launch(words: list[str]) -> Optional[tuple[str, Optional[str], list[str]]]:
    """(launcher, port text or None when the launcher picks a free one, launcher words) of a distributed
    launch; None when the words start no local multi-process launch."""
    i = 0
    while i < len(words) and (_ASSIGN.match(words[i]) or words[i] in _WRAPPERS):
        i += 1
    if i >= len(words) or words[i] in _REMOTE:
        return None
    prog = words[i].rsplit("/", 1)[-1]
    rest = words[i + 1:]
    if prog in ("python", "python3") and len(rest) >= 2 and rest[0] == "-m" \
            and rest[1] in ("torch.distributed.launch", "torch.distributed.run"):
        prog, rest = "torchrun", rest[2:]
    script = next((k for k, w in enumerate(rest) if w.endswith(".py")), len(rest))
    opts = rest[:script]
    if prog == "torchrun":
        if "--standalone" in opts:
            return None  # a free port of its own
        nnodes = _option(opts, "--nnodes")
        if nnodes is not None and nnodes not in ("1", "1:1"):
            return None
        endpoint = _option(opts, "--rdzv_endpoint", "--rdzv-endpoint")
        port = endpoint.rsplit(":", 1)[1] if endpoint and ":" in endpoint else _option(
            opts, "--master_port", "--master-port")
        return "torchrun", port or _DEFAULT_PORT, opts
    if prog == "deepspeed":
        if _option(opts, "--hostfile", "-H") is not None:
            return None
        nnodes = _option(opts, "--num_nodes")
        if nnodes is not None and nnodes != "1":
            return None
        return "deepspeed", _option(opts, "--master_port") or _DEFAULT_PORT, opts
    if prog == "accelerate" and rest[:1] == ["launch"]:
        opts = opts[1:]
        procs = _option(opts, "--num_processes")
        multi = "--multi_gpu" in opts or "--use_deepspeed" in opts or "--use_fsdp" in opts \
            or (procs is not None and procs.isdigit() and int(procs) > 1)
        if not multi or _option(opts, "--config_file") is not None:
            return None  # one process (no rendezvous), or the port may come from the config file
        machines = _option(opts, "--num_machines")
        if machines is not None and machines != "1":
            return None
        return "accelerate launch", _option(opts, "--main_process_port") or _DEFAULT_PORT, opts
    return None


def _concurrent_pairs(text: str) -> Iterable[tuple[_Launch, _Launch]]:
    """(earlier, later) background launches on one port that run at the same time."""
    running: list[_Launch] = []
    loop_depth = 0
    loop_start: list[int] = []
    lines = _logical_lines(text)
    for index, (number, command) in enumerate(lines):
        words = _words(command)
        if not words:
            continue
        head = words[0]
        if head in ("for", "while", "until"):
            loop_depth += 1
            loop_start.append(index)
        if head == "done" or command.startswith("done"):
            loop_depth = max(loop_depth - 1, 0)
            if loop_start:
                loop_start.pop()
            continue
        if head == "wait" or (head == "sleep" and loop_depth):
            running = []
            continue
        background = words[-1] == "&" or (words[-1].endswith("&") and not words[-1].endswith(("&&", ">&")))
        if head == "do":
            words = words[1:]
        found = _launch(words)
        if found is None or not background:
            continue
        launcher, port, _opts = found
        if port is None or "$" in port:
            continue  # a port computed per run ($RANDOM, $((29500 + i)), a variable)
        start = _Launch(number, launcher, port)
        if loop_depth and not _loop_waits(lines, loop_start[-1] if loop_start else index, index):
            yield start, start  # the loop starts it again while it still runs
            continue
        for earlier in running:
            if earlier.port == port:
                yield earlier, start
                break
        running.append(start)


def _loop_waits(lines: list[tuple[int, str]], first: int, at: int) -> bool:
    """A ``wait`` or ``sleep`` inside the loop body after the start at ``at`` (before its ``done``): the loop
    waits for each run, or spaces the starts; also True when the loop head has a single item."""
    head = _words(lines[first][1]) or []
    if head[:1] == ["for"] and "in" in head:
        items: list[str] = []
        for w in head[head.index("in") + 1:]:
            if w in (";", "do"):
                break
            items.append(w.rstrip(";"))
            if w.endswith(";"):
                break
        if len(items) == 1 and not any(c in items[0] for c in "${*`("):
            return True
    for _number, command in lines[at + 1:]:
        words = _words(command) or []
        if not words:
            continue
        if words[0] in ("done",) or command.startswith("done"):
            return False
        if words[0] in ("wait", "sleep"):
            return True
    return False


@register
class ConcurrentLaunchesShareRendezvousPort(PlanRule):
    code = "PF1041"
    name = "concurrent-launches-share-rendezvous-port"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("torch", "accelerate", "deepspeed", "lightning", "transformers")
    summary = ("A launch script starts two distributed launches in the background at once on one machine, both on "
               "the same rendezvous port (29500 by default): the second fails with \"Address already in use\"")
    explanation = """
## What it finds

A shell script of the job that starts a distributed launch in the background (`... &`) while
another one it started in the background is still running (no `wait` between them), or starts
one in the background inside a loop that does not wait, where both rendezvous on the same port
of the same machine: `torchrun` / `python -m torch.distributed.launch` / `torch.distributed.run`
(`--master_port`, `--rdzv_endpoint`, default 29500), `deepspeed` (`--master_port`, default
29500) and `accelerate launch --multi_gpu` / `--num_processes N>1` (`--main_process_port`,
default 29500). Typically two experiments on one 8-GPU box: `CUDA_VISIBLE_DEVICES=0,1,2,3
torchrun ... &` and `CUDA_VISIBLE_DEVICES=4,5,6,7 torchrun ... &`.

## Why it matters

Each launch starts its rendezvous store on the master port of the machine. The first binds it;
the second cannot, and its processes stop at `init_process_group` with "RuntimeError: Address
already in use" / "The server socket has failed to bind to 0.0.0.0:29500 (errno: 98)", after
the time spent loading data and models, and often unnoticed in a background log while only one
of the planned experiments trains (pytorch issues 73320 and 85604; facebookresearch/XLM
issue 53; OpenNMT/OpenNMT-py issue 1298; Lightning-AI issue 401 for Lightning's own DDP).

## How to fix it

Give each concurrent launch its own port (`--master_port 29501`, `--main_process_port 29501`),
use `torchrun --standalone` (it picks a free port), or run the launches one after another
(`wait` between them).

## When preflight stays silent

* The launches have different ports, a port computed per run (`$RANDOM`, `$((29500 + i))`,
  a shell variable), or `torchrun --standalone`.
* A `wait` (or a `sleep` in the loop) separates them, or only one runs in the background.
* The launch runs on another host or through a scheduler (`ssh`, `srun`, `mpirun`, `sbatch`),
  spans several nodes (`--nnodes 2`, a DeepSpeed `--hostfile`), or is an `accelerate launch`
  with a `--config_file` (the port may be set there) or with one process (no rendezvous).
"""
    bad_examples = examples("preflight.rules.plan._pf1041_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf1041_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for display, text in job_shell_scripts(pctx):
            if "&" not in text:
                continue
            for earlier, later in _concurrent_pairs(text):
                if earlier is later:
                    where = "again on every pass of the loop without waiting for the previous run"
                else:
                    where = f"while the one started at line {earlier.line} still runs"
                yield pctx.location_finding(
                    self, display, later.line,
                    f"`{later.launcher}` starts here in the background {where}, both on port {later.port} of this "
                    "machine (the launcher's default when no port is given): the first run binds the rendezvous "
                    "port and the second stops at init_process_group with \"Address already in use\", so only "
                    "one of the runs trains; give each launch its own `--master_port` (`--main_process_port` for "
                    "accelerate), use `torchrun --standalone`, or `wait` between them")
