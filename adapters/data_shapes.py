"""Input shapes a script states without a DataLoader option:

- a torchvision dataset of fixed-size images used as it is: ``CIFAR10``/``CIFAR100``/``SVHN``
  (32 px), ``MNIST``/``FashionMNIST``/``KMNIST``/``EMNIST``/``QMNIST`` (28 px), ``STL10`` (96 px),
  when no torchvision crop or resize transform appears in the script (those set the size and
  are read by the pytorch adapter) and the dataset's transform is not built by a function of the
  project (``transform=get_transforms_image(args.image_size)`` may crop or resize: OpenDiT's
  ``train.py:218``, the size is then not known from the dataset);
- a synthetic batch: ``x = torch.randint(0, V, (B, T))`` / ``torch.randn(B, ...)`` fed to the
  model the script trains (the name whose ``.parameters()`` an optimizer takes): ``B`` is the
  micro-batch (pytorch/examples FSDP2).

Facts are ``medium``: the dataset's native size and the tensor's first dimension are what the
model sees, as read from the code; a transform or collate function elsewhere would change them.
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import ScriptIndex

NATIVE_SIZE = {"CIFAR10": 32, "CIFAR100": 32, "SVHN": 32, "MNIST": 28, "FashionMNIST": 28, "KMNIST": 28,
               "EMNIST": 28, "QMNIST": 28, "STL10": 96}
_SIZING = ("Resize", "RandomResizedCrop", "CenterCrop", "RandomCrop", "FiveCrop", "TenCrop", "RandomSizedCrop")
_RANDOM = ("randint", "randn", "rand", "zeros", "ones", "empty", "full")


@register_adapter
class DataShapesAdapter(Adapter):
    name = "data_shapes"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        # (a Lightning script may import torch only through the local modules it builds its data in)
        return any(project.index(s).imports_any("torch", "torchvision", "lightning", "pytorch_lightning")
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            idx = project.index(script)
            self.native_images(project, plan, idx)
            self.synthetic_batch(project, plan, idx)
        if plan.resolve("data.image_size") is None and len(project.scripts) == 1:
            from preflight.adapters.data_shapes_local import local_native_size

            # the dataset built in a module beside the script (adapters/data_shapes_local.py)
            got = local_native_size(project, project.scripts[0])
            if got is not None:
                size, shown, line, name = got
                self.add_checked(plan, "data.image_size", size,
                                 Source("code", shown, line, None, f"{name} (built in {shown}, imported by the "
                                        f"script): {size}x{size} images, no crop or resize transform"), "medium")

    def native_images(self, project: Project, plan: TrainingPlan, idx: ScriptIndex) -> None:
        calls = [s for s in idx.calls if idx.runs(s) is not False]
        if any((s.qualified or "").startswith("torchvision.transforms") and s.last in _SIZING for s in calls):
            return
        sets = [s for s in calls if (s.qualified or "").startswith("torchvision.datasets.") and s.last in NATIVE_SIZE]
        if any(_project_transform(idx, s.call) for s in sets):
            return
        sizes = {NATIVE_SIZE[s.last or ""] for s in sets}
        if len(sizes) == 1:
            site = sets[0]
            size = sizes.pop()
            self.add_checked(plan, "data.image_size", size,
                             project.source(idx.script, site.call, detail=f"{site.label}: {size}x{size} images, "
                                                                          "no crop or resize transform"), "medium")

    def synthetic_batch(self, project: Project, plan: TrainingPlan, idx: ScriptIndex) -> None:
        trained = set()
        for site in idx.calls:
            if (site.qualified or "").startswith("torch.optim.") and site.call.args:
                first = site.call.args[0]
                if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
                        and first.func.attr == "parameters":
                    name = dotted_name(first.func.value)
                    if name:
                        trained.add(name)
        if not trained:
            return
        fed = {dotted_name(s.call.args[0]) for s in idx.calls
               if s.name in trained and s.call.args and isinstance(s.call.args[0], ast.Name)}
        for site in idx.calls:
            q = site.qualified or ""
            if not (q.startswith("torch.") and site.last in _RANDOM) or site.target not in fed:
                continue
            dim = self._first_dim(site.call, site.last or "")
            value = idx.resolve(dim) if dim is not None else None
            if value is None or not isinstance(value.value, int) or isinstance(value.value, bool) or value.value < 1:
                continue
            self.add_checked(plan, "batch.micro", value.value,
                             project.source(idx.script, site.call,
                                            detail=f"{site.target} = {site.label}(...) fed to the trained model: "
                                                   f"its first dimension {value.value}"), "medium")
            return

    @staticmethod
    def _first_dim(call: ast.Call, kind: str) -> Optional[ast.expr]:
        size: Optional[ast.expr] = next((k.value for k in call.keywords if k.arg == "size"), None)
        if size is None:
            args = call.args[2:] if kind == "randint" else call.args
            if kind == "randint" and len(call.args) == 2:
                args = call.args[1:]  # randint(high, size)
            if not args:
                return None
            size = args[0]
            if kind != "randint" and not isinstance(size, (ast.Tuple, ast.List)):
                return size  # torch.randn(B, T): varargs
        if isinstance(size, (ast.Tuple, ast.List)) and size.elts:
            return size.elts[0]
        return None


def _transform_expr(call: ast.Call) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg in ("transform", "transforms"):
            return kw.value
    return call.args[2] if len(call.args) > 2 else None


def _project_transform(idx: ScriptIndex, call: ast.Call) -> bool:
    """Whether the dataset's transform is built by a call that is not torchvision's (a project
    helper, maybe resizing), directly or through a name assigned such a call in the script."""
    expr = _transform_expr(call)
    if expr is None:
        return False
    exprs = [expr]
    if isinstance(expr, ast.Name):
        exprs = [e for e in idx.assigns.get(expr.id, []) if e is not None]
    by_node = {id(site.call): site for site in idx.calls}
    for value in exprs:
        for node in ast.walk(value):
            if isinstance(node, ast.Call):
                site = by_node.get(id(node))
                qualified = (site.qualified if site else None) or dotted_name(node.func) or ""
                if not qualified.startswith(("torchvision.", "torch.")):
                    return True
    return False
