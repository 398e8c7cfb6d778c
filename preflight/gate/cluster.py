"""The cluster description file: which GPU a job lands on, and the admission policy.

A YAML (or JSON/TOML) file, for example::

    partitions:            # SLURM partition -> GPU model (a name of `preflight gpus`)
      a100: a100-80gb
      h100: {gpu: h100-sxm, usable_memory: 0.9}
    gres_types:            # the type of --gres=gpu:TYPE:N / --gpus-per-node=TYPE:N
      a100: a100-80gb
    constraints:           # node features (--constraint)
      h100: h100-sxm
    node_labels:           # Kubernetes node labels (nodeSelector / required node affinity)
      nvidia.com/gpu.product:
        NVIDIA-A100-SXM4-80GB: a100-80gb
    default_gpu: a100-80gb # when nothing above matches (omit: unknown)
    policy:
      usable_memory: 0.95  # plan at most 95% of the GPU's memory
      allow_unknown: false # a job whose fit cannot be estimated is rejected
      reject: [oom, likely-oom]
      fail_on: error       # lowest finding severity that rejects: error, warning, note, never
      on_failure: reject   # when the gate itself fails (crash, timeout): reject (default) or admit
    contact: "#hpc-help or hpc-admins@example.com"  # named in a gate-failure message

GPU names are looked up in the hardware catalog (``preflight.hardware.find``), aliases
included; a name it does not know is an error with the file and line.
The most specific evidence wins: the gres/gpus type, then the constraint, then the
partition, then ``default_gpu``.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from preflight.diagnostics import FileError

VERDICTS = ("fits", "tight", "likely-oom", "oom", "unknown")
SEVERITIES = ("error", "warning", "note", "never")
_TOP_KEYS = {"partitions", "gres_types", "constraints", "node_labels", "default_gpu", "policy", "version", "contact"}
_POLICY_KEYS = {"usable_memory", "allow_unknown", "reject", "fail_on", "on_failure"}
ON_FAILURE = ("reject", "admit")  # like Kubernetes' failurePolicy: Fail | Ignore


@dataclass
class Policy:
    usable_memory: float = 1.0
    allow_unknown: bool = False
    reject: tuple[str, ...] = ("oom", "likely-oom")
    fail_on: str = "error"
    on_failure: str = "reject"  # the gate itself failed (crash, timeout, unreadable input): reject | admit
    source: str = "built-in default"


@dataclass
class GpuChoice:
    """The GPU model a job is expected to land on, and why."""

    name: Optional[str]  # catalog name as written in the cluster file or job
    gpu: Any = None  # preflight.hardware.GPU when the catalog knows it
    how: str = ""
    usable_memory: Optional[float] = None  # a per-partition override of the policy


@dataclass
class Cluster:
    path: Optional[str] = None
    partitions: dict[str, tuple[str, Optional[float], int]] = field(default_factory=dict)
    gres_types: dict[str, tuple[str, int]] = field(default_factory=dict)
    constraints: dict[str, tuple[str, int]] = field(default_factory=dict)
    node_labels: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)
    default_gpu: Optional[tuple[str, int]] = None
    policy: Policy = field(default_factory=Policy)
    contact: str = ""  # whom users ask when the gate fails (named in failure messages)

    def whom(self) -> str:
        return self.contact or "the cluster's administrators"

    # -- lookups -------------------------------------------------------------
    def _where(self, line: int) -> str:
        return f"{self.path}:{line}" if self.path else "the cluster file"

    def for_slurm(self, gres_type: Optional[str], constraint: Optional[str],
                  partition: Optional[str]) -> GpuChoice:
        if gres_type:
            hit = self.gres_types.get(gres_type)
            if hit is not None:
                return _choice(hit[0], f"GPU type {gres_type} -> {hit[0]} ({self._where(hit[1])})")
            direct = find_gpu(gres_type)
            if direct is not None:
                return GpuChoice(gres_type, direct, f"GPU type {gres_type} (hardware catalog)")
        if constraint:
            for feature in _features(constraint):
                hit = self.constraints.get(feature)
                if hit is not None:
                    return _choice(hit[0], f"constraint {feature} -> {hit[0]} ({self._where(hit[1])})")
        if partition:
            for part in partition.split(","):
                got = self.partitions.get(part.strip())
                if got is not None:
                    gpu, usable, line = got
                    choice = _choice(gpu, f"partition {part.strip()} -> {gpu} ({self._where(line)})")
                    choice.usable_memory = usable
                    return choice
        return self._default(f"gres type {gres_type or '-'}, constraint {constraint or '-'}, "
                             f"partition {partition or '(default)'}")

    def for_labels(self, candidates: Sequence[tuple[str, Sequence[str]]]) -> GpuChoice:
        """``candidates``: (label key, values the pod may land on). With several values, the
        GPU with the least memory is chosen (the job must fit wherever it lands)."""
        choices: list[GpuChoice] = []
        for key, values in candidates:
            table = self.node_labels.get(key, {})
            for value in values:
                hit = table.get(value)
                if hit is not None:
                    choices.append(_choice(hit[0], f"node label {key}={value} -> {hit[0]} "
                                                   f"({self._where(hit[1])})"))
                    continue
                direct = find_gpu(value)
                if direct is not None:
                    choices.append(GpuChoice(value, direct, f"node label {key}={value} (hardware catalog)"))
        if choices:
            known = [c for c in choices if c.gpu is not None]
            if known:
                return min(known, key=lambda c: int(getattr(c.gpu, "memory_bytes", 0) or 0))
            return choices[0]
        shown = ", ".join(f"{k} in {list(v)}" for k, v in candidates) or "no GPU node label"
        return self._default(shown)

    def _default(self, what: str) -> GpuChoice:
        if self.default_gpu is not None:
            return _choice(self.default_gpu[0], f"default_gpu {self.default_gpu[0]} "
                                                f"({self._where(self.default_gpu[1])}); nothing matched {what}")
        where = f" in {self.path}" if self.path else " (no --cluster file given)"
        return GpuChoice(None, None, f"no GPU model for {what}{where}")


def _features(constraint: str) -> list[str]:
    out = []
    for part in constraint.replace("|", "&").replace(",", "&").split("&"):
        part = part.strip().strip("[]()")
        part = part.split("*", 1)[0]
        if part:
            out.append(part)
    return out


def find_gpu(name: str) -> Any:
    """The catalog GPU for ``name`` (an Instance gives its GPU), or None."""
    try:
        from preflight.hardware import find
    except ImportError:
        return None
    try:
        hit = find(name)
    except Exception:
        return None
    if hit is None:
        return None
    return getattr(hit, "gpu", hit) if not hasattr(hit, "memory_bytes") else hit


def check_gpu_flag(name: Optional[str]) -> None:
    """``--gpu NAME`` of ``gate``/``sbatch``: a name the catalog lacks is a usage error (exit
    2) with the closest names, as in ``audit``, ``estimate`` and ``fit``."""
    if name and find_gpu(name) is None:
        from preflight.cli import UsageError

        raise UsageError(f"--gpu: {name!r} is not a GPU of the hardware catalog"
                         f"{_did_you_mean(name)} (see `preflight gpus`)")


def _did_you_mean(name: str) -> str:
    try:
        from preflight.hardware import suggest
    except ImportError:
        return ""
    close = suggest(name)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def _choice(name: str, how: str) -> GpuChoice:
    return GpuChoice(name, find_gpu(name), how)


# --------------------------------------------------------------------------- loading


class ClusterError(Exception):
    def __init__(self, error: FileError) -> None:
        super().__init__(error.render())
        self.error = error


def load_cluster(path: Union[str, Path], display: Optional[str] = None) -> Cluster:
    """Read and check a cluster file; raises :class:`ClusterError` (file and line) on bad input."""
    from preflight.loaders import load_config
    from preflight.sources import kind_of, read_source

    p = Path(path)
    shown = display or str(path)
    if not os.path.lexists(p):  # anything else (a FIFO, a device, a directory) read_source refuses by name
        raise ClusterError(FileError(shown, "no such cluster file"))
    kind = kind_of(p)
    if kind not in ("yaml", "json", "toml"):
        raise ClusterError(FileError(shown, "a cluster file is YAML, JSON or TOML"))
    source = read_source(p, shown, kind)
    if isinstance(source, FileError):
        raise ClusterError(source)
    loaded = load_config(source)
    if isinstance(loaded, FileError):
        raise ClusterError(loaded)
    if loaded.data is None or (loaded.data == {} and not source.text.strip()):
        # an empty file (a truncated copy, a failed template) would gate with the defaults
        raise ClusterError(FileError(shown, "the cluster file is empty (expected partitions, gres_types, "
                                            "constraints, node_labels, default_gpu, policy)", line=1))
    for note in loaded.notes:
        # a key given twice: the admin meant one of the two, and the loader keeps the later
        dup = _DUPLICATE.match(note)
        if dup is not None:
            raise ClusterError(FileError(shown, f"duplicate key {dup.group(2)} (also at line {dup.group(3)}); "
                                                "give each key once", line=int(dup.group(1))))
    if kind == "json":
        _json_duplicates(source.text, shown)
    return cluster_from_data(loaded.data, shown, loaded.line_of)


def _json_duplicates(text: str, shown: str) -> None:
    """JSON objects keep the last of a repeated key without a word: refuse it, located."""
    import json

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                marks = [m.start() for m in re.finditer(re.escape(json.dumps(key)) + r"\s*:", text)]
                lines = [text.count("\n", 0, m) + 1 for m in marks]
                where = f" (also at line {lines[0]})" if len(lines) > 1 else ""
                raise ClusterError(FileError(shown, f"duplicate key {key!r}{where}; give each key once",
                                             line=lines[-1] if lines else 1))
            seen.add(key)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)


_DUPLICATE = re.compile(r"^.*:(\d+): duplicate key (.+) \(also at line (\d+)\)")


def cluster_from_data(data: Any, display: str = "<cluster>", line_of: Any = None) -> Cluster:
    def line(*key: Any) -> int:
        got = line_of(key, nearest=True) if line_of is not None else None
        return int(got or 1)

    def fail(message: str, *key: Any) -> ClusterError:
        return ClusterError(FileError(display, message, line=line(*key)))

    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise fail("the cluster file must be a mapping (partitions, gres_types, constraints, node_labels, "
                   "default_gpu, policy)")
    unknown = sorted(set(map(str, data)) - _TOP_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (expected one of {', '.join(sorted(_TOP_KEYS))})", unknown[0])
    cluster = Cluster(path=display)

    def gpu_name(value: Any, *key: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise fail(f"{'.'.join(map(str, key))}: expected a GPU name, got {value!r}", *key)
        if find_gpu(value) is None:
            raise fail(f"{'.'.join(map(str, key))}: {value!r} is not a GPU of the hardware catalog"
                       f"{_did_you_mean(value)} (see `preflight gpus`)", *key)
        return value.strip()

    for section in ("gres_types", "constraints"):
        table = data.get(section) or {}
        if not isinstance(table, dict):
            raise fail(f"{section} must map names to GPU models", section)
        out = {str(k): (gpu_name(v, section, k), line(section, k)) for k, v in table.items()}
        setattr(cluster, section, out)
    parts = data.get("partitions") or {}
    if not isinstance(parts, dict):
        raise fail("partitions must map partition names to GPU models", "partitions")
    for name, value in parts.items():
        usable = None
        if isinstance(value, dict):
            extra = sorted(set(map(str, value)) - {"gpu", "usable_memory"})
            if extra:
                raise fail(f"partitions.{name}: unknown key {extra[0]!r} (gpu, usable_memory)", "partitions", name)
            usable = _fraction(value.get("usable_memory"), fail, "partitions", name, "usable_memory")
            value = value.get("gpu")
        cluster.partitions[str(name)] = (gpu_name(value, "partitions", name), usable, line("partitions", name))
    labels = data.get("node_labels") or {}
    if not isinstance(labels, dict) or not all(isinstance(v, dict) for v in labels.values()):
        raise fail("node_labels must map a label key to {label value: GPU model}", "node_labels")
    for key, table in labels.items():
        cluster.node_labels[str(key)] = {str(v): (gpu_name(g, "node_labels", key, v), line("node_labels", key, v))
                                         for v, g in table.items()}
    if data.get("default_gpu") is not None:
        cluster.default_gpu = (gpu_name(data["default_gpu"], "default_gpu"), line("default_gpu"))
    cluster.policy = _policy(data.get("policy"), fail, display)
    contact = data.get("contact")
    if contact is not None:
        if not isinstance(contact, str) or not contact.strip() or any(c in contact for c in "\n\r\0"):
            raise fail("contact: expected one line of text (a channel, an address)", "contact")
        cluster.contact = contact.strip()
    return cluster


def _fraction(value: Any, fail: Any, *key: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().endswith("%"):
        with contextlib.suppress(ValueError):
            value = float(value.strip()[:-1]) / 100
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < float(value) <= 1:
        raise fail(f"{'.'.join(map(str, key))}: expected a fraction in (0, 1] or a percentage, got {value!r}", *key)
    return float(value)


def _policy(raw: Any, fail: Any, display: str) -> Policy:
    policy = Policy(source=display)
    if raw is None:
        return policy
    if not isinstance(raw, dict):
        raise fail("policy must be a mapping", "policy")
    extra = sorted(set(map(str, raw)) - _POLICY_KEYS)
    if extra:
        raise fail(f"policy: unknown key {extra[0]!r} (expected one of {', '.join(sorted(_POLICY_KEYS))})",
                   "policy", extra[0])
    usable = _fraction(raw.get("usable_memory"), fail, "policy", "usable_memory")
    if usable is not None:
        policy.usable_memory = usable
    if "allow_unknown" in raw:
        if not isinstance(raw["allow_unknown"], bool):
            raise fail("policy.allow_unknown: expected true or false", "policy", "allow_unknown")
        policy.allow_unknown = raw["allow_unknown"]
    if "reject" in raw:
        rej = raw["reject"]
        if not isinstance(rej, list) or any(v not in VERDICTS for v in rej):
            raise fail(f"policy.reject: expected a list of {', '.join(VERDICTS)}", "policy", "reject")
        policy.reject = tuple(rej)
    if "fail_on" in raw:
        if raw["fail_on"] not in SEVERITIES:
            raise fail(f"policy.fail_on: expected one of {', '.join(SEVERITIES)}", "policy", "fail_on")
        policy.fail_on = raw["fail_on"]
    if "on_failure" in raw:
        if raw["on_failure"] not in ON_FAILURE:
            raise fail(f"policy.on_failure: expected one of {', '.join(ON_FAILURE)}", "policy", "on_failure")
        policy.on_failure = raw["on_failure"]
    return policy
