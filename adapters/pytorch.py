"""Raw PyTorch (and the model-loading idioms of transformers/PEFT/bitsandbytes used from it).

Reads, without importing anything: the model (``from_pretrained("id")``, timm/torchvision
constructors, a local ``nn.Module``), the optimizer class, ``DataLoader`` arguments
(literals, names bound once to a literal, argparse defaults and launch-command
overrides), precision (autocast, GradScaler, ``.half()``/``.bfloat16()``, ``torch_dtype``),
quantized loading, DDP/FSDP wrapping, gradient checkpointing, ``torch.compile``, LoRA,
``generate()`` arguments and the task mode. A value it cannot determine is not added.
"""

from __future__ import annotations

import os
from pathlib import Path

from preflight.adapters.pytorch_features import _FeaturePass
from preflight.adapters.pytorch_pass import _MODEL_CLASS, _NOT_MODEL, FRAMEWORK_MODULES

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

__all__ = ["FRAMEWORK_MODULES", "_MODEL_CLASS", "_NOT_MODEL", "PyTorchAdapter"]


@register_adapter
class PyTorchAdapter(Adapter):
    name = "pytorch"
    frameworks = ("pytorch",)

    def detect(self, project: Project) -> bool:
        return any(project.index(s).imports_any(*FRAMEWORK_MODULES) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            idx = project.index(script)
            if idx.imports_any(*FRAMEWORK_MODULES):
                _ScriptPass(self, project, plan, idx).run()
        if plan.value("dist.sharding") is None:
            self.local_ddp(project, plan)

    def local_ddp(self, project: Project, plan: TrainingPlan) -> None:
        """DDP or FSDP constructed in a local module the entry script imports (adapters/pytorch_local.py)."""
        from preflight.adapters.pytorch_local import ddp_in_local_modules

        for script in project.scripts:
            if script.tree is None or script.source.path is None:
                continue
            root = Path(str(project.root)) if project.root else None
            found = ddp_in_local_modules(Path(str(script.source.path)), script.tree, root)
            if found is not None:
                path, line, mode, what = found
                shown = os.path.relpath(path, project.root) if project.root else path.name
                world = plan.resolve("dist.world_size")
                if mode == "ddp" and world is not None and world.value == 1:
                    from preflight.adapters.ddp_world_guard import single_process_skips
                    from preflight.adapters.pytorch_local import parse_file

                    try:
                        skipped = single_process_skips(parse_file(path), line)
                    except (OSError, SyntaxError, ValueError):
                        skipped = False
                    if skipped:
                        # demucs/distrib.py:44-51 ``if world_size == 1: return model`` before the wrapper
                        self.add_checked(plan, "dist.sharding", "none",
                                         Source("code", shown, line, what.split("(", 1)[0],
                                                f"{what} in {shown} (a local module {script.source.display} "
                                                "imports) is built only when more than one process runs; this "
                                                f"job runs one ({world.source.detail or world.source.kind}): no "
                                                "wrapper"),
                                         plan.capped("medium", "dist.world_size"))
                        return
                self.add_checked(plan, "dist.sharding", mode,
                                 Source("code", shown, line, what.split("(", 1)[0],
                                        f"{what} in {shown}, a local module {script.source.display} imports"),
                                 "medium")
                return



class _ScriptPass(_FeaturePass):
    # -- passes --------------------------------------------------------------
    def run(self) -> None:
        from preflight.adapters.quant_load import untyped_quantized_load

        self.models()
        untyped_quantized_load(self)
        self.quantization()
        self.optimizers()
        self.dataloaders()
        self.precision()
        self.distributed()
        self.features()
        self.peft_and_task()
        self.shapes()
        self.allocator_config()
