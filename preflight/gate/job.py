"""What the gate knows about one submitted job, whatever the scheduler: the allocation
(nodes, GPUs per node, the GPU model) and the launch lines that start the training."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.adapters.launchers import LaunchInfo
from preflight.diagnostics import FileError, Finding
from preflight.gate.cluster import GpuChoice

# The longest command line the gate reads (bytes). Linux refuses to start a command whose
# arguments and environment exceed ARG_MAX (2 MiB) and one argument over MAX_ARG_STRLEN
# (128 KiB); real launch lines are a few hundred bytes. Reading a 5 MB line took the gate
# over 30 s (shlex tokenizes at ~30 us a token), past the plugin's timeout.
MAX_COMMAND_LINE = 128 * 1024


def too_long(size: int) -> str:
    return (f"a command line of {size:,} bytes, over the {MAX_COMMAND_LINE // 1024} KiB the gate reads; "
            "not read (put the arguments in a config file)")


@dataclass
class Launch:
    """A command that starts training processes: its line in the job file and what it says."""

    line: int
    text: str
    info: LaunchInfo
    procs_per_node: Optional[int] = None  # processes this launch starts on each node
    procs_how: str = ""
    plan_argv: Optional[list[str]] = None  # the command as it runs (scheduler-set flags added)
    cwd: Optional[str] = None  # after `cd DIR` earlier in the script (adapters.shell.LaunchLine.cwd)
    loop: Optional[Any] = None  # the shell loop around the line (adapters.shell.LaunchLine.loop)


@dataclass
class JobSpec:
    kind: str  # "slurm", "Pod", "Job", "PyTorchJob"
    path: str  # display path of the job file
    name: str = ""
    nodes: int = 1  # SLURM nodes, or pods
    gpus_per_node: Optional[int] = None  # None: cannot tell
    gpu_how: str = ""
    gpu_line: Optional[int] = None
    gpu_type_hint: Optional[str] = None
    tasks_per_node: Optional[int] = None  # SLURM tasks per node
    gpu: GpuChoice = field(default_factory=lambda: GpuChoice(None))
    node_labels: list[tuple[str, list[str]]] = field(default_factory=list)  # Kubernetes node selection
    launches: list[Launch] = field(default_factory=list)
    workdir: Optional[str] = None
    findings: list[Finding] = field(default_factory=list)  # job rules found while reading
    notes: list[str] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    rejections: list[str] = field(default_factory=list)  # "path:line: message": the job is refused
    slurm: Any = None  # the SlurmJob, for SLURM jobs
    manifest: Any = None  # the Kubernetes object (plain data)

    @property
    def launch(self) -> Optional[Launch]:
        """The launch the audit follows: the first one that names a script."""
        for item in self.launches:
            if item.info.script is not None:
                return item
        return self.launches[0] if self.launches else None

    def summary(self) -> dict[str, Any]:
        launch = self.launch
        return {
            "kind": self.kind,
            "path": self.path,
            "name": self.name,
            "nodes": self.nodes,
            "gpus_per_node": self.gpus_per_node,
            "gpus_from": self.gpu_how,
            "gpu": self.gpu.name,
            "gpu_from": self.gpu.how,
            "tasks_per_node": self.tasks_per_node,
            "launch": None if launch is None else {
                "line": launch.line, "command": launch.text, "launcher": launch.info.launcher,
                "wrapper": launch.info.wrapper, "script": launch.info.script,
                "procs_per_node": launch.procs_per_node,
            },
        }


def resolve_file(name: str, bases: Sequence[Path], given: Sequence[Path] = ()) -> Optional[Path]:
    """Find the file a job names: a file given on the command line with the same path or
    base name, else ``name`` under each base directory (absolute names too, re-rooted).

    A name that resolves outside every base directory (``../secret.py``, an absolute path
    elsewhere, a symbolic link out) is not read: the gate may run with more rights than the
    user who submits the job, and what it reads can show up in its messages.
    """
    for g in given:
        if os.path.normpath(str(g)) == os.path.normpath(name) or g.name == os.path.basename(name):
            return g
    roots = [os.path.realpath(b) for b in bases]

    def inside(candidate: Path) -> bool:
        real = os.path.realpath(candidate)
        return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

    candidates: list[Path] = []
    p = Path(name)
    if p.is_absolute():
        candidates.append(p)
    for base in bases:
        if p.is_absolute():
            candidates.append(base / str(p).lstrip("/"))
        else:
            candidates.append(base / p)
    for c in candidates:
        if os.path.isfile(c) and inside(c):
            return c
    return None


def outside_bases(name: str, bases: Sequence[Path]) -> bool:
    """``name`` names an existing file, but only outside every base directory."""
    p = Path(name)
    candidates = [p] if p.is_absolute() else [base / p for base in bases]
    return any(os.path.isfile(c) for c in candidates) and resolve_file(name, bases) is None
