"""Liger's kernels applied by the job's own code (``model.liger_kernels``).

Two calls swap a transformers model's RMSNorm and SwiGLU MLP for Liger's (linkedin/Liger-Kernel
``src/liger_kernel/transformers/monkey_patch.py``: ``apply_liger_kernel_to_llama(rope=True,
cross_entropy=False, fused_linear_cross_entropy=True, rms_norm=True, swiglu=True)`` and the
other ``apply_liger_kernel_to_*``; ``AutoLigerKernelForCausalLM.from_pretrained`` calls the one
of the checkpoint's model type with its defaults, examples/huggingface/training.py at 1129508):

- ``apply_liger_kernel_to_<model>(...)`` imported from ``liger_kernel``;
- ``AutoLigerKernelForCausalLM.from_pretrained(...)``.

A call counts when it runs (every ``if`` around it decided taken) and leaves ``rms_norm`` and
``swiglu`` on (unwritten or ``True``; a variable or ``**config`` is not read). The Trainer's ``use_liger_kernel=True`` is read with the other
TrainingArguments (``transformers_args.py``).
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CACHE = "liger_kernels.found"


def _switched_off(call: ast.Call) -> bool:
    """``rms_norm`` or ``swiglu`` not surely on: written False, a value not a constant, or
    keywords unpacked from a mapping (``**config``) that may hold them."""
    for k in call.keywords:
        if k.arg is None:
            return True
        if k.arg in ("rms_norm", "swiglu") and not (isinstance(k.value, ast.Constant)
                                                   and k.value.value is True):
            return True
    return False


def _is_liger(qualified: Optional[str]) -> bool:
    if not qualified or not qualified.startswith("liger_kernel"):
        return False
    last = qualified.rsplit(".", 1)[-1]
    return last.startswith("apply_liger_kernel_to_") or qualified.endswith(
        "AutoLigerKernelForCausalLM.from_pretrained")


def _find(project: Project) -> Optional[Source]:
    for script in project.scripts:
        if script.tree is None:
            continue
        idx = project.index(script)
        for site in idx.calls:
            if not _is_liger(site.qualified) or idx.runs(site) is not True:
                continue
            if _switched_off(site.call):
                continue
            return project.source(script, site.call, "code",
                                  detail=f"{site.label}(): Liger's RMSNorm and SwiGLU replace the model's")
    return None


@register_adapter
class LigerKernelsAdapter(Adapter):
    name = "liger_kernels"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """The reading is done here, so that an adapter that writes nothing is not named among those detected."""
        found = _find(project) if any("liger_kernel" in s.source.text for s in project.scripts) else None
        project.cache[_CACHE] = found
        return found is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None)
        if found is not None:
            self.add_checked(plan, "model.liger_kernels", True, found, "high", 0)
