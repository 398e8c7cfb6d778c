"""Kubernetes manifests: Pod, batch/v1 Job and Kubeflow PyTorchJob.

From the pod template: the ``nvidia.com/gpu`` limit of the training container, the node
selection (``nodeSelector`` and required node affinity ``In`` terms, e.g.
``nvidia.com/gpu.product``), ``workingDir`` and the command (``command`` + ``args``).
A PyTorchJob runs one pod per replica (Master + Worker); each pod starts the container's
command, and torchrun inside it takes ``--nproc_per_node`` from ``PET_NPROC_PER_NODE``
(the training operator sets it from ``spec.nprocPerNode``) when the flag is not given.
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Optional

from preflight.adapters.launchers import parse_launch
from preflight.diagnostics import FileError
from preflight.gate.job import MAX_COMMAND_LINE, JobSpec, Launch, too_long
from preflight.gate.slurm import is_launch

GPU_RESOURCE = "nvidia.com/gpu"
KINDS = ("Pod", "Job", "PyTorchJob")
_DOC_SEP = re.compile(r"^---(\s.*)?$")
_SHELLS = ("sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/env")


def documents(text: str, display: str) -> list[tuple[Any, Any]]:
    """Each YAML document with its key->line map (lines of the whole file)."""
    from preflight.loaders import load_config_text

    lines = text.splitlines()
    starts = [0] + [i + 1 for i, line in enumerate(lines) if _DOC_SEP.match(line)]
    out = []
    for k, start in enumerate(starts):
        end = starts[k + 1] - 1 if k + 1 < len(starts) else len(lines)
        chunk = "\n" * start + "\n".join(lines[start:end])
        if not chunk.strip():
            continue
        loaded = load_config_text(chunk, "yaml", display)
        if isinstance(loaded, FileError):
            raise ValueError(loaded.render()) from None
        if loaded.data is not None:
            out.append((loaded.data, loaded))
    return out


def _map(value: Any) -> dict[str, Any]:
    """``value`` when it is a mapping; a manifest with another shape there reads as empty."""
    return value if isinstance(value, dict) else {}


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _count(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _pod_specs(obj: dict[str, Any]) -> list[tuple[tuple[Any, ...], dict[str, Any], int]]:
    """(key path of the pod spec, pod spec, replicas) for each pod template."""
    kind = obj.get("kind")
    spec = _map(obj.get("spec"))
    if kind == "Pod":
        return [(("spec",), spec, 1)]
    if kind == "Job":
        tmpl = _map(_map(spec.get("template")).get("spec"))
        par = _count(spec.get("parallelism"))
        return [(("spec", "template", "spec"), tmpl, par if par is not None else 1)]
    if kind == "PyTorchJob":
        out = []
        replicas = _map(spec.get("pytorchReplicaSpecs"))
        for role in sorted(replicas, key=lambda r: (r != "Master", str(r))):
            rs = _map(replicas[role])
            n = _count(rs.get("replicas"))
            tmpl = _map(_map(rs.get("template")).get("spec"))
            out.append((("spec", "pytorchReplicaSpecs", role, "template", "spec"), tmpl, n if n is not None else 1))
        return out
    return []


def _training_container(pod: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    containers = [c for c in _seq(pod.get("containers")) if isinstance(c, dict)]
    for i, c in enumerate(containers):
        if c.get("name") == "pytorch":  # the training operator's required name
            return i, c
    for i, c in enumerate(containers):
        if _gpu_limit(c) is not None:
            return i, c
    return (0, containers[0]) if containers else (-1, {})


def _gpu_limit(container: dict[str, Any]) -> Optional[int]:
    res = _map(container.get("resources"))
    for section in ("limits", "requests"):
        value = _map(res.get(section)).get(GPU_RESOURCE)
        if value is not None:
            return _count(value)
    return None


def _node_labels(pod: dict[str, Any]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for key, value in _map(pod.get("nodeSelector")).items():
        out.append((str(key), [str(value)]))
    required = _map(_map(_map(pod.get("affinity")).get("nodeAffinity"))
                    .get("requiredDuringSchedulingIgnoredDuringExecution"))
    for term in _seq(required.get("nodeSelectorTerms")):
        for expr in _seq(_map(term).get("matchExpressions")):
            if _map(expr).get("operator") == "In" and expr.get("key"):
                out.append((str(expr["key"]), [str(v) for v in _seq(expr.get("values"))]))
    return out


def _command(container: dict[str, Any]) -> list[str]:
    """The container's argv; ``sh -c "..."`` is unwrapped to the command it runs."""
    argv = [str(a) for a in _seq(container.get("command")) + _seq(container.get("args"))]
    if len(argv) >= 3 and argv[0] in _SHELLS and argv[1] in ("-c", "-lc", "-ec"):
        script = argv[2]
        for part in re.split(r"&&|;|\n", script):
            try:
                tokens = shlex.split(part)
            except ValueError:
                continue
            if tokens and is_launch(parse_launch(tokens)):
                return tokens
        return []
    return argv


