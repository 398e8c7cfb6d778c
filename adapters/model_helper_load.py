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

from preflight.adapters_api import Project, ScratchAdapter
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


def _loaded(fn: ast.FunctionDef) -> Optional[tuple[list[ast.Call], str]]:
    """The helper's ``ModelClass.from_pretrained(p, ...)`` calls, all of one of its parameters ``p`` (one
    per branch: verifiers ``verifiers/utils/model_utils.py:90-94`` loads the same name with liger's class or
    transformers')."""
    params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
    found = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_pretrained" \
                and _MODEL_CLASS.match((dotted_name(node.func.value) or "").rsplit(".", 1)[-1]):
            if not (node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in params):
                return None  # a load of something else: which one is the model is not followed
            found.append((node, node.args[0].id))
    if not found or len({p for _, p in found}) != 1:
        return None
    return [n for n, _ in found], found[0][1]


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
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("bool", "int", "str") \
                and len(node.args) == 1 and not node.keywords:  # ``bool(args.use_moe)`` (minimind train_pretrain.py:116)
            inner = self.value(node.args[0], depth + 1)
            if inner is _UNSET or not isinstance(inner, (bool, int, str)):
                return _UNSET
            try:
                return {"bool": bool, "int": int, "str": str}[node.func.id](inner)
            except ValueError:
                return _UNSET
        if isinstance(node, ast.JoinedStr):  # ``f"org/Qwen3-{size}-Wordle"`` (verifiers train_wordle.py:32)
            parts = []
            for part in node.values:
                if isinstance(part, ast.Constant):
                    parts.append(str(part.value))
                    continue
                if not isinstance(part, ast.FormattedValue) or part.format_spec is not None or part.conversion != -1:
                    return _UNSET
                inner = self.value(part.value, depth + 1)
                if isinstance(inner, bool) or not isinstance(inner, (str, int, float)):
                    return _UNSET
                parts.append(str(inner))
            return "".join(parts)
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


def _attention(fn: ast.FunctionDef, loads: list[ast.Call], given: dict[str, Any]) -> Optional[str]:
    """``flash_attention_2``/``sdpa``/... the helper asks for: a keyword of the loads, or a key of the dict
    they spread: ``other_kwargs["use_flash_attention_2"] = True`` (Magicoder) or the whole dict
    ``model_kwargs = dict(..., attn_implementation="flash_attention_2")`` (verifiers
    ``verifiers/utils/model_utils.py:80-85``), set outside any ``if``, under ``if p:`` with ``p`` a
    parameter the call makes true, or under ``if p is None:`` with ``p`` one the call leaves None."""
    parents = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}

    def taken(test: ast.AST) -> bool:
        if isinstance(test, ast.Name):
            return given.get(test.id, _UNSET) is True
        return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id in given \
            and _is_none_test(test, test.left.id) and given[test.left.id] is None

    def runs(node: ast.AST, meant: str) -> bool:
        child, parent = node, parents.get(id(node))
        while parent is not None and parent is not fn:
            if isinstance(parent, (ast.For, ast.While, ast.Try, ast.With)):
                return False
            if isinstance(parent, ast.If) and not (taken(parent.test) and any(child is s for s in parent.body)) \
                    and not both_arms(parent, meant):
                return False
            child, parent = parent, parents.get(id(parent))
        return True

    def both_arms(node: ast.If, meant: str) -> bool:
        """Each arm of an undecided ``if`` asks for the same attention (starcoder2-self-align llm_wrapper.py:
        ``if transformers.__version__ <= "4.35.0": ...["use_flash_attention_2"] = True`` else
        ``...["attn_implementation"] = "flash_attention_2"``)."""
        if taken(node.test) or not node.orelse:
            return False
        return all(any(meaning_of(s) == meant for s in arm) for arm in (node.body, node.orelse))

    def meaning_of(stmt: ast.AST) -> Optional[str]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript) \
                and isinstance(stmt.targets[0].slice, ast.Constant) and isinstance(stmt.value, ast.Constant):
            return meaning(str(stmt.targets[0].slice.value), stmt.value.value)
        return None

    def meaning(key: str, value: Any) -> Optional[str]:
        if key == "attn_implementation" and isinstance(value, str):
            return value
        if key == "use_flash_attention_2" and value is True:
            return "flash_attention_2"
        return None

    found: set[Optional[str]] = set()
    for load in loads:
        one = None
        for kw in load.keywords:
            if kw.arg is not None and isinstance(kw.value, ast.Constant):
                one = meaning(kw.arg, kw.value.value) or one
        spread = [k.value.id for k in load.keywords if k.arg is None and isinstance(k.value, ast.Name)]
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            t = node.targets[0]
            pairs: list[tuple[str, ast.AST]] = []
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in spread \
                    and isinstance(t.slice, ast.Constant):
                pairs = [(str(t.slice.value), node.value)]
            elif isinstance(t, ast.Name) and t.id in spread and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Name) and node.value.func.id == "dict":
                pairs = [(str(k.arg), k.value) for k in node.value.keywords if k.arg is not None]
            elif isinstance(t, ast.Name) and t.id in spread and isinstance(node.value, ast.Dict):
                pairs = [(str(k.value), v) for k, v in zip(node.value.keys, node.value.values)
                         if isinstance(k, ast.Constant)]
            for key, value in pairs:
                got = meaning(key, value.value) if isinstance(value, ast.Constant) else None
                if got is not None:
                    if not runs(node, got):
                        return None  # set under a test not decided: not known
                    one = got
        found.add(one)
    return next(iter(found)) if len(found) == 1 else None


