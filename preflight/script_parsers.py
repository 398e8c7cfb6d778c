"""Whether a call in a training script is the project's own argument parser, declared in a
local module (read, never imported).

open_clip ``src/open_clip_train/main.py:50,98`` @ 89fb801f1e6087880e951fc8354b8a2077b79c6d:
``from open_clip_train.params import parse_args`` then ``args = parse_args(args)``, where
``params.py:28-910`` builds an ``argparse.ArgumentParser``, calls ``parser.parse_args(args)``
and returns the namespace. The attributes of that namespace are the job's options (the
option resolver of :mod:`preflight.adapters.cliargs` reads the declarations and the launch
line), whatever the function or the variable is called.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from preflight.sources import read_text_limited

_MAX_BYTES = 500_000
_PARSE = ("parse_args", "parse_known_args")
_cache: dict[tuple[str, str, int, int], bool] = {}


def _module_file(start: Path, module: str) -> Optional[Path]:
    """``pkg.mod`` as a file beside the script or in a folder above it (a ``src/`` layout
    run with ``python -m pkg.main``), at most four levels up."""
    rel = Path(*module.split("."))
    base = start
    for _ in range(5):
        for cand in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
            if cand.is_file():
                return cand
        if base.parent == base:
            break
        base = base.parent
    return None


def _returns_namespace(fn: ast.FunctionDef) -> bool:
    parsed: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _PARSE:
            for t in node.targets:
                if isinstance(t, ast.Name):
                    parsed.add(t.id)
                elif isinstance(t, ast.Tuple) and t.elts and isinstance(t.elts[0], ast.Name):
                    parsed.add(t.elts[0].id)
    for node in ast.walk(fn):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _PARSE:
            return True
        if isinstance(value, ast.Name) and value.id in parsed:
            return True
    return False


def local_parser_function(script_path: Optional[Path], qualified: Optional[str]) -> bool:
    """``qualified`` (``open_clip_train.params.parse_args``, from the script's imports) is a
    function of a local module that returns ``<parser>.parse_args(...)``."""
    if script_path is None or not qualified or "." not in qualified:
        return False
    module, _, name = qualified.rpartition(".")
    path = _module_file(Path(script_path).parent, module)
    if path is None:
        return False
    try:
        st = path.stat()
    except OSError:
        return False
    key = (str(path.resolve()), name, st.st_mtime_ns, st.st_size)  # a long-lived process sees edits
    if key in _cache:
        return _cache[key]
    found = False
    try:
        tree: Optional[ast.Module] = ast.parse(read_text_limited(path, _MAX_BYTES, errors="replace"))
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        tree = None
    if tree is not None:
        defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        found = len(defs) == 1 and _returns_namespace(defs[0])
    _cache[key] = found
    return found


def parser_function_writes(script_path: Optional[Path], qualified: Optional[str]) -> set[str]:
    """Attributes the local parser function ``qualified`` assigns on the namespace it returns before returning
    it (``args.batch_size_per_gpu = args.bs // dist.get_world_size()``, ``args.opt = args.opt.lower()``): their
    values are the function's, not the option's default or the launch line's."""
    if script_path is None or not qualified or "." not in qualified:
        return set()
    module, _, name = qualified.rpartition(".")
    path = _module_file(Path(script_path).parent, module)
    if path is None:
        return set()
    try:
        tree = ast.parse(read_text_limited(path, _MAX_BYTES, errors="replace"))
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return set()
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(defs) != 1:
        return set()
    returned = {n.value.id for n in ast.walk(defs[0]) if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)}
    out: set[str] = set()
    for node in ast.walk(defs[0]):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in returned:
                    out.add(sub.attr)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in returned:
            out.add("*")  # a setattr by name: any attribute may be the function's
    return out


def local_namespace_object(script_path: Optional[Path], qualified: Optional[str]) -> bool:
    """``qualified`` (``parser.args``, from the script's ``from parser import args``) is a module-level name of a
    local module bound once, to ``<parser>.parse_args()`` or to a call of that module's function that returns it
    (akaxlh/LightGCL @ its pinned commit ``parser.py:3-21``: ``def parse_args(): ... return parser.parse_args()``
    then ``args = parse_args()``; ``main.py:7`` ``from parser import args``)."""
    if script_path is None or not qualified or "." not in qualified:
        return False
    module, _, name = qualified.rpartition(".")
    path = _module_file(Path(script_path).parent, module)
    if path is None:
        return False
    try:
        tree = ast.parse(read_text_limited(path, _MAX_BYTES, errors="replace"))
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return False
    bound: list[Optional[ast.expr]] = [n.value for n in tree.body if isinstance(n, ast.Assign)
                                       and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    bound += [n.value for n in tree.body if isinstance(n, (ast.AnnAssign, ast.AugAssign))
              and isinstance(n.target, ast.Name) and n.target.id == name]
    if len(bound) != 1 or not isinstance(bound[0], ast.Call):
        return False
    func = bound[0].func
    if isinstance(func, ast.Attribute):
        return func.attr in _PARSE
    if isinstance(func, ast.Name):
        defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == func.id]
        return len(defs) == 1 and _returns_namespace(defs[0])
    return False


_JSON_MAX = 1_000_000


def json_file_value(path_value: object, key: object, script_path: Optional[Path]) -> tuple[bool, object]:
    """``cfg = json.load(open(path))`` then ``cfg["lora_r"]`` (BELLE ``train/src/entry_point/
    sft_train.py:282,292`` @ 645084d36454cdeb4e7f1ce9b2f3426bac39f1f9, ``--lora_config
    configs/lora_config_llama.json``): the key of that JSON file, when the path is a relative
    ``.json`` file inside the job (from where preflight runs, else beside the script), at most
    1 MB, an object holding the key, and not reached through a symbolic link that leaves that
    folder. (found, value)."""
    if not isinstance(path_value, str) or not isinstance(key, (str, int)) or not path_value.endswith(".json"):
        return False, None
    rel = Path(path_value)
    if rel.is_absolute() or ".." in rel.parts:
        return False, None
    bases = [Path.cwd()]
    if script_path is not None:
        bases.append(Path(script_path).parent)
    for base in bases:
        cand = base / rel
        try:  # never through a symbolic link out of the folder (the gate reads with more rights)
            real, root = cand.resolve(strict=True), base.resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if root not in real.parents or not real.is_file():
            continue
        try:
            import json

            data = json.loads(read_text_limited(cand, _JSON_MAX, errors="replace"))
        except (OSError, ValueError, RecursionError):
            return False, None
        if isinstance(data, dict) and isinstance(key, str) and key in data:
            return True, data[key]
        return False, None
    return False, None
