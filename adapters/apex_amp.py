"""NVIDIA Apex AMP: ``model, optimizer = amp.initialize(model, optimizer, opt_level=...)`` (``from apex import
amp``) sets the job's precision (``precision.mode``).

Apex's opt levels (NVIDIA/apex docs/source/amp.rst, "opt_levels and Properties"; the default is ``"O1"``,
``apex/amp/frontend.py`` ``initialize(models, optimizers=None, enabled=True, opt_level="O1", ...)``):

- ``O0``: FP32 training -> ``fp32``;
- ``O1``: the model's weights stay FP32, Torch functions are patched to run in FP16 where safe, with dynamic
  loss scaling: mixed precision like ``torch.autocast`` -> ``amp_fp16``;
- ``O2``: "almost FP16": the model's weights are cast to FP16 and the optimizer keeps FP32 master weights ->
  ``fp16`` (16-bit weights with fp32 master copies, as DeepSpeed ``fp16``);
- ``O3``: pure FP16 -> ``fp16``.

Read when the call runs (every ``if`` around it decided taken: sail-sg/poolformer @ a075575 ``train.py:434-435``
``if use_amp == 'apex': model, optimizer = amp.initialize(model, optimizer, opt_level='O1')`` with ``use_amp``
set from ``--apex-amp``; NVIDIA/tacotron2 @ 185cd24 ``train.py:173-176`` under ``if hparams.fp16_run:``), with
``enabled`` not written False and ``opt_level`` a value the script or its launch line gives; medium: whether
apex is installed is the machine's. A call whose ``if`` cannot be decided, a ``cast_model_type`` written (it
overrides the level's weight dtype) or a level not among O0-O3 give nothing.

Under O1 two more facts, for the estimator (``preflight/estimate/apex_amp.py``): ``precision.amp_impl`` "apex"
(apex patches torch's functions, its fp32 list holds GELU: ``apex/amp/lists/functional_overrides.py`` line 40 at
59978d5e) and ``model.gelu_at_call`` True where the project's own code builds ``nn.GELU`` or calls ``F.gelu``
(the reference Swin Transformer's ``Mlp(..., act_layer=nn.GELU)``, microsoft/Swin-Transformer b05e621
``models/swin_transformer.py:15``), so the patch reaches the model's GELU; not when the project also loads a
transformers model (``from_pretrained``), whose GELUActivation binds the function when it is built.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CACHE = "apex_amp.found"
_MODES = {"O0": "fp32", "O1": "amp_fp16", "O2": "fp16", "O3": "fp16"}
_WHAT = {"O0": "FP32 training", "O1": "FP32 weights, FP16 compute where safe (patched functions, loss scaling)",
         "O2": "FP16 weights with FP32 master weights in the optimizer", "O3": "pure FP16"}


_GELU_NAMES = ("torch.nn.GELU", "torch.nn.functional.gelu")


def _gelu_names(tree: ast.AST) -> Optional[ast.AST]:
    """The first node that names ``nn.GELU`` or ``F.gelu`` (a value or a call), import aliases resolved."""
    from preflight.analysis.syntax import dotted_name

    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        name = dotted_name(node) if isinstance(node, (ast.Attribute, ast.Name)) else None
        if not name:
            continue
        head, _, rest = name.partition(".")
        base = aliases.get(head)
        if (f"{base}.{rest}" if base and rest else base or name) in _GELU_NAMES:
            return node
    return None


def _gelu_at_call(project: Project) -> Optional[Source]:
    """Where the project's own code (its scripts and the local modules they import, parsed, never run)
    names ``nn.GELU`` or ``F.gelu``, when no script loads a transformers model; None otherwise."""
    from preflight.analysis.syntax import dotted_name
    from preflight.local_trees import script_and_imported_trees, shown_path

    first: Optional[Source] = None
    root = Path(str(project.root)) if project.root else None
    for script in project.scripts:
        if script.tree is None:
            continue
        idx = project.index(script)
        if any(str(site.qualified or "").startswith("transformers.")
               and str(site.qualified).endswith("from_pretrained") for site in idx.calls):
            return None  # a transformers model: its GELUActivation is bound when built
        if first is not None:
            continue
        trees = script_and_imported_trees(project, script, idx)
        for tree, path in trees:
            node = _gelu_names(tree)
            if node is None:
                continue
            detail = (f"{dotted_name(node)}: the model's GELU calls torch.nn.functional.gelu when it runs "
                      "(apex O1 patches it to fp32)")
            if path is None:
                first = project.source(script, node, "code", detail=detail)
            else:
                first = Source("code", shown_path(path, root), getattr(node, "lineno", None), dotted_name(node), detail)
            break
    return first


def _level(idx: Any, site: Any) -> Optional[tuple[str, Optional[Any]]]:
    """The opt level the call uses and how it was resolved (None: the default ``O1``)."""
    expr = site.arg(3, "opt_level")
    if expr is None:
        if any(kw.arg is None for kw in site.call.keywords) or any(isinstance(a, ast.Starred)
                                                                   for a in site.call.args):
            return None  # **options may hold opt_level
        return "O1", None
    resolved = idx.resolve(expr)
    if resolved is None or not isinstance(resolved.value, str):
        return None
    level = resolved.value.strip().upper()  # apex itself accepts only "O0".."O3"
    return (level, resolved) if level in _MODES else None


def _find(project: Project) -> Optional[tuple[str, Source, Optional[str]]]:
    found: list[tuple[str, Source, Optional[str]]] = []
    for script in project.scripts:
        if script.tree is None or "amp" not in script.source.text:
            continue
        idx = project.index(script)
        for site in idx.calls:
            if site.qualified != "apex.amp.initialize":
                continue
            if idx.runs(site) is not True:
                continue
            enabled = site.arg(2, "enabled")
            if enabled is not None and not (isinstance(enabled, ast.Constant) and enabled.value is True):
                continue  # enabled=<a value>: not read
            if site.kwarg("cast_model_type") is not None:
                continue
            got = _level(idx, site)
            if got is None:
                continue
            level, resolved = got
            how = "opt_level not written: apex's default O1" if resolved is None else \
                f"opt_level {level}" + (f": {resolved.detail}" if resolved.detail else "")
            detail = f"{site.label}(...): apex AMP {level}, {_WHAT[level]} ({how})"
            if resolved is not None and resolved.kind == "cli":
                source = Source("cli", None, None, resolved.key, detail)
            else:
                source = project.source(script, site.call, "code", detail=detail)
            found.append((_MODES[level], source, resolved.cap if resolved is not None else None))
    if len({mode for mode, _s, _c in found}) != 1:
        return None  # none, or calls that disagree
    return found[0]


@register_adapter
class ApexAmpAdapter(Adapter):
    name = "apex_amp"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """The reading is done here, so that an adapter that writes nothing is not named among those detected."""
        found = _find(project) if any("apex" in s.source.text for s in project.scripts) else None
        project.cache[_CACHE] = found
        return found is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None)
        if found is None:
            return
        mode, source, cap = found
        confidence = "low" if cap == "low" else "medium"
        self.add_checked(plan, "precision.mode", mode, source, confidence, 0)
        if mode != "amp_fp16":
            return
        self.add_checked(plan, "precision.amp_impl", "apex", source, confidence, 0)
        gelu = _gelu_at_call(project)
        if gelu is not None:
            self.add_checked(plan, "model.gelu_at_call", True, gelu, "medium", 0)
