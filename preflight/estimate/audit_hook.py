"""The estimate inside ``preflight audit``: shown when the plan allows one (a catalog model
or a parameter count, and a sequence length or image size). Never raises, never touches
the network: for a plan the estimator cannot use it says why and which facts are missing,
and whether the weights, gradients and optimizer states alone already exceed the GPU."""

from __future__ import annotations

from typing import Any, Optional

# The terms that do not depend on the sequence length or the batch: with these alone over
# the GPU, the job cannot fit whatever the missing facts are (PF801 as a lower bound).
_STATIC_TERMS = ("weights", "buffers", "lora_adapters", "gradients", "master_weights", "optimizer_states")
_HOW_TO_GIVE = {
    "data.seq_len": "the sequence length (`max_length=`/`max_seq_length=` in the script or "
                    "config, or `preflight estimate --seq-len N`)",
    "data.image_size": "the image size (`preflight estimate --image-size N`)",
}


def _unavailable(why: str, missing: list[str], target_name: Optional[str],
                 lower_bound: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    text = f"No memory estimate: {why}"
    if missing:
        text += "; missing: " + "; ".join(missing)
    verdict = "unknown"
    if lower_bound is not None:
        verdict = "oom"
        g = 1024 ** 3
        text += (f". Whatever it is, the weights, gradients and optimizer states alone need "
                 f"at least {lower_bound['bytes'] / g:.1f} GiB per GPU and "
                 f"{lower_bound['gpu']} has {lower_bound['memory'] / g:.1f} GiB: oom (PF801)")
    return {"text": text + "\n", "json": None, "verdict": verdict, "target": target_name,
            "missing": missing, "why": why, "lower_bound": lower_bound}


def _lower_bound(inp: Any, target: Any) -> Optional[dict[str, Any]]:
    """Weights + gradients + optimizer states (their low end) when they alone exceed one GPU
    of ``target``, else None. Computed with the smallest sequence length / image size."""
    from preflight.estimate import estimate
    from preflight.estimate.remedy import target_memory

    if target is None:
        return None
    est = estimate(inp.with_changes(seq_len=inp.seq_len or 1, image_size=inp.image_size or 1))
    if not est.ok:
        return None
    static = max((sum(terms.get(t, 0) for t in _STATIC_TERMS) for terms in est.phases.values()),
                 default=0)
    low = int(static * 0.97)  # the parameter count's own uncertainty, at its low end
    memory = target_memory(target)
    if low <= memory:
        return None
    return {"bytes": low, "memory": memory, "gpu": getattr(target, "name", str(target))}


_MEMO: dict[int, tuple[Any, tuple, Optional[dict[str, Any]]]] = {}


def audit_estimate(plan: Any, target_name: Optional[str]) -> Optional[dict[str, Any]]:
    """``{"text": str, "json": dict, "verdict": str, "target": name}``, or, when the plan does
    not allow an estimate, the same keys with ``json`` None and ``text`` saying why and which
    facts are missing (``verdict`` ``oom`` when weights, gradients and optimizer states alone
    exceed the target, with ``lower_bound``). None only when the plan names no model at all
    and no target GPU was asked for (nothing to say). Computed once
    per plan state and target: PF801 and the report share one estimate."""
    key = (target_name, sum(len(plan.facts(f)) for f in plan.fields()), len(plan.notes))
    held = _MEMO.get(id(plan))
    if held is not None and held[0] is plan and held[1] == key:
        return held[2]
    found = _audit_estimate(plan, target_name)
    _MEMO.clear()  # one audit at a time: keep only the latest plan
    _MEMO[id(plan)] = (plan, key, found)
    return found


def _audit_estimate(plan: Any, target_name: Optional[str]) -> Optional[dict[str, Any]]:
    from preflight.estimate import (
        InputError,
        estimate,
        estimate_json,
        input_from_plan,
        resolve_architecture,
        target_of,
        verdict,
    )

    try:
        target = target_of(target_name)
    except InputError:
        target = None
    arch = None
    ref = plan.value("model.ref")
    if ref:
        try:
            arch = resolve_architecture(str(ref), online=False)
        except InputError:
            arch = None
    try:
        inp = input_from_plan(plan, {}, arch=arch)
    except InputError as exc:
        return _unavailable(str(exc), [], target_name)
    if arch is None and not inp.params:
        if not ref and target is None:
            return None
        why = (f"the model {ref!r} is not in the offline catalog and its parameter count is "
               "not known (`preflight estimate --params N`, or `--model HUB_ID --online`, "
               "estimates it)") if ref else \
            "no model found in the plan (no `from_pretrained`, no catalog model)"
        return _unavailable(why, ["model.ref (a catalog or Hub model) or model.params"], target_name)
    est = estimate(inp)
    if not est.ok:
        fields = [m.split(" ", 1)[0] for m in est.missing]
        missing = [_HOW_TO_GIVE.get(f, m) for f, m in zip(fields, est.missing)]
        why = "the plan lacks " + ", ".join(f"`{f}`" for f in fields)
        return _unavailable(why, missing, target_name, _lower_bound(inp, target))
    v = verdict(est, target) if target is not None else "unknown"
    assert est.peak_bytes is not None and est.interval_bytes is not None
    lo, hi = est.interval_bytes
    g = 1024 ** 3
    text = (f"Memory estimate: {est.peak_bytes / g:.2f} GiB per GPU "
            f"(interval {lo / g:.2f} .. {hi / g:.2f} GiB) during the {est.phase} phase "
            f"[{est.arch_name}]")
    bar: list[str] = []
    if target is not None:
        from preflight.estimate.remedy import target_memory
        from preflight.estimate.report import memory_bar

        name = getattr(target, "name", str(target_name))
        text += f"; on {name}: {v}"
        if v in ("oom", "likely-oom", "tight"):
            text += " (run 'preflight estimate' with the same inputs for the changes that fit)"
        gpu = getattr(getattr(target, "gpu", None), "name", None) or name
        bar = memory_bar(est.breakdown, est.phase, target_memory(target), gpu)
    doc = estimate_json(inp, est, target=target, verdict=v)
    return {"text": text + "\n", "json": doc, "verdict": v, "target": target_name, "bar": bar}


def attach_estimate(fmt: str, report: str, plan: Any, target_name: Optional[str], *,
                    quiet: bool = False, color: bool = False) -> str:
    """Add the estimate to an audit report: a line in text, an ``estimate`` key in JSON,
    a run property in SARIF. The report is returned unchanged when there is no estimate."""
    found = audit_estimate(plan, target_name)
    if found is None:
        return report
    if fmt == "text":
        if quiet:
            return report
        sep = "" if report.endswith("\n") or not report else "\n"
        text = found["text"]
        if found.get("bar"):
            from preflight.estimate.report import memory_bar

            est = found["json"]
            bar = memory_bar(est["breakdown"], est["phase"], est["gpu"]["memory_bytes"],
                             est["gpu"]["name"], color=color) if color else found["bar"]
            text += "\n".join(bar) + "\n"
        return report + sep + "\n" + text
    if fmt in ("json", "sarif") and found["json"] is not None:
        import json

        doc = json.loads(report)
        if fmt == "json":
            doc["estimate"] = found["json"]
        else:
            for run in doc.get("runs", []):
                run.setdefault("properties", {})["memoryEstimate"] = found["json"]
        return json.dumps(doc, indent=2) + "\n"
    return report


def add_estimate(fmt: str, doc: dict, found: Optional[dict[str, Any]]) -> None:
    """Put an estimate into a JSON report or a SARIF log (as data, dumped once by the caller)."""
    if found is None:
        return
    if fmt == "json":
        doc["estimate"] = found["json"]
    elif fmt == "sarif":
        for run in doc.get("runs", []):
            run.setdefault("properties", {})["memoryEstimate"] = found["json"]
