"""Thin entry scripts: the job's code is the local module the launched file hands over to.

Real launch scripts often run a file that only imports a function from the project's own
package and calls it: LLaVA ``llava/train/train_mem.py`` is ``from llava.train.train import
train`` then ``train(attn_implementation="flash_attention_2")``; llama-cookbook
``getting-started/finetuning/finetuning.py`` is ``from llama_cookbook.finetuning import main``
then ``fire.Fire(main)`` (the package under ``src/``). Everything the plan needs (the
argument parser, the model load, the LoRA, the Trainer) is in that module. This finds it,
without importing anything, so that it is audited with the launch line's arguments.

A file is thin when, outside ``if __name__ == "__main__":``, it holds only imports, docstrings
and plain assignments, defines no function or class, and calls an imported name (directly,
or through ``fire.Fire(name)``) whose module is a file of the project (when it calls several, the
last: the ones before it set things up, e.g. a monkey patch): searched from the
script's folder up to the repository root (a ``.git`` folder, at most 5 levels), and in
``src/`` of each of those folders (the src layout).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

from preflight.analysis.syntax import dotted_name

_MAX_BYTES = 1_000_000
_LIBRARIES = ("torch", "transformers", "trl", "peft", "accelerate", "deepspeed", "datasets", "lightning",
              "pytorch_lightning", "fire", "click", "hydra", "os", "sys")


_OWN_WORK = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef)


def _main_block(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Compare) \
        and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"


def _wrapper_body(tree: ast.Module) -> list[ast.stmt]:
    """The body of the one function a file defines when its ``__main__`` block only calls that function:
    facebookresearch/mae_st @ c5dec1b ``run_pretrain.py:9-19`` (``invoke_main()`` parses
    ``get_args_parser()`` of ``main_pretrain``, makes the output folder and calls its ``main(args)``; the same
    wrapper over ``main_finetune`` in its run_finetune.py and in another public project's entry point, the
    ``def invoke_main() -> None`` idiom of Meta's internal launcher). Empty otherwise. An ``if`` without
    loops, returns or definitions (the output folder made) is no work of its own; a loop is."""
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))]
    mains = [n for n in tree.body if _main_block(n)]
    if len(defs) != 1 or not isinstance(defs[0], ast.FunctionDef) or len(mains) != 1:
        return []
    calls = [s for s in mains[0].body  # type: ignore[attr-defined]
             if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(calls) != 1 or not isinstance(calls[0], ast.Expr) or not isinstance(calls[0].value, ast.Call) \
            or not isinstance(calls[0].value.func, ast.Name) or calls[0].value.func.id != defs[0].name:
        return []
    body = [s for s in defs[0].body if not isinstance(s, ast.If) or any(
        isinstance(n, (*_OWN_WORK, ast.Return)) for n in ast.walk(s) if n is not s)]
    return [s for s in body if not isinstance(s, (ast.Assign, ast.AnnAssign))]


def _called(tree: ast.Module) -> list[str]:
    """Names the file calls as its work: ``f(...)`` or ``fire.Fire(f)`` at the top level or
    in its ``__main__`` block (or in the one function that block calls, :func:`_wrapper_body`); empty
    when the file is not thin."""
    out: list[str] = []
    body: list[ast.stmt] = []
    wrapped = _wrapper_body(tree)
    for node in tree.body:
        if wrapped and _main_block(node):
            body.extend(wrapped)
        elif wrapped and isinstance(node, ast.FunctionDef):
            continue
        elif _main_block(node):
            body.extend(node.body)  # type: ignore[attr-defined]
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)):
            continue
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # docstring
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            body.append(node)
        else:
            return []  # a function, a class, a loop...: the file does its own work
    if any(isinstance(stmt, _OWN_WORK) for stmt in body):
        # a ``__main__`` block with its own loops or branches does its own work (thuml/Time-Series-Library
        # @ 4e938a1 run.py:9-250: the options, ``for ii in range(args.itr): exp = Exp(args); exp.train(...)``;
        # its one imported call ``print_args(args)`` only prints)
        return []
    for stmt in body:
        if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
            continue
        call = stmt.value
        name = dotted_name(call.func) or ""
        if name.rsplit(".", 1)[-1] == "Fire" and call.args and isinstance(call.args[0], ast.Name):
            out.append(call.args[0].id)
        elif isinstance(call.func, ast.Name):
            out.append(call.func.id)
    return out


def _bases(script: Path) -> list[Path]:
    bases: list[Path] = []
    d = script.resolve().parent
    for _ in range(5):
        bases.append(d)
        if (d / ".git").exists() or d.parent == d:
            break
        d = d.parent
    return bases + [b / "src" for b in bases if (b / "src").is_dir()]


def delegate_of(tree: ast.Module, script: Path) -> Optional[Path]:
    """The project file a thin ``script`` hands its work to, or None."""
    called = _called(tree)
    if not called:
        return None
    imported: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                imported[alias.asname or alias.name] = node.module
    # the last call first: ``replace_llama_attn_with_flash_attn()`` then ``train()`` (Video-ChatGPT
    # ``video_chatgpt/train/train_mem.py``, FastChat, MobileVLM): a patch applied before the work
    for name in reversed(called):
        module = imported.get(name)
        if module is None or module.split(".")[0] in _LIBRARIES:
            continue
        found = module_file(module, script)
        if found is not None:
            return found
    return None


def module_file(module: str, script: Path) -> Optional[Path]:
    """The project file of the dotted ``module`` (``pkg/mod.py`` or ``pkg/mod/__init__.py``), looked up
    from ``script``'s folder up to the repository root and in their ``src/`` folders; never ``script``."""
    from preflight.adapters.target_class import module_file as lookup

    found = lookup(module, _bases(script))
    try:
        if found is not None and os.path.getsize(found) <= _MAX_BYTES and found.resolve() != script.resolve():
            return found
    except OSError:
        pass
    return None


def _imports_of(nodes: list[Optional[ast.AST]]) -> dict[str, tuple[str, int, str]]:
    """bound name -> (module, level, imported name) of each ``from M import name [as bound]`` in ``nodes``."""
    out: dict[str, tuple[str, int, str]] = {}
    for top in nodes:
        for node in ast.walk(top) if top is not None else ():
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    out[alias.asname or alias.name] = (node.module or "", node.level, alias.name)
    return out


def _modules_of(nodes: list[Optional[ast.AST]]) -> dict[str, str]:
    """bound name -> module of each ``import M [as bound]`` in ``nodes`` (a dotted ``import a.b`` binds ``a``:
    left out)."""
    out: dict[str, str] = {}
    for top in nodes:
        for node in ast.walk(top) if top is not None else ():
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname is not None or "." not in alias.name:
                        out[alias.asname or alias.name] = alias.name
    return out


def _reexported(init: Path, name: str) -> Path:
    """The sibling module a package's ``__init__.py`` re-exports ``name`` from (``from .train import main``),
    else ``init`` itself."""
    from preflight.local_trees import parse_project_file

    tree = parse_project_file(init, _MAX_BYTES)
    got = _imports_of([tree]).get(name)
    if got is not None and got[1] == 1 and got[0]:
        cand = init.parent / f"{got[0].replace('.', '/')}.py"
        if cand.is_file():
            return cand
    return init


def submitted_callee(tree: ast.Module, script: Path) -> Optional[Path]:
    """The project module whose function a submitit launcher's job runs: a class of ``script`` whose
    ``__call__`` calls a function imported from a project module (facebookresearch/dinov2 @ b8931f7
    ``dinov2/run/train/train.py:18-25``: ``Trainer.__call__`` runs ``from dinov2.train import main as
    train_main`` then ``train_main(self.args)``, the class handed to ``submit_jobs(Trainer, args, ...)``, an
    ``executor.submit(task_class(args))``), the script importing ``submitit``. When it calls several, the
    last; a package's ``__init__.py`` is followed to the sibling module it re-exports the function from."""
    if not any(isinstance(n, (ast.Import, ast.ImportFrom)) and any(
            (a.name if isinstance(n, ast.Import) else (n.module or "")).split(".")[0] == "submitit"
            for a in n.names) for n in ast.walk(tree)):
        return None
    handed: set[str] = set()  # names handed to a call, bare (``submit_jobs(Trainer, ...)``) or called
    for n in ast.walk(tree):  # (``executor.submit(Trainer(args))``)
        for a in [*n.args, *(k.value for k in n.keywords)] if isinstance(n, ast.Call) else ():
            if isinstance(a, ast.Call):
                a = a.func
            if isinstance(a, ast.Name):
                handed.add(a.id)
    for n in ast.walk(tree):  # ``trainer = Trainer(args)`` then ``executor.submit(trainer)`` (the DeiT/MAE shape)
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id in handed and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name):
            handed.add(n.value.func.id)
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or cls.name not in handed:
            continue
        call_fn = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__call__"), None)
        if call_fn is None:
            continue
        imported = _imports_of([tree, call_fn])
        modules = _modules_of([tree, call_fn])
        called: list[str] = []
        for n in ast.walk(call_fn):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                called.append(n.func.id)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                    and n.func.value.id in modules and n.func.value.id not in imported:
                # ``import main_pretrain`` then ``main_pretrain.main(self.args)`` (facebookresearch/mae
                # ``submitit_pretrain.py``: ``import main_pretrain as trainer``, ``trainer.main(self.args)``;
                # facebookresearch/deit ``run_with_submitit.py``: ``import main as classification``,
                # ``classification.main(self.args)``)
                name = f"{n.func.value.id}.{n.func.attr}"
                imported[name] = (modules[n.func.value.id], 0, n.func.attr)
                called.append(name)
        for name in reversed(called):
            got = imported.get(name)
            if got is None or got[1] or not got[0] or got[0].split(".")[0] in (*_LIBRARIES, "submitit"):
                continue
            found = module_file(got[0], script)
            if found is not None:
                return _reexported(found, got[2]) if found.name == "__init__.py" else found
    return None
