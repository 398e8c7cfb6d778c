"""The optimizer a training script gets from the project's own code: karpathy/minGPT
``mingpt/trainer.py:65`` ``model.configure_optimizers(config)`` -> ``mingpt/model.py:257``
``torch.optim.AdamW(...)``; microsoft/LoRA ``examples/NLG/src/gpt2_ft.py:329``
``create_adam_optimizer_from_args(lm_net, args)`` -> ``src/optimizer.py:316-320`` the project's
``class AdamW(Optimizer)``.

Read (never imported): the local modules the script imports, three imports deep
(:func:`preflight.adapters.pytorch_local._imported_up`). When the script builds no optimizer
itself and those modules construct exactly one optimizer class (a ``torch.optim`` class, a
bitsandbytes/apex/DeepSpeed optimizer, or a local class deriving from ``Optimizer``),
that class is the optimizer (medium). Optimizers built in functions that no file of the job
calls (a module's other helper) are left out; a class picked at run time
(``getattr(torch.optim, name)(...)``) counts as another class, so a helper's one literal optimizer
beside it (a centre loss's ``SGD``) is not taken for the model's.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.import_names import import_names
from preflight.adapters.module_main_block import main_block_nodes

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import nodes_of, parse_file

_MAX_BYTES = 500_000
_LIBS = ("bitsandbytes", "apex", "deepspeed", "torchao")


def _imports(tree: ast.AST) -> dict[str, str]:
    return import_names(nodes_of(tree))


def _local_optimizer_classes(tree: ast.AST) -> set[str]:
    out = set()
    for node in nodes_of(tree):
        if isinstance(node, ast.ClassDef) and any((dotted_name(b) or "").rsplit(".", 1)[-1] == "Optimizer"
                                                  for b in node.bases):
            out.add(node.name)
    return out


def _enclosing(tree: ast.AST) -> dict[int, Optional[str]]:
    """id(call) -> name of the innermost function around it. A call in a class's ``__init__`` is
    reached by building the class (openai/improved-diffusion @ 1bc7bbb ``train_util.py:82`` ``self.opt =
    AdamW(...)`` in ``TrainLoop.__init__``, built by ``scripts/image_train.py``): its name is the class's.
    One in a LightningModule's ``configure_optimizers`` is reached by Lightning itself: ``HOOK``. See
    :mod:`preflight.adapters.implicit_calls`."""
    from preflight.adapters.implicit_calls import implicit_callers

    out: dict[int, Optional[str]] = {}
    for fn in nodes_of(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    out[id(node)] = fn.name  # inner functions are walked later and overwrite
    out.update(implicit_callers(tree, ("configure_optimizers",)))
    return out


def _called(tree: ast.AST) -> set[str]:
    names = set()
    for node in nodes_of(tree):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "")
    return names


DYNAMIC = "<chosen at run time>"


def _dynamic_optimizer(node: ast.Call, imports: dict[str, str]) -> bool:
    """``getattr(torch.optim, cfg.SOLVER.OPTIMIZER_NAME)(params)`` (michuanhaohao/reid-strong-baseline
    solver/build.py:40-42 @ 3da7e6f): an optimizer whose class a value picks at run time."""
    inner = node.func
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "getattr"
            and len(inner.args) >= 2):
        return False
    owner = dotted_name(inner.args[0]) or ""
    head, _, rest = owner.partition(".")
    qualified = imports.get(head, head) + (f".{rest}" if rest else "")
    return qualified == "torch.optim" or qualified.endswith(".optim") or qualified == "optim"


def _transformers_optimizer(parts: list[str]) -> bool:
    """transformers' own optimizer classes (removed in 5.0), imported where they are used:
    yxuansu/SimCTG @ 3a91449 ``document_generation/trainer.py:56-57`` ``from transformers.optimization
    import AdamW`` inside ``model_training``."""
    return parts[0] == "transformers" and parts[-1] in ("AdamW", "Adafactor") and \
        (len(parts) == 2 or (len(parts) == 3 and parts[1] == "optimization"))


def optimizers_in(tree: ast.AST) -> list[tuple[str, int, Optional[str]]]:
    """(class name, line, enclosing function) of each optimizer constructed in a module."""
    imports = _imports(tree)
    local = _local_optimizer_classes(tree)
    enclosing = _enclosing(tree)
    out: list[tuple[str, int, Optional[str]]] = []
    demo = main_block_nodes(tree)  # a module's own self-test never runs when it is imported
    for node in nodes_of(tree):
        if not isinstance(node, ast.Call) or id(node) in demo:
            continue
        if _dynamic_optimizer(node, imports):
            out.append((DYNAMIC, node.lineno, enclosing.get(id(node))))
            continue
        name = dotted_name(node.func)
        if not name:
            continue
        head, _, rest = name.partition(".")
        qualified = imports.get(head, head) + (f".{rest}" if rest else "")
        if qualified.endswith("optim.ZeroRedundancyOptimizer"):
            # the class it wraps is built on every rank (sail-sg/MDT @ 7d26c21 masked_diffusion/train_util.py:95
            # ``ZeroRedundancyOptimizer(..., optimizer_class=Adan)`` beside a plain ``AdamW`` arm): that class
            # counts, so one literal optimizer of another arm is not taken for the only one
            inner = next((dotted_name(k.value) for k in node.keywords if k.arg == "optimizer_class"), None)
            out.append(((inner or DYNAMIC).rsplit(".", 1)[-1], node.lineno, enclosing.get(id(node))))
            continue
        parts = qualified.split(".")
        last = parts[-1]
        if not last[:1].isupper() or last == "Optimizer":
            continue
        if (parts[:2] == ["torch", "optim"] and len(parts) == 3) or (parts[0] in _LIBS and "optim" in qualified.lower()) \
                or (len(parts) == 1 and last in local) or _transformers_optimizer(parts):
            out.append((last, node.lineno, enclosing.get(id(node))))
    return out


def local_optimizer(script_tree: ast.AST, script_path: Path, root: Optional[Path]) -> Optional[tuple[str, Path, int]]:
    """(class, file, line) of the one optimizer class the script's local modules construct."""
    from preflight.adapters.pytorch_local import _imported_up

    trees: list[tuple[Path, ast.AST]] = []
    for path in _imported_up(script_tree, script_path.resolve().parent, root):
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            trees.append((path, parse_file(path)))
        except (OSError, SyntaxError, ValueError):
            continue
    called = _called(script_tree).union(*(_called(t) for _p, t in trees))
    from preflight.adapters.implicit_calls import HOOK, hook_classes

    if sum(hook_classes(t, ("configure_optimizers",)) for _p, t in trees) == 1:
        called.add(HOOK)  # one LightningModule with its own optimizer hook: Lightning calls that one
    found: list[tuple[str, Path, int]] = []
    for path, tree in trees:
        # an optimizer built in a function nobody calls (another helper of the module) is not the job's
        found.extend((name, path, line) for name, line, fn in optimizers_in(tree) if fn is None or fn in called)
    if len({f[0] for f in found}) != 1 or found[0][0] == DYNAMIC:
        return None  # several classes, or one picked by a value at run time: not known here
    return found[0]


