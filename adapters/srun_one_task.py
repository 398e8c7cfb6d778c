"""``srun python train.py`` in a batch script whose ``#SBATCH`` directives ask for one task: one process.

srun inside an allocation, given no ``-n/--ntasks``, ``-N/--nodes`` or ``--ntasks-per-node`` of its own,
starts the allocation's tasks; sbatch gives a job one task when its directives set no task count and no
more than one node (``--ntasks`` defaults to 1, or one per node of ``--nodes``: the sbatch man page,
"-n, --ntasks ... The default is one task per node"). So a batch script such as

    #SBATCH --gres=gpu:a100:4
    srun python3 -u train.py

(anttitapsa/TCR_transformer @ 3228e9f ``code/run_train.sh:1-11``, whose script wraps its model in
``nn.DataParallel`` inside the one process) starts one Python process: ``dist.world_size`` 1,
``dist.nodes`` 1. The directives may sit in a heredoc piped to sbatch (``cat << EOF | sbatch`` ...
``EOF``: Ninjani/hackathon @ the set's commit ``sbatch_train.sh:8-24``); they are read from its body
(:func:`sbatch_heredoc`).

Not said (None): srun with a task or node count of its own (the launchers adapter reads those), a
directive naming a task count (``--ntasks``, ``--ntasks-per-node``, ``--ntasks-per-gpu``,
``--gpus-per-task``, ...) or more than one node, no ``#SBATCH`` directive at all (an srun typed under
``salloc`` takes whatever that allocation holds), a launch line inside a shell loop, and a launch script
that cannot be read. ``sbatch -n 4 job.sh`` on the command line would override the directives and is not
in the files: medium, never high.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

# srun's own task and node counts (the launch reader's spelling: a leading ``--`` becomes ``__``)
_SRUN_COUNTS = ("-n", "__ntasks", "__ntasks_per_node", "__ntasks_per_gpu", "__gpus_per_task",
                "__ntasks_per_socket", "__ntasks_per_core", "__multi_prog")
# directives that set the allocation's task count
_TASK_OPTIONS = ("ntasks", "ntasks-per-node", "ntasks-per-gpu", "gpus-per-task", "ntasks-per-socket",
                 "ntasks-per-core", "tasks-per-node")
_SBATCH_HEREDOC = re.compile(
    r"""^\s*(?:cat\s+<<-?\s*(['"]?)(\w+)\1\s*\|\s*sbatch\b.*|sbatch\b[^<|#]*<<-?\s*(['"]?)(\w+)\3.*)$""")


def sbatch_heredoc(text: str) -> Optional[tuple[int, str]]:
    """(first line number, body) of the one heredoc the script pipes to sbatch (``cat << EOF | sbatch``,
    ``sbatch <<EOF``), or None when there is none or more than one."""
    lines = text.splitlines()
    found: list[tuple[int, str]] = []
    k = 0
    while k < len(lines):
        m = _SBATCH_HEREDOC.match(lines[k])
        if m is None:
            k += 1
            continue
        delim = m.group(2) or m.group(4)
        end = next((j for j in range(k + 1, len(lines)) if lines[j].strip() == delim), None)
        if end is None:
            return None
        found.append((k + 2, "\n".join(lines[k + 1:end])))
        k = end + 1
    return found[0] if len(found) == 1 else None


def batch_text(text: str, line: Optional[int] = None) -> str:
    """The batch script sbatch reads: the script itself, or the body of the one heredoc it pipes to
    sbatch when the script's own directives are none and the launch ``line`` (when given) is inside it."""
    doc = sbatch_heredoc(text)
    if doc is None or re.search(r"(?m)^#SBATCH", "\n".join(text.splitlines()[:doc[0] - 2])):
        return text  # the script's own directives (before the heredoc) are the batch script's
    first, body = doc
    if line is not None and not first <= line < first + len(body.splitlines()):
        return text
    return body


def one_task(project: Any, info: Any) -> Optional[str]:
    """Why ``srun python ...`` starts one process, or None when that is not known (module docstring)."""
    if getattr(info, "wrapper", None) != "srun" or getattr(info, "launcher", None) not in (None, "python"):
        return None
    options = getattr(info, "wrapper_options", {}) or {}
    if any(flag in options for flag in _SRUN_COUNTS) or getattr(project, "launch_loop", None) is not None:
        return None
    # ``--nodes 1`` (given, or put on srun from the #SBATCH allocation by the shell reader) is one node
    if any(str(options[f]).strip() != "1" for f in ("-N", "__nodes") if f in options):
        return None
    got = _batch_job(project)
    if got is None:
        return None
    job, _text, heredoc = got
    at = project.launch_at
    directives = [o for o in job.options if o.origin == "directive"]
    if not directives or any(job.get(name) is not None for name in _TASK_OPTIONS):
        return None
    nodes = job.value("nodes")
    if nodes is not None and nodes.strip() != "1":
        return None
    where = "the heredoc piped to sbatch" if heredoc else "its #SBATCH directives"
    return (f"srun with no task or node count in {at[0]}, and {where} set no task count and "
            f"{'--nodes=1' if nodes is not None else 'no --nodes'}: the allocation's one task, one process")


def _batch_job(project: Any) -> Optional[tuple[Any, str, bool]]:
    """(the parsed batch job, the launch script's text, whether it came from a heredoc) of the launch
    script, or None when it cannot be read."""
    at = getattr(project, "launch_at", None)
    if at is None or getattr(project, "root", None) is None:
        return None
    from preflight.gate.slurm import parse_sbatch
    from preflight.sources import read_text_limited

    try:
        text = read_text_limited(Path(str(project.root)) / at[0], 1_000_000, errors="replace")
    except (OSError, ValueError):
        return None
    body = batch_text(text, at[1])
    job = parse_sbatch(body if body.startswith("#!") else "#!/bin/bash\n" + body, str(at[0]))
    return job, text, body is not text


def one_gpu(project: Any) -> Optional[str]:
    """Why the one process of ``srun python ...`` (one task, :func:`one_task`) or of ``python ...`` run
    in a batch script sees exactly one GPU: the directives ask for one (``--gres=gpu:1``,
    ``--gres=gpu:a100:1``, ``--gpus-per-node=1``, ``--gpus=1`` on one node) and the script does not set
    ``CUDA_VISIBLE_DEVICES`` (SLURM sets it to the GPUs the job was given). Only a count of one: a
    framework's ``devices="auto"`` then takes that one GPU (Lightning's ``CUDAAccelerator.auto_device_count``
    is the visible device count); a larger count under one task is checked against the task count by
    Lightning's SLURM environment and is not read here."""
    from preflight.adapters.launchers import parse_launch

    argv = getattr(project, "argv", None)
    if not argv:
        return None
    info = parse_launch(argv)
    if info.launcher not in (None, "python") or "CUDA_VISIBLE_DEVICES" in (getattr(info, "env", {}) or {}):
        return None
    if info.wrapper == "srun":
        options = getattr(info, "wrapper_options", {}) or {}
        if one_task(project, info) is None or any(
                f in options for f in ("__gres", "__gpus", "-G", "__gpus_per_node", "__gpus_per_task")):
            return None
    elif info.wrapper is not None or info.launcher != "python":
        return None
    got = _batch_job(project)
    if got is None:
        return None
    job, text, heredoc = got
    if "CUDA_VISIBLE_DEVICES" in text or not any(o.origin == "directive" for o in job.options):
        return None
    nodes, _ = job.nodes()
    req = job.gpus()
    if nodes != 1 or req.per_node != 1:
        return None
    where = "the heredoc piped to sbatch" if heredoc else "#SBATCH"
    return f"{where} {req.how} on one node: one GPU visible to the job's one process"


__all__ = ["batch_text", "one_gpu", "one_task", "sbatch_heredoc"]
