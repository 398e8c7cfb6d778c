"""Gradient accumulation read by the analysis rule PF108 reads: the window of the optimizer step.

:func:`preflight.analysis.accumulation.accumulation` finds, for every ``backward()`` of a script,
the window its optimizer step closes: ``for _ in range(N): loss = model(...); loss.backward()``
with ``optimizer.step()`` after that loop in the enclosing one (lucidrains/PaLM-pytorch
``train.py`` ``for __ in range(GRADIENT_ACCUMULATE_EVERY)``; nanoGPT ``for micro_step in
range(gradient_accumulation_steps)``), or a step guarded by ``if (i + 1) % N == 0`` in the loop
that back-propagates on every pass. Gradients add up over N backward passes, whether or not the
loss is divided by N (PF108 reports the unscaled case): ``batch.grad_accum`` N (medium), when N
resolves to a positive int, every backward of the script that has a window agrees on it, and no
``zero_grad`` or optimizer step runs inside the window (either ends the accumulation each pass).

The same reading as the rule, so the plan and the finding cannot disagree about the window.
Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _steps_inside(acc: Any, window: ast.For) -> bool:
    """An optimizer step inside the micro-step loop: it steps on every pass, not once per window."""
    end = window.end_lineno or window.lineno
    return any(tc.kind == "step" and window.lineno <= tc.call.lineno <= end for tc in acc.scopes.training_calls)


def _zeroed_before_backward(site: Any, resets: dict) -> bool:
    """A ``zero_grad`` in the guarded loop before the backward (facebookresearch/dlrm
    ``dlrm_s_pytorch.py:1604-1621``: ``zero_grad()`` under the same ``% N`` test as the step, ahead of
    ``backward()``): whether gradients of earlier passes survive depends on which pass it runs in;
    not read here."""
    loop = getattr(site.loop, "node", None)
    if loop is None:
        return False
    end = getattr(loop, "end_lineno", None) or loop.lineno
    return any(loop.lineno <= node.lineno <= end and node.lineno < site.backward.lineno
               for nodes in resets.values() for node in nodes)


def window_count(project: Project, script: Any) -> Optional[tuple[int, Source]]:
    """N of the script's accumulation window with its source, or None (no window, several that
    disagree, one whose size is not known, or gradients cleared inside it)."""
    from preflight.analysis.accumulation import accumulation
    from preflight.analysis.accumulation_guards import _resets
    from preflight.analysis.context import FileContext

    try:
        ctx = FileContext(script)
        acc = accumulation(ctx)
        resets = _resets(ctx, acc.scopes)
    except (SyntaxError, ValueError, RecursionError):
        return None
    idx = project.index(script)
    found: Optional[tuple[int, Source]] = None
    for site in acc.sites:
        if site.modulus is None or site.step is None:
            continue
        if site.zeroed_every_micro_batch or (site.window is not None and _steps_inside(acc, site.window)):
            return None
        if site.window is None and _zeroed_before_backward(site, resets):
            return None
        resolved = idx.resolve(site.modulus)
        count = _int(resolved.value) if resolved is not None else None
        if resolved is None or count is None:
            return None
        if found is not None:
            if found[0] != count:
                return None
            continue
        if site.window is not None:
            how = (f"backward() in a loop of {count} passes (line {site.window.lineno}) and the optimizer's "
                   f"step() after it (line {site.step.lineno})")
        else:
            how = (f"backward() on every pass and the optimizer's step() every {count} passes "
                   f"(line {site.step.lineno})")
        detail = f"{how}: gradients of {count} micro-batches add up per step"
        if resolved.detail:
            detail = f"{detail}; {resolved.detail}"
        if resolved.kind == "cli":
            source = Source("cli", None, None, resolved.key, detail)
        else:
            source = project.source(script, resolved.line or site.backward.lineno, "code", key=resolved.key,
                                    detail=detail)
        found = (count, source)
    return found


@register_adapter
class AccumWindowAdapter(ScratchAdapter):
    name = "accum_window"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(".backward(" in s.source.text for s in self.scripts(project))

    def work(self, project: Project, plan: TrainingPlan) -> None:
        found: Optional[tuple[int, Source]] = None
        for script in self.scripts(project):
            if ".backward(" not in script.source.text:
                continue
            got = window_count(project, script)
            if got is None:
                continue
            if found is not None and found[0] != got[0]:
                return
            found = found or got
        if found is not None:
            self.add_checked(plan, "batch.grad_accum", found[0], found[1], "medium")