def parse_manifest(text: str, display: str) -> JobSpec:
    """The first Pod, Job or PyTorchJob of a manifest file (other documents are noted)."""
    try:
        docs = documents(text, display)
    except ValueError as exc:
        job = JobSpec(kind="unknown", path=display)
        job.errors.append(FileError(display, str(exc)))
        return job
    found = [(d, loaded) for d, loaded in docs if isinstance(d, dict) and d.get("kind") in KINDS]
    if not found:
        kinds = sorted({str(d.get("kind")) for d, _ in docs if isinstance(d, dict)})
        job = JobSpec(kind="unknown", path=display)
        job.errors.append(FileError(display, f"no Pod, Job or PyTorchJob in the manifest (found: "
                                             f"{', '.join(kinds) or 'nothing'})", line=1))
        return job
    obj, loaded = found[0]
    job = job_from_object(obj, display, loaded.line_of)
    if len(found) > 1:
        job.notes.append(f"{display} holds {len(found)} workloads; the first ({obj.get('kind')}) was gated")
    return job


def job_from_object(obj: dict[str, Any], display: str, line_of: Any = None) -> JobSpec:
    def line(*key: Any) -> Optional[int]:
        return line_of(key, nearest=True) if line_of is not None else None

    kind = str(obj.get("kind"))
    job = JobSpec(kind=kind, path=display, name=str(_map(obj.get("metadata")).get("name") or ""), manifest=obj)
    pods = _pod_specs(obj)
    if not pods or not any(p for _, p, _ in pods):
        job.errors.append(FileError(display, f"{kind} has no pod template", line=line("spec")))
        return job
    job.nodes = sum(n for _, _, n in pods)
    key, pod, _ = next(((k, p, n) for k, p, n in pods if p), pods[0])
    index, container = _training_container(pod)
    ckey = (*key, "containers", index)
    gpus = _gpu_limit(container)
    job.gpus_per_node = gpus if gpus is not None else 0
    job.gpu_how = (f"resources.limits[{GPU_RESOURCE}] = {gpus} per pod" if gpus is not None
                   else f"no {GPU_RESOURCE} limit on container {container.get('name')!r}")
    job.gpu_line = line(*ckey, "resources") or line(*ckey)
    job.workdir = container.get("workingDir")
    job.gpu_type_hint = None
    job.node_labels = _node_labels(pod)
    for other_key, other, _ in pods:
        if other is pod or not other:
            continue
        _, oc = _training_container(other)
        og = _gpu_limit(oc)
        if og != gpus:
            job.notes.append(f"{'.'.join(map(str, other_key[:3]))}: {og} GPU(s) per pod, not {gpus} as in "
                             f"{'.'.join(map(str, key[:3]))}; the first was used")
    size = sum(len(str(a)) + 1 for a in _seq(container.get("command")) + _seq(container.get("args")))
    if size > MAX_COMMAND_LINE:
        cline = line(*ckey, "command") or line(*ckey, "args") or line(*ckey) or 1
        job.rejections.append(f"{display}:{cline}: {too_long(size)}")
        argv = []
    else:
        argv = _command(container)
    if argv:
        info = parse_launch(argv)
        cline = line(*ckey, "command") or line(*ckey, "args") or line(*ckey) or 1
        launch = Launch(int(cline), shlex.join(argv), info)
        _procs(job, launch, obj)
        launch.plan_argv = _operator_flags(job, argv, info, launch)
        job.launches.append(launch)
    else:
        job.notes.append(f"container {container.get('name')!r} has no command/args preflight can read "
                         "(the image's entrypoint runs)")
    return job


def _procs(job: JobSpec, launch: Launch, obj: dict[str, Any]) -> None:
    info = launch.info
    if info.launcher in ("torchrun", "torch.distributed.launch"):
        if info.procs_per_node is not None:
            launch.procs_per_node, launch.procs_how = info.procs_per_node, "torchrun --nproc_per_node"
            return
        nproc = _map(obj.get("spec")).get("nprocPerNode") if job.kind == "PyTorchJob" else None
        if _count(nproc) is not None:
            launch.procs_per_node = _count(nproc)
            launch.procs_how = f"spec.nprocPerNode {nproc} (PET_NPROC_PER_NODE read by torchrun)"
        elif "__nproc_per_node" not in info.options:
            launch.procs_per_node, launch.procs_how = 1, "torchrun default --nproc_per_node 1"
    elif info.launcher == "python":
        launch.procs_per_node, launch.procs_how = 1, "one python process per pod"
    elif info.launcher in ("accelerate", "deepspeed") and info.procs_per_node is not None:
        launch.procs_per_node, launch.procs_how = info.procs_per_node, f"{info.launcher} process count"


def _operator_flags(job: JobSpec, argv: list[str], info: Any, launch: Launch) -> list[str]:
    """A PyTorchJob's torchrun reads --nnodes / --nproc_per_node from PET_NNODES /
    PET_NPROC_PER_NODE, which the training operator sets; make them explicit for the plan."""
    if job.kind != "PyTorchJob" or info.launcher != "torchrun":
        return argv
    try:
        at = next(i for i, tok in enumerate(argv) if tok.rsplit("/", 1)[-1] == "torchrun"
                  or tok == "torch.distributed.run")
    except StopIteration:
        return argv
    added = []
    if "__nnodes" not in info.options and "__standalone" not in info.options:
        added.append(f"--nnodes={job.nodes}")
    if "__nproc_per_node" not in info.options and launch.procs_per_node is not None:
        added.append(f"--nproc_per_node={launch.procs_per_node}")
    return argv[:at + 1] + added + argv[at + 1:]
