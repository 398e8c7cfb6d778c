"""How ``preflight fit`` shows a table and the cheapest targets, as text and as JSON (one
answer's text and document are built with the answer, in :mod:`preflight.commands.fit`)."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from preflight.commands.fit import (
    _GIB,
    _LEGEND,
    MODE_TITLES,
    MODES,
    Cell,
    Cheapest,
    Model,
    Settings,
    Table,
    _count,
    _mode_words,
    _model_lines,
    _target_label,
)


def _cell_text(cell: Cell, single: Cell) -> str:
    if cell.peak is None:
        return "n/a"
    if single.peak is not None and cell.peak != single.peak:
        return f"{cell.verdict} ({cell.peak / _GIB:.1f})"
    return cell.verdict


def _headroom_lines(table: Table) -> List[str]:
    """The memory left on each GPU at the peak, per job (negative: how much is missing), as
    a second table aligned like the verdicts."""
    from preflight.estimate.remedy import target_memory

    if not table.targets:
        return []
    header = ["Headroom per GPU (GiB)"] + [MODE_TITLES[m] for m in table.modes]
    rows: List[List[str]] = []
    for i, t in enumerate(table.targets):
        row = ["  " + _target_label(t).split(" (", 1)[0]]
        for m in table.modes:
            peak = table.cells[(m, i)].peak
            row.append("n/a" if peak is None else f"{(target_memory(t) - peak) / _GIB:+.1f}")
        rows.append(row)
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    out = [""]
    for r in [header, *rows]:
        out.append("  ".join([r[0].ljust(widths[0])] + [v.rjust(widths[k]) for k, v in enumerate(r) if k])
                   .rstrip())
    return out


def table_text(model: Model, s: Settings, table: Table) -> str:
    lines = _model_lines(model)
    jobs = [_mode_words(m, s, model) for m in table.modes
            if table.single[m].inp is not None or not table.single[m].note]
    if jobs:
        lines.append("Jobs:  " + "\n       ".join(jobs))
    lines.append("")
    rows: List[List[str]] = []
    header = ["Peak per GPU (GiB)"] + [MODE_TITLES[m] for m in table.modes]
    peak_row = ["  one GPU"]
    for m in table.modes:
        c = table.single[m]
        peak_row.append("n/a" if c.peak is None else f"{c.peak / _GIB:.1f}")
    rows.append(peak_row)
    for i, t in enumerate(table.targets):
        rows.append([_target_label(t)] + [_cell_text(table.cells[(m, i)], table.single[m])
                                          for m in table.modes])
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    for r in [header, *rows]:
        lines.append("  ".join([r[0].ljust(widths[0])] + [v.rjust(widths[k]) for k, v in enumerate(r) if k])
                     .rstrip())
    lines.extend(_headroom_lines(table))
    notes = sorted({c.note for c in list(table.cells.values()) + list(table.single.values()) if c.note})
    if not table.targets:
        lines.append("(no GPU catalog: peaks only)")
    lines.append("")
    lines.append(f"Verdicts: {_LEGEND}.")
    if any(_count(t) > 1 for t in table.targets):
        lines.append("Instances with several GPUs (peak per GPU in parentheses): inference and generation "
                     "split the weights over them; training shards with ZeRO-3.")
    lines.extend(f"Note: {n}" for n in notes)
    lines.append(f"One answer with remediations: preflight fit {model.cli_name or model.name} "
                 f"--mode {'|'.join(MODES)} --gpu NAME")
    return "\n".join(lines) + "\n"


def cheapest_text(model: Model, s: Settings, found: Sequence[Cheapest]) -> str:
    lines = _model_lines(model)
    for f in found:
        lines.append("")
        title = _mode_words(f.mode, s, model)
        if f.peak is None:
            lines.append(f"{title}: cannot estimate ({f.note})")
            continue
        lines.append(f"{title}: peak {f.peak / _GIB:.1f} GiB on one GPU")
        if not f.fitting:
            lines.append("  nothing in the catalog fits")
            continue
        if f.instances:
            lines.append("  instances, cheapest first:")
            for inst, v, peak in f.instances[:8]:
                mark = "" if v == "fits" else " [tight]"
                lines.append(f"    ${inst.hourly_usd:.2f}/h  {inst.name} ({inst.provider}, {inst.count} x "
                             f"{inst.gpu.name}), {peak / _GIB:.1f} GiB per GPU{mark}")
            if len(f.instances) > 8:
                lines.append(f"    ... {len(f.instances) - 8} more")
        if f.gpus:
            lines.append("  GPUs, smallest first: " + ", ".join(
                f"{g.name} ({g.memory_bytes / _GIB:.1f} GiB{'' if v == 'fits' else ', tight'})"
                for g, v in f.gpus[:10]) + (f", ... {len(f.gpus) - 10} more" if len(f.gpus) > 10 else ""))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- JSON


def _target_json(target: Any) -> Dict[str, Any]:
    gpu = getattr(target, "gpu", None)
    if gpu is not None:
        return {"name": target.name, "instance": True, "gpu": gpu.name, "count": int(target.count),
                "memory_bytes": int(gpu.memory_bytes), "provider": getattr(target, "provider", None),
                "hourly_usd": getattr(target, "hourly_usd", None)}
    return {"name": target.name, "instance": False, "gpu": target.name, "count": 1,
            "memory_bytes": int(target.memory_bytes), "provider": None, "hourly_usd": None}


def _settings_json(s: Settings) -> Dict[str, Any]:
    return {"seq_len": s.seq_len, "batch_size": s.batch, "context": s.context,
            "new_tokens": s.new_tokens, "lora_r": s.lora_r}


def table_json(model: Model, s: Settings, table: Table) -> Dict[str, Any]:
    """``{"version": 1, "model", "settings", "estimates": {mode: estimate document}, "cells"}``.

    ``estimates`` are the estimator's JSON documents (one GPU, no target); each cell gives the
    peak per GPU and verdict of one mode on one target.
    """
    from preflight.estimate import estimate_json

    estimates: Dict[str, Any] = {}
    for m in table.modes:
        c = table.single[m]
        estimates[m] = (estimate_json(c.inp, c.est) if c.est is not None else
                        {"version": 1, "peak_bytes": None, "verdict": "unknown", "notes": [c.note]})
    cells = []
    for i, t in enumerate(table.targets):
        for m in table.modes:
            c = table.cells[(m, i)]
            cells.append({"mode": m, "target": t.name, "peak_bytes": c.peak,
                          "interval_bytes": list(c.est.interval_bytes) if c.est is not None
                          and c.est.interval_bytes else None,
                          "phase": c.est.phase if c.est is not None else None,
                          "verdict": c.verdict, "note": c.note or None})
    return {"version": 1, "model": model.info(), "settings": _settings_json(s),
            "modes": list(table.modes), "targets": [_target_json(t) for t in table.targets],
            "estimates": estimates, "cells": cells}


def cheapest_json(model: Model, s: Settings, found: Sequence[Cheapest]) -> Dict[str, Any]:
    return {"version": 1, "model": model.info(), "settings": _settings_json(s), "cheapest": [
        {"mode": f.mode, "peak_bytes": f.peak, "note": f.note or None,
         "instances": [dict(_target_json(i), verdict=v, peak_bytes=p) for i, v, p in f.instances],
         "gpus": [dict(_target_json(g), verdict=v) for g, v in f.gpus]} for f in found]}
