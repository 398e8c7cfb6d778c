"""A ``torch.compile`` in a Hydra app's script under an ``if`` that the composed config decides false:
dandelionsllm/pandallm trainer_base_ds_mul.py:169-170 @ 4a47ecd4 ``if torch.__version__ >= "2" and
(getattr(os.environ, "TORCH_COMPILE", False) or getattr(cfg, "compile", False)): model =
torch.compile(model, ...)`` with no ``compile`` key in the composed config: ``getattr`` on the config
gives its default False, and ``getattr(os.environ, "TORCH_COMPILE", False)`` is always the default
(environment variables are items of ``os.environ``, never its attributes). The lightning-hydra-template
shape, ai4co/rl4co ``rl4co/tasks/train.py:69-71`` @ 7a153967: ``if cfg.get("compile", False): model =
torch.compile(model)`` in ``run(cfg)``, called from the ``@hydra.main`` function with the composed config
whose ``compile: False`` (``configs/main.yaml:46``); ``cfg.get(key, default)`` is read like ``getattr``. So
the call never runs and
``compile.enabled`` is False (``medium``, above the code reading that saw the call under a test it could
not decide, like :mod:`preflight.adapters.config_object_reads`' guards).

The test is read with the names of the ``@hydra.main`` function's config parameter, in a function that
takes a parameter of that name; ``cfg.a.b`` is the composed value, ``getattr(cfg.a, "k", d)`` the value
or ``d`` when the key is absent; anything else is unknown, and an unknown operand leaves the test
undecided unless ``and``/``or`` decide it without it. Nothing is imported or executed."""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

_UNKNOWN = object()
_MISSING = object()


def _path(node: ast.AST, name: str) -> Optional[tuple[str, ...]]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == name:
        return tuple(reversed(parts))
    return None


class _Test:
    def __init__(self, name: str, cfg: dict, value_at: Callable[[tuple], Any]) -> None:
        self.name = name
        self.cfg = cfg
        self.value_at = value_at

    def lookup(self, path: tuple[str, ...]) -> Any:
        node: Any = self.cfg
        for part in path:
            if not isinstance(node, dict):
                return _UNKNOWN
            if part not in node:
                return _MISSING
            node = node[part]
        return self.value_at(path) if path else node

    def ev(self, node: ast.AST) -> Any:
        from preflight.adapters.hydra_compose import Unknown

        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) == 3 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            key = node.args[1].value
            owner = node.args[0]
            if isinstance(owner, ast.Attribute) and owner.attr == "environ" and isinstance(owner.value, ast.Name) \
                    and owner.value.id == "os" and key not in dir(dict):
                return self.ev(node.args[2])  # an environment variable is an item, never an attribute
            path = _path(owner, self.name)
            if path is None:
                return _UNKNOWN
            got = self.lookup((*path, key))
            if got is _MISSING:
                return self.ev(node.args[2])
            return _UNKNOWN if got is _UNKNOWN or isinstance(got, (Unknown, dict)) else got
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and 1 <= len(node.args) <= 2 and not node.keywords and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            # ``cfg.get("compile", False)``: the DictConfig's value, or the default when the key is absent
            path = _path(node.func.value, self.name)
            if path is None:
                return _UNKNOWN
            got = self.lookup((*path, node.args[0].value))
            if got is _MISSING:
                return self.ev(node.args[1]) if len(node.args) == 2 else None
            return _UNKNOWN if got is _UNKNOWN or isinstance(got, (Unknown, dict)) else got
        path = _path(node, self.name) if isinstance(node, ast.Attribute) else None
        if path:
            got = self.lookup(path)
            return _UNKNOWN if got in (_MISSING, _UNKNOWN) or isinstance(got, (Unknown, dict)) else got
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.ev(node.operand)
            return _UNKNOWN if inner is _UNKNOWN else not inner
        if isinstance(node, ast.BoolOp):
            values = [self.ev(v) for v in node.values]
            decisive = not isinstance(node.op, ast.And)  # `and` is decided by a false operand, `or` by a true one
            if any(v is not _UNKNOWN and bool(v) is decisive for v in values):
                return decisive
            return _UNKNOWN if any(v is _UNKNOWN for v in values) else not decisive
        return _UNKNOWN


def compile_guard(facts: Any) -> None:
    """Add ``compile.enabled`` False for each ``torch.compile`` of the app's script under a test the
    composed config decides false (``facts``: the Hydra adapter's pass)."""
    app = facts.composed.app
    script = app.script
    if script is None or script.tree is None or not isinstance(facts.cfg, dict):
        return
    main = next((n for n in ast.walk(script.tree) if isinstance(n, ast.FunctionDef) and n.args.args
                 and any(app.line is not None and d.lineno == app.line for d in n.decorator_list)), None)
    if main is None:
        return
    name = main.args.args[0].arg
    idx = facts.project.index(script)
    for site in idx.calls:
        if site.qualified != "torch.compile" or not site.guards:
            continue
        fn = next((n for n in ast.walk(script.tree) if isinstance(n, ast.FunctionDef)
                   and n.lineno <= site.line <= (n.end_lineno or n.lineno)
                   and name in {a.arg for a in n.args.args}), None)
        if fn is None:
            continue
        test = _Test(name, facts.cfg, facts.value)
        for guard, in_body in site.guards:
            value = test.ev(guard)
            if value is _UNKNOWN or bool(value) == in_body:
                continue
            from preflight.plan import Source

            facts.adapter.add_checked(
                facts.plan, "compile.enabled", False,
                Source("code", script.source.display, site.line, None,
                       f"torch.compile at line {site.line} sits under `{ast.unparse(guard)}`, false with the composed "
                       "config (its value, or a getattr/get default for a key it lacks; os.environ has no "
                       "attributes named like environment variables): never runs"), "medium", 1)
            return
