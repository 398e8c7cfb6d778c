"""The model a project helper of another module loads with ``from_pretrained`` from the values the
script hands it.

The shape (ise-uiuc/magicoder @ 3ef43f0 ``src/magicoder/train.py:141-143,177-183``: ``model_key =
model_args.model_key``; ``if (model_name_or_path := model_args.model_name_or_path) is None:
model_name_or_path = model_key``; ``state = get_model_context(model_key, model_name_or_path, ...,
use_flash_attention=args.use_flash_attention)``, the helper imported from ``magicoder.llm_wrapper``, whose
``src/magicoder/llm_wrapper.py:389-421`` falls back the same way (``if model_name_or_path is None:
model_name_or_path = model_key``), fills ``other_kwargs["use_flash_attention_2"] = True`` under ``if
use_flash_attention:`` and calls ``AutoModelForCausalLM.from_pretrained(model_name_or_path, torch_dtype=dtype,
**other_kwargs)``).

Read, never imported: a call of the script to a function imported from a module of the project (the
script's folder or up to three folders above), whose body loads a model class (``AutoModel...``,
``...ForCausalLM``) ``from_pretrained`` with one of its parameters as the first argument; that parameter's
value at the call (a parameter rebound only by ``if p is None: p = q`` takes ``q`` when ``p`` is None), each
argument of the call resolved by the script index, a local bound by ``v = E`` or by the walrus fallback
``if (v := E) is None: v = F`` followed to ``E``/``F``. The reference is stated when it looks like a hub id
(``owner/name``), medium; ``model.attn_implementation`` when the helper sets ``attn_implementation`` or
``use_flash_attention_2`` in the keyword dict it spreads (or as a keyword), under no ``if`` or one on a
parameter the call makes true. Anything not followed states nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
_UP = 3
_MODEL_CLASS = re.compile(r"^(AutoModel\w*|\w+For(CausalLM|ConditionalGeneration|Seq2SeqLM|MaskedLM))$")
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_UNSET = object()  # a value not known


def _module(script_path: Path, dotted: str) -> Optional[Path]:
    rel = dotted.replace(".", "/")
    folder = script_path.parent
    for _ in range(_UP + 1):
        for cand in (folder / f"{rel}.py", folder / rel / "__init__.py"):
            if cand.is_file():
                return cand
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def _imported(tree: ast.Module, script_path: Path) -> dict[str, tuple[Path, str]]:
    """Names the script imports from a project module: local name -> (module file, function name)."""
    out: dict[str, tuple[Path, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found = _module(script_path, node.module)
            if found is None:
                continue
            for a in node.names:
                if a.name != "*":
                    out[a.asname or a.name] = (found, a.name)
    return out


def _loaded(fn: ast.FunctionDef) -> Optional[tuple[ast.Call, str]]:
    """The one ``ModelClass.from_pretrained(p, ...)`` of the helper, ``p`` one of its parameters."""
    params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
    found = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_pretrained" \
                and _MODEL_CLASS.match((dotted_name(node.func.value) or "").rsplit(".", 1)[-1]) and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in params:
            found.append((node, node.args[0].id))
    return found[0] if len(found) == 1 else None


def _fallback(fn: ast.FunctionDef, name: str) -> Optional[str]:
    """``q`` when ``name`` is rebound in the helper only by ``if name is None: name = q``; ``""`` when not
    rebound at all; None when rebound otherwise."""
    stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    if not stores:
        return ""
    if len(stores) != 1:
        return None
    for node in ast.walk(fn):
        if isinstance(node, ast.If) and _is_none_test(node.test, name) and len(node.body) == 1 and not node.orelse:
            stmt = node.body[0]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.targets[0] is stores[0] \
                    and isinstance(stmt.value, ast.Name):
                return stmt.value.id
    return None


def _is_none_test(test: ast.AST, name: str) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
        return False
    left = test.left
    if isinstance(left, ast.NamedExpr):
        left = left.target
    return isinstance(left, ast.Name) and left.id == name


class _Caller:
    """Values of the script's expressions at one call: resolved by the index, locals followed."""

    def __init__(self, idx: Any, owner: ast.AST, options: Any, none_defaults: set[str]) -> None:
        self.idx = idx
        self.owner = owner
        self.options = options
        self.none_defaults = none_defaults  # options declared with default None that the launch line omits

    def value(self, node: ast.AST, depth: int = 0) -> Any:
        if depth > 4:
            return _UNSET
        got = self.idx.resolve(node)
        if got is not None:
            return got.value
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            opt = self.options(node.attr) if self.options is not None else None
            if opt is not None:
                return opt.value
            return None if node.attr in self.none_defaults else _UNSET
        if not isinstance(node, ast.Name):
            return _UNSET
        binds: list[ast.AST] = []
        for n in ast.walk(self.owner):
            if (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)) or (isinstance(n, ast.NamedExpr) and n.target.id == node.id):
                binds.append(n)
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)) and any(
                    isinstance(t, ast.Name) and t.id == node.id and isinstance(t.ctx, ast.Store) for t in ast.walk(n)
                    if not isinstance(n, ast.With) or t is not n):
                return _UNSET
        if len(binds) == 1 and isinstance(binds[0], ast.Assign):
            return self.value(binds[0].value, depth + 1)
        walrus = [b for b in binds if isinstance(b, ast.NamedExpr)]
        plain = [b for b in binds if isinstance(b, ast.Assign)]
        if len(walrus) == 1 and len(plain) == 1:
            # ``if (v := E) is None: v = F``
            guard = next((n for n in ast.walk(self.owner) if isinstance(n, ast.If) and n.test is not None
                          and isinstance(n.test, ast.Compare) and n.test.left is walrus[0]), None)
            if guard is not None and _is_none_test(guard.test, node.id) and guard.body == [plain[0]] \
                    and not guard.orelse:
                first = self.value(walrus[0].value, depth + 1)
                if first is _UNSET:
                    return _UNSET
                return self.value(plain[0].value, depth + 1) if first is None else first
        return _UNSET