def _dtype(fn: ast.FunctionDef, loads: list[ast.Call]) -> Optional[str]:
    """``bf16``/``fp16``/``fp32`` every load asks for with ``torch_dtype=``/``dtype=``: ``torch.bfloat16``, or a
    local of the helper bound once to it (Magicoder ``dtype = torch.bfloat16``, llm_wrapper.py:411)."""
    names = {"bfloat16": "bf16", "float16": "fp16", "half": "fp16", "float32": "fp32", "float": "fp32"}
    found = set()
    for load in loads:
        expr = next((k.value for k in load.keywords if k.arg in ("torch_dtype", "dtype")), None)
        if isinstance(expr, ast.Name):
            binds = [n for n in ast.walk(fn) if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
            if len(binds) != 1 or len(binds[0].targets) != 1:
                return None
            expr = binds[0].value
        dotted = dotted_name(expr) if expr is not None else None
        if not dotted or not dotted.startswith("torch.") or dotted.rsplit(".", 1)[-1] not in names:
            return None
        found.add(names[dotted.rsplit(".", 1)[-1]])
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
class ModelHelperLoadAdapter(ScratchAdapter):
    name = "model_helper_load"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None and "import" in s.source.text
                   for s in project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        from preflight.adapters.cliargs import option_resolver

        path = Path(str(script.source.path)).resolve()
        helpers = _imported(script.tree, path)
        packages = _packages(script.tree, path)
        if not helpers and not packages:
            return
        idx = project.index(script)
        options = option_resolver(project, script)
        none_defaults = _none_defaults(project, script)
        found: list[tuple[str, tuple[Optional[str], Optional[str], str], ast.Call, str]] = []
        for owner in ast.walk(script.tree):
            if not isinstance(owner, ast.FunctionDef):
                continue
            for call in ast.walk(owner):
                if not isinstance(call, ast.Call):
                    continue
                target: Optional[tuple[Path, str]] = None
                if isinstance(call.func, ast.Name) and call.func.id in helpers:
                    target = helpers[call.func.id]
                elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                        and call.func.value.id in packages:
                    target = _package_function(packages[call.func.value.id], call.func.attr)
                if target is None:
                    continue
                if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                    continue
                got = _function(*target)
                if got is None:
                    continue
                tree, fn = got
                caller = _Caller(idx, owner, options, none_defaults)
                given = _bind(fn, [caller.value(a) for a in call.args],
                              {str(k.arg): caller.value(k.value) for k in call.keywords})
                followed = _follow(fn, tree, target[0], given, 0)
                if followed is None:
                    continue
                ref, attn, how = followed
                if isinstance(ref, str) and _HUB_ID.match(ref):
                    found.append((ref, attn, call, how))
        if len({f[0] for f in found}) != 1:
            return
        ref, (attn, dtype, cls), call, how = found[0]
        src = project.source(script, call, "code", detail=f"{ref} handed to {how}")
        self.add_checked(plan, "model.ref", ref, src, "medium")
        if len({f[1] for f in found}) != 1:
            return
        if attn is not None:
            self.add_checked(plan, "model.attn_implementation", attn,
                             project.source(script, call, "code", detail=f"{how} asks for {attn}"), "medium")
        # the class only with the load's dtype known: derive.py reads a class as "the load was read"
        if cls and dtype is not None and len({f[1][2] for f in found}) == 1:
            self.add_checked(plan, "model.class_name", cls, project.source(script, call, "code", detail=how), "medium")
        if dtype is not None:
            where = project.source(script, call, "code", detail=f"{how} with torch_dtype {dtype}")
            self.add_checked(plan, "precision.weights_bits", 16 if dtype in ("bf16", "fp16") else 32, where, "medium")
            if dtype in ("bf16", "fp16"):
                # the weights as loaded: derive.py decides whether the Trainer's autocast runs over them
                self.add_checked(plan, "precision.mode", dtype, where, "low")


def _function(module: Path, name: str) -> Optional[tuple[ast.Module, ast.FunctionDef]]:
    try:
        if module.stat().st_size > _MAX_BYTES:
            return None
        tree = parse_file(module)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    return (tree, fn) if fn is not None else None


def _bind(fn: ast.FunctionDef, args: list[Any], keywords: dict[str, Any]) -> dict[str, Any]:
    """The helper's parameters: the call's values, else the literal defaults."""
    params = [a.arg for a in fn.args.args]
    given: dict[str, Any] = {}
    for i, value in enumerate(args):
        if i < len(params):
            given[params[i]] = value
    given.update(keywords)
    defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
    for p in params:
        default = defaults.get(p)
        if p not in given and isinstance(default, ast.Constant):
            given[p] = default.value
    return given


def _follow(fn: ast.FunctionDef, tree: ast.Module, module: Path, given: dict[str, Any],
            depth: int) -> Optional[tuple[Any, Any, str]]:
    """(reference, attention, how) of the model ``fn`` loads with ``given``: directly, or through one
    function of its module it hands the parameter to (verifiers ``get_model_and_tokenizer(model_name)`` ->
    ``get_model(model_name, use_liger, model_kwargs)``)."""
    loaded = _loaded(fn)
    if loaded is not None:
        loads, param = loaded
        back = _fallback(fn, param)
        if back is None:
            return None
        ref = given.get(param, _UNSET)
        if ref is None and back:
            ref = given.get(back, _UNSET)
        func = loads[0].func
        owner = func.value if isinstance(func, ast.Attribute) else func
        return ref, (_attention(fn, loads, given), _dtype(fn, loads), (dotted_name(owner) or "")
                     .rsplit(".", 1)[-1]), (f"{fn.name}() ({module.name}:{fn.lineno}), which loads "
                                                   f"{ast.unparse(loads[0].func)}({param}, ...) (line {loads[0].lineno})")
    if depth >= 1:
        return None
    own = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    params = {a.arg for a in fn.args.args}
    results = []
    for call in ast.walk(fn):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in own
                and call.func.id != fn.name):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            continue

        def value(node: ast.AST) -> Any:
            if isinstance(node, ast.Name) and node.id in params:
                return given.get(node.id, _UNSET)
            return node.value if isinstance(node, ast.Constant) else _UNSET

        inner = own[call.func.id]
        got = _follow(inner, tree, module, _bind(inner, [value(a) for a in call.args],
                                                 {str(k.arg): value(k.value) for k in call.keywords}), depth + 1)
        if got is not None:
            results.append((got[0], got[1], f"{fn.name}() ({module.name}:{fn.lineno}) -> {got[2]}"))
    return results[0] if len(results) == 1 else None


