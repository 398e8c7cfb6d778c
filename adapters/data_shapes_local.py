"""A torchvision dataset of fixed-size images built in a local module the script imports: its native size.

:meth:`preflight.adapters.data_shapes.DataShapesAdapter.native_images` reads ``MNIST(...)``/``CIFAR10(...)``
built in the script itself. A Lightning ``DataModule`` (or a loader helper) of a module beside the script
builds them there instead (pat-coady/pytorch-sandbox @ b7cd72a ``data.py:20-33``: ``datasets.MNIST(...,
transform=ToTensor())`` in ``MNISTDataModule.setup``, ``train.py:13,46`` ``from data import MNISTDataModule``
... ``MNISTDataModule(cfg.data)``). The same reading holds there: the native size (MNIST 28, CIFAR 32, ...)
when nothing resizes.

Said (medium) only when: the script calls a name it imports from that module (one level of local imports);
every native-size torchvision dataset the module builds has the same size; neither the module nor the
script names a torchvision crop or resize transform; and each dataset's ``transform=`` is built from
torchvision/torch calls only, directly or through one name or ``self.<attr>`` the module assigns (a project
helper there may resize: nothing is said).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

_SIZING = ("Resize", "RandomResizedCrop", "CenterCrop", "RandomCrop", "FiveCrop", "TenCrop", "RandomSizedCrop")


def _aliases(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _qualified(func: ast.expr, aliases: dict[str, str]) -> str:
    parts: list[str] = []
    node = func
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    head = aliases.get(node.id, node.id)
    return ".".join([head, *reversed(parts)])


def _torch_only(expr: ast.expr, aliases: dict[str, str]) -> bool:
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and not _qualified(node.func, aliases).startswith(("torchvision.", "torch.")):
            return False
    return True


def _shape(expr: ast.expr) -> str:
    """The expression's text without its load/store context (``self.transform`` read or assigned)."""
    return ast.dump(expr, annotate_fields=False).replace("Load()", "").replace("Store()", "")


def _transform_ok(call: ast.Call, tree: ast.Module, aliases: dict[str, str]) -> bool:
    expr = next((kw.value for kw in call.keywords if kw.arg in ("transform", "transforms")), None)
    if expr is None and len(call.args) > 2:
        expr = call.args[2]
    if expr is None or isinstance(expr, ast.Call) or (isinstance(expr, ast.Constant) and expr.value is None):
        return expr is None or isinstance(expr, ast.Constant) or _torch_only(expr, aliases)
    if isinstance(expr, (ast.Name, ast.Attribute)):
        want = _shape(expr)
        values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and any(
            _shape(t) == want for t in n.targets)]
        return bool(values) and all(_torch_only(v, aliases) for v in values)
    return False


def local_native_size(project: Any, script: Any) -> Optional[tuple[int, str, int, str]]:
    """(size, module path shown, line, dataset name) of the native-size dataset a local module builds."""
    from preflight.adapters.data_shapes import NATIVE_SIZE
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.sources import read_text_limited

    tree = script.tree
    if not isinstance(tree, ast.Module) or script.source.path is None:
        return None
    if any(isinstance(n, ast.Call) and (_qualified(n.func, _aliases(tree)).rsplit(".", 1)[-1] in _SIZING)
           for n in ast.walk(tree)):
        return None
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    used = imported & called
    if not used:
        return None
    root = Path(str(project.root)).resolve() if getattr(project, "root", None) else None
    here = Path(str(script.source.path)).resolve()
    found: list[tuple[int, Path, int, str]] = []
    for local in _imported_up(tree, here.parent, root, depth=1):
        try:
            module = ast.parse(read_text_limited(local, errors="replace"))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            continue
        names = {getattr(n, "name", None) for n in module.body}
        if not names & used:
            continue
        aliases = _aliases(module)
        for node in ast.walk(module):
            if not isinstance(node, ast.Call):
                continue
            qualified = _qualified(node.func, aliases)
            last = qualified.rsplit(".", 1)[-1]
            if qualified.startswith("torchvision.transforms") and last in _SIZING:
                return None
            if qualified.startswith("torchvision.datasets.") and last in NATIVE_SIZE:
                if not _transform_ok(node, module, aliases):
                    return None
                found.append((NATIVE_SIZE[last], local, node.lineno, last))
    if not found or len({f[0] for f in found}) != 1:
        return None
    size, path, line, name = found[0]
    try:
        shown = str(path.relative_to(root)) if root is not None else str(path)
    except ValueError:
        shown = str(path)
    return size, shown, line, name


__all__ = ["local_native_size"]