def _attention(fn: ast.FunctionDef, load: ast.Call, given: dict[str, Any]) -> Optional[str]:
    """``flash_attention_2``/``sdpa``/... the helper asks for: a keyword of the load, or a key of the dict it
    spreads (``other_kwargs["use_flash_attention_2"] = True``) set outside any ``if`` or under ``if p:`` with
    ``p`` a parameter the call makes true."""
    parents = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}

    def runs(node: ast.AST) -> bool:
        child, parent = node, parents.get(id(node))
        while parent is not None and parent is not fn:
            if isinstance(parent, (ast.For, ast.While, ast.Try, ast.With)):
                return False
            if isinstance(parent, ast.If) and not (isinstance(parent.test, ast.Name)
                                                   and given.get(parent.test.id) is True
                                                   and any(child is s for s in parent.body)):
                return False
            child, parent = parent, parents.get(id(parent))
        return True

    def meaning(key: str, value: Any) -> Optional[str]:
        if key == "attn_implementation" and isinstance(value, str):
            return value
        if key == "use_flash_attention_2" and value is True:
            return "flash_attention_2"
        return None

    for kw in load.keywords:
        if kw.arg is not None and isinstance(kw.value, ast.Constant):
            got = meaning(kw.arg, kw.value.value)
            if got is not None:
                return got
    spread = [k.value.id for k in load.keywords if k.arg is None and isinstance(k.value, ast.Name)]
    found = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            t = node.targets[0]
            if isinstance(t.value, ast.Name) and t.value.id in spread and isinstance(t.slice, ast.Constant) \
                    and isinstance(node.value, ast.Constant):
                got = meaning(str(t.slice.value), node.value.value)
                if got is not None:
                    if not runs(node):
                        return None  # set under a test not decided: not known
                    found.add(got)
    return next(iter(found)) if len(found) == 1 else None


def _none_defaults(project: Project, script: Any) -> set[str]:
    """Options the job declares with the default None and the launch line does not give (none when the
    line has words not known statically)."""
    from preflight.adapters.cliargs_options import declared_options

    from preflight.script_argv import opaque_words

    args = [str(a) for a in project.script_args(script)]
    if opaque_words(args):
        return set()
    given = {a[2:].split("=", 1)[0].replace("-", "_") for a in args if a.startswith("--")}
    decl = declared_options(script, project)
    return {name for name, opt in decl.options.items()
            if opt.has_default and opt.default is None and name.replace("-", "_") not in given}


@register_adapter
class ModelHelperLoadAdapter(Adapter):
    name = "model_helper_load"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None and "import" in s.source.text
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None or script.source.path is None or not isinstance(script.tree, ast.Module):
                continue
            self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        from preflight.adapters.cliargs import option_resolver

        path = Path(str(script.source.path)).resolve()
        helpers = _imported(script.tree, path)
        if not helpers:
            return
        idx = project.index(script)
        options = option_resolver(project, script)
        none_defaults = _none_defaults(project, script)
        found: list[tuple[str, Optional[str], ast.Call, str]] = []
        for owner in ast.walk(script.tree):
            if not isinstance(owner, ast.FunctionDef):
                continue
            for call in ast.walk(owner):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in helpers):
                    continue
                if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                    continue
                module, fname = helpers[call.func.id]
                try:
                    if module.stat().st_size > _MAX_BYTES:
                        continue
                    tree = parse_file(module)
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == fname), None)
                if fn is None:
                    continue
                loaded = _loaded(fn)
                if loaded is None:
                    continue
                load, param = loaded
                caller = _Caller(idx, owner, options, none_defaults)
                params = [a.arg for a in fn.args.args]
                given: dict[str, Any] = {}
                for i, arg in enumerate(call.args):
                    if i < len(params):
                        given[params[i]] = caller.value(arg)
                for kw in call.keywords:
                    given[str(kw.arg)] = caller.value(kw.value)
                defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
                for p in params:
                    if p not in given and p in defaults and isinstance(defaults[p], ast.Constant):
                        given[p] = defaults[p].value
                back = _fallback(fn, param)
                if back is None:
                    continue
                ref = given.get(param, _UNSET)
                if ref is None and back:
                    ref = given.get(back, _UNSET)
                if not (isinstance(ref, str) and _HUB_ID.match(ref)):
                    continue
                module_shown = module.name
                found.append((ref, _attention(fn, load, given), call,
                              f"{fname}() ({module_shown}:{fn.lineno}) loads {ast.unparse(load.func)}"
                              f"({param}, ...) (line {load.lineno})"))
        if len({f[0] for f in found}) != 1:
            return
        ref, attn, call, how = found[0]
        src = project.source(script, call, "code", detail=f"{ref} handed to {how}")
        self.add_checked(plan, "model.ref", ref, src, "medium")
        attns = {f[1] for f in found}
        if attn is not None and len(attns) == 1:
            self.add_checked(plan, "model.attn_implementation", attn,
                             project.source(script, call, "code", detail=f"{how} asks for {attn}"), "medium")
