"""A project function the launched script calls with ``**mapping``: its parameters take the mapping's keys.

The StyleGAN2-ADA / StyleGAN3 / EDM idiom (NVlabs and the many repositories derived from them): the
launched ``train.py`` turns its options into one ``dnnlib.EasyDict`` and hands it whole to the project's
training function, which does all the work (NVlabs/stylegan3 @ c233a91 ``train.py:176-222,49``)::

    c = dnnlib.EasyDict()
    c.num_gpus = opts.gpus
    c.batch_size = opts.batch
    ...
    training_loop.training_loop(rank=rank, **c)        # from training import training_loop

and ``training/training_loop.py`` builds ``DataLoader(batch_size=batch_size//num_gpus, **data_loader_kwargs)``
from its parameters. :func:`splat_callee` finds that call and the callee's file, so the audit reads the
module as well (:mod:`preflight.delegate` does this for a thin entry); :func:`binder` then tells the
module's :class:`~preflight.script_index.ScriptIndex` what each parameter of that function is: an
explicit keyword of the call, else the mapping's key (the expression written to it in the launched
script, resolved there: its option, its literal), else the parameter's default when the mapping is
known not to hold the key. The mapping is followed as a Lightning ``Trainer(**mapping)`` is
(:mod:`preflight.adapters.lightning_mapping`: the dict or ``EasyDict`` built in place, the writes before
the call, a parameter followed to its one caller); a key written under a test is unknown, and a value
followed through writes is capped at medium confidence. Nothing is imported or run.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Callable, Optional, Union

from preflight.adapters.lightning_mapping import Mapping, unpacked_mapping

from preflight._record import dataclass

_MAX_BYTES = 1_000_000
DEFAULT = object()  # the parameter keeps its default: the mapping is known not to hold it


@dataclass(frozen=True, eq=False)
class SplatCall:
    """``function(..., **mapping)`` of the launched script, into the project module at ``path``."""

    path: Path
    call: ast.Call
    function: str
    mapping: Mapping


def _bases(script: Path) -> list[Path]:
    from preflight.delegate import _bases as bases

    return bases(script)


def _imported(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Local name -> (dotted module it may be, the name imported from it): ``from training import
    training_loop`` gives ``training_loop -> ("training.training_loop", "")`` (a module) and
    ``("training", "training_loop")`` (a function) both tried later."""
    out: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                out[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = (alias.name, "")
    return out


def _module_file(dotted: str, script: Path) -> Optional[Path]:
    rel = dotted.replace(".", "/")
    for base in _bases(script):
        cand = base / f"{rel}.py"
        try:
            if cand.is_file() and os.path.getsize(cand) <= _MAX_BYTES and cand.resolve() != script.resolve():
                return cand
        except OSError:
            continue
    return None


def _callee(func: ast.expr, imported: dict[str, tuple[str, str]], script: Path) -> Optional[tuple[Path, str]]:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in imported:
        module, name = imported[func.value.id]  # ``training_loop.training_loop(...)``: a module's function
        found = _module_file(f"{module}.{name}" if name else module, script)
        return (found, func.attr) if found is not None else None
    if isinstance(func, ast.Name) and func.id in imported and imported[func.id][1]:
        module, name = imported[func.id]  # ``from training.training_loop import training_loop``
        found = _module_file(module, script)
        return (found, name) if found is not None else None
    return None


def splat_callee(tree: ast.Module, script: Path) -> Optional[SplatCall]:
    """The one call of the script into a project module's function with one ``**mapping`` whose keys are
    known; None when there is none, several, or when the script has a ``backward()``/``step()`` of its own."""
    if _steps(tree):
        return None  # the script trains itself: what it hands a project function is not the job's work
    imported = _imported(tree)
    found: list[SplatCall] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        spread = [k.value for k in node.keywords if k.arg is None]
        if len(spread) != 1 or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        callee = _callee(node.func, imported, script)
        if callee is None:
            continue
        mapping = unpacked_mapping(tree, [], node, spread[0])
        if mapping is None:
            return None  # a mapping not followed: what the function gets is not known
        found.append(SplatCall(callee[0], node, callee[1], mapping))
    return found[0] if len(found) == 1 else None


def _function(tree: ast.Module, name: str) -> Optional[Union[ast.FunctionDef, ast.AsyncFunctionDef]]:
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    return defs[0] if len(defs) == 1 else None


def _steps(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("backward", "step")
               for n in ast.walk(node))


def defines(tree: ast.Module, splat: SplatCall) -> bool:
    """Whether the module defines the called function once at its top level, with no ``*args``, and the
    function trains (a ``backward()`` or ``step()`` call in its body): the work the entry hands over, not a
    helper it builds a loader or a config with (hpcaitech/Open-Sora ``prepare_dataloader(**dataloader_args)``)."""
    fn = _function(tree, splat.function)
    return fn is not None and fn.args.vararg is None and _steps(fn)


def binder(entry_index: Any, splat: SplatCall) -> Callable[[str, str], Any]:
    """``bind(function, parameter)``: a :class:`Resolved` value, :data:`DEFAULT`, or None (unknown)."""
    call, mapping = splat.call, splat.mapping

    def bind(function: str, parameter: str) -> Any:
        if function != splat.function:
            return None
        given = next((k.value for k in call.keywords if k.arg == parameter), None)
        if given is not None:
            return entry_index.resolve(given)
        if parameter not in mapping.keys:
            return DEFAULT if not call.args else None
        value = mapping.keys[parameter]
        if not isinstance(value, ast.expr):
            return None  # written under a test, or a config value: not read here
        got = entry_index.resolve(value)
        if got is None or mapping.how != "followed":
            return got
        return type(got)(got.value, got.kind, got.line, got.key, got.detail, "low" if got.cap == "low" else "medium")

    return bind
