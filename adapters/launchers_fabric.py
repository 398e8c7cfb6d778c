"""Lightning Fabric's launcher, ``fabric run [options] SCRIPT [script args]`` (also
``lightning run model``): its options may follow the script (click parses them anywhere;
unknown ones are the script's). ``--devices`` (per node, default 1) x ``--num-nodes`` processes;
``--strategy`` (auto: DDP when there are several); ``--precision`` (default ``32-true`` unless the
script's ``Fabric(precision=...)`` says otherwise: lightning/fabric/connector.py).

The script's own ``Fabric(strategy=...)`` wins over the launcher's ``auto`` (TinyLlama
``pretrain/tinyllama.py``: ``strategy = FSDPStrategy(...)`` under ``if devices > 1:``, then
``L.Fabric(strategy=strategy)``): the strategy objects bound to the name, less those under a
guard decided false and TPU-only ones (the target is a GPU), decide it when one is left; its
confidence is medium when its guards are decided, low when not."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.plan import Source, TrainingPlan

_VALUED = {"--accelerator", "--strategy", "--devices", "--num-nodes", "--num_nodes", "--node-rank", "--node_rank",
           "--main-address", "--main_address", "--main-port", "--main_port", "--precision"}
PRECISION = {"32-true": "fp32", "32": "fp32", "64-true": "fp32", "64": "fp32", "bf16-mixed": "amp_bf16",
             "bf16": "amp_bf16", "16-mixed": "amp_fp16", "16": "amp_fp16", "bf16-true": "bf16", "16-true": "fp16",
             "transformer-engine": "fp8"}


def is_fabric(tokens: list[str], i: int) -> int:
    """Index after ``fabric run`` / ``lightning run model`` at ``i``, else -1."""
    import os

    head = os.path.basename(tokens[i])
    if head == "fabric" and tokens[i + 1:i + 2] == ["run"]:
        return i + 2
    if head == "lightning" and tokens[i + 1:i + 3] == ["run", "model"]:
        return i + 3
    return -1


def parse_fabric(info: Any, tokens: list[str], i: int) -> None:
    info.launcher = "fabric"
    rest: list[str] = []
    while i < len(tokens):
        tok = tokens[i]
        name, eq, value = tok.partition("=")
        if name in _VALUED:
            if not eq and i + 1 < len(tokens):
                value = tokens[i + 1]
                i += 1
            info.options[name.replace("-", "_")] = value
        elif info.script is None and not tok.startswith("-"):
            info.script = tok
        else:
            rest.append(tok)
        i += 1
    info.script_args = rest
    devices = info.options.get("__devices", "1")
    nodes = info.options.get("__num_nodes", "1")
    if devices.isdigit() and nodes.isdigit() and info.options.get("__accelerator", "gpu") not in ("cpu",):
        info.procs_per_node, info.nodes = int(devices), int(nodes)
        info.total_procs = int(devices) * int(nodes)
    info.mixed_precision = info.options.get("__precision")


def _fabric_precision_in_code(project: Any) -> Optional[int]:
    """Line of a ``Fabric(..., precision=...)`` in the scripts, else None."""
    for script in project.scripts:
        for site in project.index(script).calls:
            if (site.last == "Fabric" or (site.name or "").endswith("Fabric")) and site.kwarg("precision") is not None:
                return site.line
    return None


_FSDP_MODES = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
               "NO_SHARD": "ddp"}
_TPU_ONLY = ("XLAStrategy", "XLAFSDPStrategy")


def _strategy_candidates(idx: Any, expr: ast.AST) -> list[tuple[Any, Optional[bool]]]:
    """(call or constant, whether it runs) for each value ``expr`` may hold."""
    if isinstance(expr, ast.Name):
        values = [v for v in idx.assigns.get(expr.id, []) if v is not None]
        if len(values) != len(idx.assigns.get(expr.id, [])):
            return []  # also bound some other way (a parameter): unknown
    else:
        values = [expr]
    out: list[tuple[Any, Optional[bool]]] = []
    for value in values:
        site = next((c for c in idx.calls if c.call is value), None) if isinstance(value, ast.Call) else None
        if isinstance(value, ast.Call) and site is None:
            return []
        runs = idx.runs(site) if site is not None else True
        if runs is False:
            continue
        out.append((site if site is not None else value, runs))
    return out


def fabric_strategy_in_code(project: Any) -> Optional[tuple[Optional[str], Optional[Source], str]]:
    """The sharding the script's ``Fabric(strategy=...)`` gives: None when no script passes one (the
    launcher decides), else (mode or None when not known, source, confidence)."""
    for script in project.scripts:
        idx = project.index(script)
        for site in idx.calls:
            if site.last != "Fabric" or site.kwarg("strategy") is None:
                continue
            expr = site.kwarg("strategy")
            if isinstance(expr, ast.Constant) and expr.value == "auto":
                return None
            found: list[tuple[str, Source, Optional[bool]]] = []
            for cand, runs in _strategy_candidates(idx, expr):
                if isinstance(cand, ast.Constant):
                    if cand.value != "auto":
                        return (None, None, "low")
                    continue
                last = cand.last or ""
                if last in _TPU_ONLY:
                    continue
                if last == "FSDPStrategy":
                    kw = cand.kwarg("sharding_strategy")
                    name = "FULL_SHARD"
                    if kw is not None:
                        resolved = idx.resolve(kw)
                        name = str(resolved.value if resolved is not None else
                                   (ast.unparse(kw) if hasattr(ast, "unparse") else "")).rsplit(".", 1)[-1].upper()
                    mode = _FSDP_MODES.get(name)
                elif last == "DDPStrategy":
                    mode = "ddp"
                else:
                    return (None, None, "low")
                if mode is None:
                    return (None, None, "low")
                found.append((mode, project.source(script, cand.call, "code", key="strategy",
                                                   detail=f"{last}(...) given to Fabric(strategy=...)"), runs))
            if len(found) != 1:
                return (None, None, "low") if found else None
            mode, source, runs = found[0]
            return (mode, source, "medium" if runs else "low")
    return None


def fabric_facts(adapter: Any, project: Any, plan: TrainingPlan, info: Any, line: str) -> None:
    def src(flag: str, detail: str = "") -> Source:
        return Source("cli", None, None, flag, f"{detail} (launch line: {line})" if detail else f"launch line: {line}")

    if info.total_procs is not None:
        adapter.add_checked(plan, "dist.devices_per_node", info.procs_per_node, src("--devices"))
        adapter.add_checked(plan, "dist.nodes", info.nodes, src("--num-nodes", "fabric run default 1")
                            if "__num_nodes" not in info.options else src("--num-nodes"))
        adapter.add_checked(plan, "dist.world_size", info.total_procs,
                            Source("derived", None, None, "--devices",
                                   f"--devices {info.procs_per_node} x --num-nodes {info.nodes} "
                                   f"(launch line: {line})"))
        strategy = info.options.get("__strategy", "auto")
        in_code = fabric_strategy_in_code(project) if strategy == "auto" else None
        if in_code is not None:
            mode, source, conf = in_code
            if mode is not None and source is not None:
                adapter.add_checked(plan, "dist.sharding", mode, source, conf)
        elif info.total_procs > 1 and strategy in ("auto", "ddp"):
            adapter.add_checked(plan, "dist.sharding", "ddp",
                                src("--strategy", f"--strategy {strategy}: DDP over {info.total_procs} processes"),
                                "medium" if strategy == "auto" else "high")
        elif strategy == "fsdp":
            adapter.add_checked(plan, "dist.sharding", "fsdp_full", src("--strategy"))
    given = info.mixed_precision
    if given is not None and given in PRECISION:
        adapter.add_checked(plan, "precision.mode", PRECISION[given], src("--precision"))
    elif given is None and _fabric_precision_in_code(project) is None and any(
            isinstance(n, ast.Call) and (getattr(n.func, "id", "") == "Fabric" or getattr(n.func, "attr", "") == "Fabric")
            for s in project.scripts for n in ast.walk(s.tree)):
        adapter.add_checked(plan, "precision.mode", "fp32",
                            Source("default", None, None, "--precision",
                                   "fabric run without --precision and Fabric() without precision=: 32-true "
                                   "(lightning/fabric/connector.py)"), "medium")