def _packages(tree: ast.Module, script_path: Path) -> dict[str, Path]:
    """``import pkg as p`` / ``import pkg`` of a package of the project: local name -> its ``__init__.py``."""
    out: dict[str, Path] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                if "." in a.name:
                    continue
                found = _module(script_path, a.name)
                if found is not None and found.name == "__init__.py":
                    out[a.asname or a.name] = found
    return out


def _package_function(init: Path, name: str) -> Optional[tuple[Path, str]]:
    """Where ``pkg.name`` is defined: the package's ``__init__.py``, a relative ``from .x.y import name``, or
    a lazy-import table entry ``"name": "pkg.x.y:name"`` (verifiers ``verifiers/__init__.py:101-104``)."""
    try:
        if init.stat().st_size > _MAX_BYTES:
            return None
        tree = parse_file(init)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    folder = init.parent
    if any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body):
        return init, name
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module \
                and any((a.asname or a.name) == name for a in node.names):
            real = next(a.name for a in node.names if (a.asname or a.name) == name)
            found = _module(folder / "__init__.py", node.module)
            return (found, real) if found is not None else None
    for sub in ast.walk(tree):
        if isinstance(sub, ast.Dict):
            for k, v in zip(sub.keys, sub.values):
                if isinstance(k, ast.Constant) and k.value == name and isinstance(v, ast.Constant) \
                        and isinstance(v.value, str) and v.value.count(":") == 1:
                    dotted, real = v.value.split(":")
                    parts = dotted.split(".")
                    if parts[0] != folder.name:
                        return None
                    found = _module(folder.parent / "__init__.py", dotted)
                    return (found, real) if found is not None else None
    return None
