"""The estimate inside ``preflight audit``: shown when the plan allows one (a catalog model
or a parameter count, and a sequence length or image size). Never raises, never touches
the network: a plan the estimator cannot use just shows no estimate."""

from __future__ import annotations

from typing import Any, Optional

_MEMO: dict[int, tuple[Any, tuple, Optional[dict[str, Any]]]] = {}


def audit_estimate(plan: Any, target_name: Optional[str]) -> Optional[dict[str, Any]]:
    """``{"text": str, "json": dict, "verdict": str, "target": name}`` or None. Computed once
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

    arch = None
    ref = plan.value("model.ref")
    if ref:
        try:
            arch = resolve_architecture(str(ref), online=False)
        except InputError:
            arch = None
    try:
        inp = input_from_plan(plan, {}, arch=arch)
    except InputError:
        return None
    if arch is None and not inp.params:
        return None
    est = estimate(inp)
    if not est.ok:
        return None
    try:
        target = target_of(target_name)
    except InputError:
        target = None
    v = verdict(est, target) if target is not None else "unknown"
    assert est.peak_bytes is not None and est.interval_bytes is not None
    lo, hi = est.interval_bytes
    g = 1024 ** 3
    text = (f"Memory estimate: {est.peak_bytes / g:.2f} GiB per GPU "
            f"(interval {lo / g:.2f} .. {hi / g:.2f} GiB) during the {est.phase} phase "
            f"[{est.arch_name}]")
    if target is not None:
        name = getattr(target, "name", str(target_name))
        text += f"; on {name}: {v}"
        if v in ("oom", "likely-oom", "tight"):
            text += " (run 'preflight estimate' with the same inputs for the changes that fit)"
    doc = estimate_json(inp, est, target=target, verdict=v)
    return {"text": text + "\n", "json": doc, "verdict": v, "target": target_name}


def attach_estimate(fmt: str, report: str, plan: Any, target_name: Optional[str], *,
                    quiet: bool = False) -> str:
    """Add the estimate to an audit report: a line in text, an ``estimate`` key in JSON,
    a run property in SARIF. The report is returned unchanged when there is no estimate."""
    found = audit_estimate(plan, target_name)
    if found is None:
        return report
    if fmt == "text":
        if quiet:
            return report
        sep = "" if report.endswith("\n") or not report else "\n"
        return report + sep + "\n" + found["text"]
    if fmt in ("json", "sarif"):
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
