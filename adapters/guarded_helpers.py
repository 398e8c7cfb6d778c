"""LoRA applied by a method of the project's own model class, called from the entry script
under options the launch line decides (OpenGVLab/InternVL internvl_chat_finetune.py:1007-1008
``if model_args.use_llm_lora: model.wrap_llm_lora(r=model_args.use_llm_lora, ...)``, with
``def wrap_llm_lora(self, r=128, ...)`` building ``LoraConfig(r=r, ...)`` and
``get_peft_model`` in ``internvl/model/internvl_chat/modeling_internvl_chat.py``), or by a function of a
project package that swaps in the project's own low-rank layer (cloneofsimo/lora @ d84074b
``training_scripts/train_lora_dreambooth.py:33-35,596-598`` ``inject_trainable_lora(unet, r=args.lora_rank)``
from ``lora_diffusion/lora.py:255-309``, the package one folder above the folder the job runs from).

The defining module is found by the entry's absolute imports of project packages (searched
from the script's folder up to the repository root, and ``src/``), following a package
``__init__``'s relative imports one level; nothing is imported or run. A method counts as a LoRA
helper when its body builds ``LoraConfig`` and calls ``get_peft_model``; its rank is the
``r=`` given to ``LoraConfig`` when that is one of the method's parameters (then the call's
argument, else the parameter's default) or a literal.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

from preflight.analysis.syntax import dotted_name
from preflight.delegate import _bases
from preflight.local_trees import nodes_of, parse_file
from preflight.sources import read_text_limited

_MAX_BYTES = 500_000
_MAX_FILES = 24
_LIBRARIES = ("torch", "transformers", "peft", "trl", "accelerate", "deepspeed", "datasets", "numpy")


def _resolve(module: str, bases: list[Path]) -> Optional[Path]:
    rel = module.replace(".", "/")
    for base in bases:
        for cand in (base / f"{rel}.py", base / rel / "__init__.py"):
            try:
                if cand.is_file() and os.path.getsize(cand) <= _MAX_BYTES:
                    return cand
            except OSError:
                continue
    return None


def project_modules(tree: ast.Module, script: Path) -> list[Path]:
    """Files of the project's own packages that ``tree`` imports (and, for a package, the
    modules its ``__init__`` imports relatively)."""
    bases = _bases(script)
    out: list[Path] = []
    for node in nodes_of(tree):
        if not (isinstance(node, ast.ImportFrom) and node.module and not node.level):
            continue
        if node.module.split(".")[0] in _LIBRARIES:
            continue
        found = _resolve(node.module, bases)
        if found is None or found in out or found.resolve() == script.resolve():
            continue
        out.append(found)
        if found.name == "__init__.py":
            try:
                init = parse_file(found, _MAX_BYTES)
            except (SyntaxError, ValueError, OSError, RecursionError):
                continue
            for sub in init.body:
                if isinstance(sub, ast.ImportFrom) and sub.level == 1 and sub.module:
                    cand = found.parent / f"{sub.module.replace('.', '/')}.py"
                    if cand.is_file() and cand not in out:
                        out.append(cand)
        if len(out) >= _MAX_FILES:
            break
    return out[:_MAX_FILES]


def _injectors(path: Path, text: str) -> dict[str, LoraHelper]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    layers: dict[str, tuple[ast.ClassDef, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            param = _low_rank_param(node)
            if param is not None:
                layers[node.name] = (node, param)
    out: dict[str, LoraHelper] = {}
    if not layers:
        return out
    for name, helper in _holders(tree, layers).items():
        helper.path = path
        out[name] = helper
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        found = _injector(fn, layers)
        if found is None:
            continue
        call, given = found
        helper = LoraHelper(fn, path, call)
        params = [a.arg for a in fn.args.args]
        helper.rank_param = given.id if isinstance(given, ast.Name) and given.id in params else None
        helper.rank_literal = given.value if isinstance(given, ast.Constant) and isinstance(given.value, int) \
            and not isinstance(given.value, bool) else None
        if helper.rank_param is None and helper.rank_literal is None:
            continue
        out[fn.name] = helper
    return out


def _zero_up(cls: ast.ClassDef, param: str) -> bool:
    """``__init__`` zero-initialises the weight of its up projection from ``param`` (``nn.init.zeros_(
    self.up.weight)``, ``self.lora_up.weight.data.zero_()``): LoRA's start from the unchanged model
    (the adapter adds nothing before it trains), which a plain two-layer MLP never does."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return False
    ups: set[str] = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute) \
                and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self" \
                and isinstance(node.value, ast.Call) and len(node.value.args) >= 1 \
                and (dotted_name(node.value.func) or "").rsplit(".", 1)[-1] in ("Linear", "Conv2d") \
                and isinstance(node.value.args[0], ast.Name) and node.value.args[0].id == param:
            ups.add(node.targets[0].attr)
    for node in ast.walk(init):
        if not isinstance(node, ast.Call):
            continue
        name = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
        target = node.args[0] if name in ("zeros_", "constant_") and node.args else \
            node.func.value if name == "zero_" and isinstance(node.func, ast.Attribute) else None
        if name == "constant_" and not (len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
                                        and node.args[1].value == 0):
            continue
        if isinstance(target, ast.Attribute) and target.attr == "data":
            target = target.value
        if isinstance(target, ast.Attribute) and target.attr == "weight" and isinstance(target.value, ast.Attribute) \
                and isinstance(target.value.value, ast.Name) and target.value.value.id == "self" \
                and target.value.attr in ups:
            return True
    return False


