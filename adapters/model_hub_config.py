"""A model built from scratch out of a Hugging Face Hub config: the Hub id is the model, its size
read offline.

Pretraining projects take only the architecture from the Hub and initialise the weights
themselves (LLM360/amber-train @ 64bc595 ``main.py:27,30,147-148``: ``MODEL_SIZE = '7b'``,
``HF_MODEL_NAME_OR_PATH = f'huggyllama/llama-{MODEL_SIZE}'``, then ``model = LlamaForCausalLM(
config=AutoConfig.from_pretrained(HF_MODEL_NAME_OR_PATH))``). Read, never imported:

- a model construction that runs: ``Model(config=C.from_pretrained(X))``, ``Model(C.from_pretrained(X))``,
  ``Auto*.from_config(C.from_pretrained(X))``, or ``cfg = C.from_pretrained(X)`` bound once and given to
  ``Model(cfg)``/``Model(config=cfg)``/``from_config(cfg)`` (``C`` a ``...Config`` class);
- ``X`` resolved by the script index (launch line, declared default, code), or an f-string whose parts
  all resolve (module constants);
- ``X`` a Hub id (``owner/name``) that is no file or folder beside the job (a local config file is
  ``model_config_file``'s): ``model.ref`` ``X``, medium (the architecture; the weights are new);
- ``model.num_parameters``: the architecture lookup the estimator uses, offline (the built-in
  catalog, then the local Hugging Face cache; never the network), medium, or low when the code
  changes the config after loading it. Not found there: no count, and a note says so.

A config given to ``from_pretrained`` of a checkpoint (``M.from_pretrained(ckpt, config=cfg)``) builds
nothing from it (the checkpoint's weights decide) and states nothing here.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def _config_load_call(node: ast.AST) -> Optional[ast.Call]:
    """``C.from_pretrained(X)`` with ``C`` a ``...Config`` class (``AutoConfig``, ``LlamaConfig``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "from_pretrained"):
        return None
    owner = node.func.value
    last = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
    return node if last.endswith("Config") else None


def _builds(call: ast.Call) -> Optional[ast.expr]:
    """The config argument of a model construction: ``X.from_config(c)``, ``Model(c)``, ``Model(config=c)``
    (``Model`` a capitalised class that is no config, tokenizer or processor; never ``from_pretrained``)."""
    func = call.func
    given = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "config")]
    if not given:
        return None
    if isinstance(func, ast.Attribute) and func.attr == "from_config":
        return given[0]
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if last[:1].isupper() and not last.endswith(("Config", "Tokenizer", "Processor")):
        return given[0]
    return None


def _text(idx: Any, expr: Optional[ast.AST], depth: int = 0) -> Optional[tuple[str, Optional[int]]]:
    """The string ``expr`` holds (value, line where it is written), or None."""
    if expr is None or depth > 4:
        return None
    got = idx.resolve(expr)
    if got is not None:
        return (got.value, got.line) if isinstance(got.value, str) else None
    if isinstance(expr, ast.Name):
        bound = idx.assigns.get(expr.id, [])
        if len(bound) == 1 and bound[0] is not None:
            return _text(idx, bound[0], depth + 1)
        return None
    if isinstance(expr, ast.JoinedStr):
        parts: list[str] = []
        for part in expr.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                parts.append(part.value)
            elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
                inner = idx.resolve(part.value)
                if inner is None or isinstance(inner.value, bool) or not isinstance(inner.value, (str, int)):
                    return None
                parts.append(str(inner.value))
            else:
                return None
        return "".join(parts), getattr(expr, "lineno", None)
    return None


def _local(project: Project, script: Any, value: str) -> bool:
    """Whether ``value`` names a file or folder beside the job (then it is no Hub id)."""
    bases = [Path(project.root), Path(os.getcwd())]
    if script.source.path is not None:
        bases.append(Path(str(script.source.path)).parent)
    return any((Path(value).expanduser() if os.path.isabs(value) else b / value).exists() for b in bases)


@register_adapter
class ModelHubConfigAdapter(Adapter):
    name = "model_hub_config"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and "Config.from_pretrained" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if isinstance(script.tree, ast.Module) and "Config.from_pretrained" in script.source.text \
                    and self._script(project, plan, script):
                return

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> bool:
        idx = project.index(script)
        for site in idx.calls:
            if idx.runs(site) is False:
                continue
            arg = _builds(site.call)
            if arg is None:
                continue
            load = _config_load_call(arg)
            var: Optional[str] = None
            if load is None and isinstance(arg, ast.Name):
                var = arg.id
                bound = idx.assigns.get(var, [])
                if len(bound) != 1 or bound[0] is None:
                    continue
                load = _config_load_call(bound[0])
            if load is None:
                continue
            first = load.args[0] if load.args else next(
                (k.value for k in load.keywords if k.arg == "pretrained_model_name_or_path"), None)
            found = _text(idx, first)
            if found is None:
                continue
            ref = found[0].strip()
            if not _HUB_ID.match(ref) or _local(project, script, ref):
                continue
            from preflight.adapters.model_config_file import _changed

            changed = var is not None and _changed(script.tree, var)
            shown = f"{script.source.display}:{load.lineno}"
            detail = (f"{site.label}() at line {site.line} builds the model from the Hub config {ref} "
                      f"({shown}): new weights of that architecture")
            self.add_checked(plan, "model.ref", ref, Source("code", str(script.source.display), load.lineno,
                                                             None, detail), "medium")
            self._count(plan, ref, script, load.lineno, detail, changed)
            return True
        return False

    def _count(self, plan: TrainingPlan, ref: str, script: Any, line: int, detail: str, changed: bool) -> None:
        """The architecture's parameter count, offline (catalog, then the local Hub cache)."""
        from preflight.estimate import resolve_architecture

        try:
            arch = resolve_architecture(ref, online=False)
        except Exception as exc:  # InputError, a Hub cache that cannot be read: the count stays unknown
            self.note(plan, f"{script.source.display}:{line}: the Hub config {ref} is not in the catalog or the "
                            f"local Hugging Face cache ({str(exc).splitlines()[0] if str(exc) else 'not found'}); "
                            "its size is not counted offline")
            return
        total = getattr(arch, "params_total", None)
        if not isinstance(total, int) or isinstance(total, bool) or total <= 0:
            return
        text = f"{detail}; {ref} counts {total:,} parameters"
        if changed:
            text += "; the code changes the config after loading it"
        self.add_checked(plan, "model.num_parameters", total,
                         Source("code", str(script.source.display), line, None, text),
                         "low" if changed else "medium")
