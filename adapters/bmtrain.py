"""OpenBMB's BMTrain: the ZeRO level it shards a wrapped model with, and its CPU-offloaded Adam.

What BMTrain does (OpenBMB/BMTrain, read at its tags, never imported):

- ``bmt.init_distributed(init_method="env://", seed=0, zero_level=3, ...)`` (0.2.1 ``bmtrain/init.py:10-68``:
  "zero_level (int): The ZeRO optimization level. 2 for stage-2, 3 for stage-3", stored in
  ``config["zero_level"]``; the keyword left ``init_distributed`` for ``CheckpointBlock`` in 7d62a18 "mv
  zero_level to CheckpointBlock (#154)", so its default depends on the installed version and only a level
  the call writes is read). It reads ``WORLD_SIZE``/``RANK``/``LOCAL_RANK`` from the launcher (torchrun);
- ``bmt.BMTrainModelWrapper(model)`` (``bmtrain/wrapper.py``) replaces every parameter with a
  ``DistributedParameter`` that "scatters the tensor to all the nodes and gathers them when needed"
  (``bmtrain/parameter.py``): the parameters are partitioned over the ranks, and at level 3 the
  gradients and optimizer states with them. Without the wrapper (or BMTrain's own ``DistributedParameter``
  layers) nothing is said: a plain module's parameters are not BMTrain's;
- ``bmt.optim.AdamOffloadOptimizer(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, ...)``
  (``bmtrain/optim/adam_offload.py``, "Adam optimizer using optimizer offload"): its ``exp_avg``,
  ``exp_avg_sq`` and fp32 master copy are created ``device="cpu"`` ("on host", 0.2.1 :67-72) and the
  update runs on the CPU (``C.f_adam_cpu``): ``optimizer.name`` Adam, ``dist.offload_optimizer`` cpu;
  ``bmt.optim.AdamOptimizer`` is Adam on the GPU (its offload is not said).

Real shape: thunlp/UltraChat @ 1f613e1 ``train/train_bm.py:19,23-25,76-79`` (``bmtrain==0.2.1`` in
``train/requirements.txt``), launched by torchrun. Medium: BMTrain's documented behaviour, read statically.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_LEVELS = {2: "zero2", 3: "zero3"}


@register_adapter
class BMTrainAdapter(Adapter):
    name = "bmtrain"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("bmtrain" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None or "bmtrain" not in script.source.text:
                continue
            idx = project.index(script)
            sites = [s for s in idx.calls if (s.qualified or "").startswith("bmtrain.") and idx.runs(s) is not False]
            by_name: dict[str, list[Any]] = {}
            for site in sites:
                by_name.setdefault(site.qualified or "", []).append(site)
            inits = by_name.get("bmtrain.init_distributed", [])
            wrapped = bool(by_name.get("bmtrain.BMTrainModelWrapper"))
            if len(inits) == 1 and wrapped:
                level = inits[0].kwarg("zero_level")
                got = level.value if isinstance(level, ast.Constant) else None
                if isinstance(got, int) and not isinstance(got, bool) and got in _LEVELS:
                    detail = (f"bmtrain.init_distributed(zero_level={got}) with the model wrapped by "
                              f"bmtrain.BMTrainModelWrapper: parameters scattered over the ranks "
                              f"(BMTrain's DistributedParameter), ZeRO stage {got}")
                    self.add_checked(plan, "dist.sharding", _LEVELS[got],
                                     project.source(script, inits[0].call, "code", key="zero_level", detail=detail),
                                     "medium")
            offload = by_name.get("bmtrain.optim.AdamOffloadOptimizer", [])
            plain = by_name.get("bmtrain.optim.AdamOptimizer", [])
            if len(offload) + len(plain) != 1:
                continue  # none, or several optimizers: which one trains is not read here
            site = (offload or plain)[0]
            what = f"{site.label}(...)"
            self.add_checked(plan, "optimizer.name", "Adam",
                             project.source(script, site.call, "code", detail=f"{what}: BMTrain's Adam"), "medium")
            if offload:
                detail = f"{what}: Adam states, fp32 master weights and the update on the CPU (bmtrain/optim/adam_offload.py)"
                self.add_checked(plan, "dist.offload_optimizer", "cpu",
                                 project.source(script, site.call, "code", detail=detail), "medium")
