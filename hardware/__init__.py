"""Hardware data: GPUs and cloud instances (installed as ``preflight.hardware``).

``gpus.json`` holds one entry per GPU model with the memory the driver reports (not the
advertised size) and where that figure comes from; ``instances.json`` holds cloud instance
types (GPU model, count, on-demand price).  See ``docs/catalogs.md``.

Nothing is read at import time: the JSON files are parsed on the first call.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

__all__ = ["GPU", "HardwareError", "Instance", "find", "gpus", "instances"]

_DIR = Path(__file__).resolve().parent
_GIB = 1 << 30


class HardwareError(RuntimeError):
    """A hardware data file that is not what the loader expects (a packaging or editing mistake)."""


@dataclass(frozen=True)
class GPU:
    name: str
    aliases: Tuple[str, ...]
    vendor: str
    memory_bytes: int          # what the driver reports as total (torch total_memory)
    advertised_gib: float
    bf16: bool
    fp8: bool
    source: str
    memory_source: str = ""    # "torch-listing" | "torch-oom" | "sibling" | "derived"
    memory_evidence: str = ""
    memory_type: str = ""
    note: str = ""

    @property
    def memory_gib(self) -> float:
        return self.memory_bytes / _GIB

    @property
    def measured(self) -> bool:
        """True when ``memory_bytes`` was read from a real device listing, not derived."""
        return self.memory_source in ("torch-listing", "torch-oom")


@dataclass(frozen=True)
class Instance:
    name: str
    provider: str
    gpu: GPU
    count: int
    hourly_usd: Optional[float]
    source: str
    aliases: Tuple[str, ...] = ()
    note: str = ""

    @property
    def memory_bytes(self) -> int:
        """GPU memory of the whole instance (count x per-GPU driver total)."""
        return self.gpu.memory_bytes * self.count


_LOCK = threading.Lock()
_DATA: Optional[Tuple[List[GPU], List[Instance], Dict[str, Union[GPU, Instance]]]] = None


def _key(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", "-").split())


def _read(name: str, field: str) -> Tuple[List[Dict[str, Any]], str]:
    path = _DIR / name
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        items = doc[field]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise HardwareError(f"{name}: not a hardware data file ({exc})") from exc
    if not isinstance(items, list):
        raise HardwareError(f"{name}: {field!r} must be a list")
    return items, name


def _load() -> Tuple[List[GPU], List[Instance], Dict[str, Union[GPU, Instance]]]:
    global _DATA
    with _LOCK:
        if _DATA is not None:
            return _DATA
        index: Dict[str, Union[GPU, Instance]] = {}

        def register(item: Union[GPU, Instance], labels: List[str], where: str) -> None:
            for label in labels:
                key = _key(label)
                if key in index and index[key] is not item:
                    raise HardwareError(
                        f"{where}: {label!r} names both {index[key].name!r} and {item.name!r}")
                index[key] = item

        gpu_items, where = _read("gpus.json", "gpus")
        by_name: Dict[str, GPU] = {}
        gpu_list: List[GPU] = []
        for raw in gpu_items:
            try:
                gpu = GPU(name=raw["name"], aliases=tuple(raw.get("aliases", ())),
                          vendor=raw["vendor"], memory_bytes=int(raw["memory_bytes"]),
                          advertised_gib=float(raw["advertised_gib"]), bf16=bool(raw["bf16"]),
                          fp8=bool(raw["fp8"]), source=raw.get("source", ""),
                          memory_source=raw.get("memory_source", ""),
                          memory_evidence=raw.get("memory_evidence", ""),
                          memory_type=raw.get("memory_type", ""), note=raw.get("note", ""))
            except (KeyError, TypeError, ValueError) as exc:
                raise HardwareError(f"{where}: bad GPU entry {raw.get('name')!r} ({exc})") from exc
            gpu_list.append(gpu)
            by_name[gpu.name] = gpu
            register(gpu, [gpu.name, *gpu.aliases], where)
        inst_items, where = _read("instances.json", "instances")
        inst_list: List[Instance] = []
        for raw in inst_items:
            model = by_name.get(raw.get("gpu", ""))
            if model is None:
                raise HardwareError(f"{where}: {raw.get('name')!r} names unknown GPU {raw.get('gpu')!r}")
            price = raw.get("hourly_usd")
            inst = Instance(name=raw["name"], provider=raw["provider"], gpu=model,
                            count=int(raw["count"]),
                            hourly_usd=float(price) if price is not None else None,
                            source=raw.get("price_source", ""),
                            aliases=tuple(raw.get("aliases", ())), note=raw.get("note", ""))
            inst_list.append(inst)
            register(inst, [inst.name, *inst.aliases], where)
        _DATA = (gpu_list, inst_list, index)
        return _DATA


def gpus() -> List[GPU]:
    """Every GPU in the catalog, in file order (vendor, then name)."""
    return list(_load()[0])


def instances() -> List[Instance]:
    """Every cloud instance type in the catalog, in file order (provider, then name)."""
    return list(_load()[1])


_COUNT_RE = re.compile(r"^(?P<count>\d{1,4})\s*[x\u00d7*]\s*(?P<gpu>\S.*)$", re.IGNORECASE)


def _find_gpu(key: str, gpu_list: List[GPU],
              index: Dict[str, Union[GPU, Instance]]) -> Union[GPU, Instance, None]:
    # as written, then with spaces as dashes ("RTX 4090", "RTX A4000", "Quadro RTX 6000")
    for k in dict.fromkeys((key, key.replace(" ", "-"))):
        found = index.get(k)
        if found is not None:
            return found
        stems = [g for g in gpu_list if _key(g.name).rsplit("-", 1)[0] == k]
        if len(stems) == 1:
            return stems[0]
    return None


def find(name: str) -> Union[GPU, Instance, None]:
    """A GPU or instance by name or alias, case-insensitive ("a100-80gb", "H100", "p4d.24xlarge").

    ``_``, ``-`` and spaces are interchangeable, and a GPU name may omit its memory suffix
    ("rtx-4090" finds "RTX-4090-24GB") when that is unambiguous.  ``8xH100`` (or ``8 x h100``)
    is an ad-hoc machine: an :class:`Instance` of provider "custom" with that many GPUs and no
    price.
    """
    if not isinstance(name, str) or not name.strip():
        return None
    gpu_list, _, index = _load()
    found = _find_gpu(_key(name), gpu_list, index)
    if found is not None:
        return found
    m = _COUNT_RE.match(name.strip())
    if m is None or int(m.group("count")) < 1:
        return None
    gpu = _find_gpu(_key(m.group("gpu")), gpu_list, index)
    if not isinstance(gpu, GPU):
        return None
    count = int(m.group("count"))
    return Instance(name=f"{count}x {gpu.name}", provider="custom", gpu=gpu, count=count,
                    hourly_usd=None, source=f"{count} x {gpu.name} as given ({name.strip()!r})")


def suggest(name: str, n: int = 3) -> List[str]:
    """Catalog names close to ``name`` (a typo: ``rtx4900`` -> ``rtx4090``), best first, spelt
    as the catalog spells them (a GPU's alias or an instance's name)."""
    import difflib

    if not isinstance(name, str) or not name.strip():
        return []
    _, _, index = _load()
    m = _COUNT_RE.match(name.strip())
    prefix = f"{m.group('count')}x" if m else ""
    key = _key(m.group("gpu") if m else name)
    spelt: Dict[str, str] = {}
    for item in {id(v): v for v in index.values()}.values():
        labels = [item.name, *item.aliases]
        for label in labels:
            spelt.setdefault(_key(label), label)
    close = difflib.get_close_matches(key, list(spelt), n=4 * n, cutoff=0.6)
    out: List[str] = []
    seen: List[int] = []
    for k in close:
        item = index[k]
        if id(item) in seen or (prefix and not isinstance(item, GPU)):
            continue
        seen.append(id(item))
        out.append(f"{prefix}{spelt[k]}")
    return out[:n]


def unknown_message(name: str) -> str:
    """The one line for a GPU or instance name the catalog lacks, with close names."""
    close = suggest(name)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    return f"unknown GPU or instance {name!r}{hint}; see 'preflight gpus --instances'"