def _loop_in_local_modules(script_tree: ast.AST, script_path: Path, root: Optional[Path]) -> bool:
    """A ``.backward(`` in a local module the script imports (karpathy/minGPT projects/chargpt/chargpt.py
    ``trainer.run()`` -> mingpt/trainer.py:99 ``self.loss.backward()``): the loop is the project's own."""
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.sources import read_text_limited

    for path in _imported_up(script_tree, script_path.resolve().parent, root):
        try:
            text = read_text_limited(path, _MAX_BYTES, errors="replace")
            # a LightningModule's training_step: Lightning runs the backward (kuleshov-group/mdlm @ c112c52
            # diffusion.py), its configure_optimizers hook builds the optimizer (implicit_calls.py)
            if ".backward(" in text or "def training_step(" in text:
                return True
        except (OSError, ValueError):
            continue
    return False


def optimizer_from_local_modules(pass_: Any) -> None:
    """The pytorch adapter's script pass found no optimizer in the script: the one its local
    modules build, as a medium fact pointing at that file and line."""
    import os

    from preflight.plan import Source

    script = pass_.script
    if script.source.path is None or script.tree is None:
        return
    root = Path(str(pass_.project.root)) if pass_.project.root else None
    if "backward" not in script.source.text and ".step(" not in script.source.text \
            and not _loop_in_local_modules(script.tree, Path(str(script.source.path)), root):
        return  # no training loop of the project's own
    from preflight.adapters.taken_arms import taken_tree

    # the modules this launch imports: an ``if`` arm the launch line decides against imports none
    got = local_optimizer(taken_tree(pass_.project.index(script), script.tree), Path(str(script.source.path)), root)
    if got is None:
        return
    name, path, line = got
    shown = os.path.relpath(path, root) if root is not None else path.name
    pass_.add("optimizer.name", name,
              Source("code", shown, line, None, f"{name}(...) in {shown}, a local module "
                     f"{script.source.display} imports (the only optimizer built there)"), "medium")