def _holders(tree: ast.Module, layers: dict[str, tuple[ast.ClassDef, str]]) -> dict[str, LoraHelper]:
    """Classes that build a zero-initialised low-rank layer of the module with a rank they take
    (XLabs-AI/x-flux @ 4749542 ``src/flux/modules/layers.py:86-98,177-183``: ``DoubleStreamBlockLoraProcessor
    (dim, rank=4)`` builds ``LoRALinearLayer(dim, dim * 3, rank, network_alpha)``, whose ``up`` projection
    from ``rank`` starts at zero): building one applies LoRA. The class's ``__init__`` is the helper."""
    zero = {name: item for name, item in layers.items() if _zero_up(*item)}
    out: dict[str, LoraHelper] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name in layers \
                or not any((dotted_name(b) or "").endswith("Module") for b in node.bases):
            continue
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is None:
            continue
        found = _injector(init, zero)
        if found is None:
            continue
        call, given = found
        params = [a.arg for a in init.args.args][1:]
        if not isinstance(given, ast.Name) or given.id not in params:
            continue
        helper = LoraHelper(init, Path(""), call)
        helper.rank_param, helper.rank_literal, helper.klass = given.id, None, node.name
        out[node.name] = helper
    return out


class LoraHelper:
    """A method that applies LoRA: its parameters and where ``r`` comes from."""

    klass: Optional[str] = None  # a class whose construction applies LoRA (its ``__init__`` is ``fn``)

    def __init__(self, fn: ast.FunctionDef, path: Path, lora: ast.Call) -> None:
        self.fn, self.path, self.lora = fn, path, lora
        r = next((k.value for k in lora.keywords if k.arg == "r"), None)
        self.rank_param = r.id if isinstance(r, ast.Name) else None
        self.rank_literal = r.value if isinstance(r, ast.Constant) and isinstance(r.value, int) else None

    def rank_default(self) -> Optional[int]:
        if self.rank_param is None:
            return self.rank_literal
        args = self.fn.args.args
        defaults = [None] * (len(args) - len(self.fn.args.defaults)) + list(self.fn.args.defaults)
        for a, d in zip(args, defaults):
            if a.arg == self.rank_param and isinstance(d, ast.Constant) and isinstance(d.value, int):
                return d.value
        return None

    def rank_arg(self, call: ast.Call) -> Optional[ast.expr]:
        """The expression the call passes for the rank parameter (None: the default applies)."""
        if self.rank_param is None:
            return None
        given = next((k.value for k in call.keywords if k.arg == self.rank_param), None)
        if given is not None:
            return given
        names = [a.arg for a in self.fn.args.args]
        if names and names[0] == "self":
            names = names[1:]
        if self.rank_param in names and names.index(self.rank_param) < len(call.args):
            return call.args[names.index(self.rank_param)]
        return None


def _low_rank_param(cls: ast.ClassDef) -> Optional[str]:
    """The ``__init__`` parameter ``P`` of an ``nn.Module`` subclass whose ``__init__`` builds a down
    projection to ``P`` and an up projection from it: ``nn.Linear(x, P, ...)`` and ``nn.Linear(P, y, ...)``
    (or ``Conv2d``): a low-rank adapter layer of rank ``P`` (cloneofsimo/lora @ d84074b
    ``lora_diffusion/lora.py:21-37`` ``LoraInjectedLinear``: ``lora_down = nn.Linear(in_features, r)``,
    ``lora_up = nn.Linear(r, out_features)``)."""
    if not any((dotted_name(b) or "").endswith("Module") for b in cls.bases):
        return None
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)}
    ins: set[str] = set()
    outs: set[str] = set()
    for call in ast.walk(init):
        if not isinstance(call, ast.Call) or (dotted_name(call.func) or "").rsplit(".", 1)[-1] not in ("Linear",
                                                                                                      "Conv2d"):
            continue
        if len(call.args) >= 2:
            first, second = call.args[0], call.args[1]
            if isinstance(second, ast.Name) and second.id in params:
                outs.add(second.id)
            if isinstance(first, ast.Name) and first.id in params:
                ins.add(first.id)
    both = ins & outs
    return next(iter(both)) if len(both) == 1 else None


def _injector(fn: ast.FunctionDef, layers: dict[str, tuple[ast.ClassDef, str]]) -> Optional[tuple[ast.Call, ast.AST]]:
    """(the layer's construction, what it is given as the rank) when ``fn`` builds one of ``layers``."""
    for call in ast.walk(fn):
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id not in layers:
            continue
        cls, param = layers[call.func.id]
        init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        given = next((k.value for k in call.keywords if k.arg == param), None)
        names = [a.arg for a in init.args.args][1:]
        if given is None and param in names and names.index(param) < len(call.args):
            given = call.args[names.index(param)]
        if given is not None:
            return call, given
    return None


def lora_helpers(paths: list[Path]) -> dict[str, LoraHelper]:
    """Method name -> helper, for methods (of classes) that build a LoraConfig and call
    get_peft_model, and module-level functions that build the project's own low-rank adapter layer
    (:func:`_low_rank_param`) with a rank they take or a literal; a name defined twice differently is
    dropped."""
    out: dict[str, LoraHelper] = {}
    dropped: set[str] = set()
    for path in paths:
        try:
            text = read_text_limited(path, _MAX_BYTES, errors="replace")
        except (OSError, ValueError):
            continue
        if ("Linear(" in text or "Conv2d(" in text) and "def " in text:
            for name, helper in _injectors(path, text).items():
                if name in out:
                    dropped.add(name)
                out[name] = helper
        if "LoraConfig" not in text or "get_peft_model" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            continue
        for cls in nodes_of(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call)]
                names = {(c.func.id if isinstance(c.func, ast.Name) else
                          c.func.attr if isinstance(c.func, ast.Attribute) else "") for c in calls}
                lora = next((c for c in calls if isinstance(c.func, ast.Name) and c.func.id == "LoraConfig"), None)
                if lora is None or "get_peft_model" not in names:
                    continue
                if fn.name in out:
                    dropped.add(fn.name)
                out[fn.name] = LoraHelper(fn, path, lora)
    for name in dropped:
        out.pop(name, None)
    return out
