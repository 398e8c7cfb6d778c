"""DeepSpeed configs built in Python: ``deepspeed.initialize(..., config=ds_config)`` where
``ds_config`` is a dict literal in the script, or the dict a helper returns
(``get_train_ds_config(offload=args.offload, stage=args.zero_stage, ...)`` in a local module).

A DeepSpeed JSON whose path the script builds from its options (``HfDeepSpeedConfig(path)``,
``deepspeed.initialize(config=path)`` with ``path = f"dsconfig/stage_{args['stage']}.json"`` and
``--stage 1`` on the launch line) is read as that file.

The dict is read like a JSON config by the deepspeed adapter (one module owns DeepSpeed
semantics). Nothing is executed: a small evaluator follows literals, the helper's parameters
bound to the call's arguments, ``args.<option>`` values (the launch line's, else the declared
default; see :mod:`preflight.adapters.cliargs`), simple assignments, ``if``/``elif`` on known
values, conditional expressions, comparisons and arithmetic. A value it cannot follow is
left out (the key is then not a fact); ``cfg["key"] = value`` after the dict is built is
applied when the value is known.
"""

from __future__ import annotations

import ast
import operator
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.cliargs import _as_int
from preflight.adapters.cliargs import _Pass as _CliPass
from preflight.adapters.cliargs_options import _local_module, declared_options
from preflight.adapters.deepspeed_code_callers import origin
from preflight.adapters.deepspeed_code_update import apply_update, mark_undecided
from preflight.adapters.deepspeed_json_load import read_json_beside

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.local_trees import nodes_of, parse_file
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import ParsedPython


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN = _Unknown()
RUNTIME = "<set at run time>"
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge}
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.truediv}
_MAX_STEPS = 2000


class _Options(dict):
    """The launch options as a dict (``def main(**args)`` called as ``main(**vars(parser.parse_args()))``):
    a key set in the body is its value, any other key is the option of that name."""

    def __init__(self, resolve_option) -> None:
        super().__init__()
        self.resolve_option = resolve_option

    def lookup(self, key: str) -> Any:
        return self[key] if key in self else self.resolve_option(key)


class _Eval:
    """Evaluates a function body far enough to get the dict it returns or builds."""

    def __init__(self, resolve_option, lines: dict) -> None:
        self.resolve_option = resolve_option  # name -> value or UNKNOWN
        self.lines = lines  # id(dict) -> {key: line}
        self.steps = 0

    def expr(self, node: Optional[ast.AST], env: dict[str, Any]) -> Any:
        self.steps += 1
        if node is None or self.steps > _MAX_STEPS:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            return self.resolve_option(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in env and isinstance(env[node.value.id], dict):
                return env[node.value.id].get(node.attr, UNKNOWN)
            return self.resolve_option(node.attr)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and isinstance(env.get(node.value.id), dict):
            key = self.expr(node.slice, env)
            held = env[node.value.id]
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                return UNKNOWN
            return held.lookup(key) if isinstance(held, _Options) and isinstance(key, str) else held.get(key, UNKNOWN)
        if isinstance(node, ast.JoinedStr):
            # f"dsconfig/stage_{args['stage']}.json": known only when every part is a plain str or int
            parts = []
            for part in node.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    parts.append(part.value)
                    continue
                if not isinstance(part, ast.FormattedValue) or part.format_spec is not None \
                        or part.conversion not in (-1, ord("s")):
                    return UNKNOWN
                value = self.expr(part.value, env)
                if not isinstance(value, (str, int)) or isinstance(value, bool):
                    return UNKNOWN
                parts.append(str(value))
            return "".join(parts)
        if isinstance(node, ast.Dict):
            out: dict = {}
            keys: dict = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    continue
                key = self.expr(k, env)
                if not isinstance(key, (str, int)) or key is UNKNOWN:
                    continue
                out[key] = self.expr(v, env)
                keys[key] = k.lineno
            self.lines[id(out)] = keys
            return out
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.expr(e, env) for e in node.elts]
        if isinstance(node, ast.IfExp):
            test = self.truth(node.test, env)
            if test is None:
                return UNKNOWN
            return self.expr(node.body if test else node.orelse, env)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP:
            left, right = self.expr(node.left, env), self.expr(node.comparators[0], env)
            if UNKNOWN in (left, right):
                return UNKNOWN
            try:
                return _CMP[type(node.ops[0])](left, right)
            except TypeError:
                return UNKNOWN
        if isinstance(node, ast.BoolOp):
            values = [self.truth(v, env) for v in node.values]
            if None in values:
                return UNKNOWN
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            t = self.truth(node.operand, env)
            return UNKNOWN if t is None else not t
        if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            left, right = self.expr(node.left, env), self.expr(node.right, env)
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (left, right)):
                return UNKNOWN
            try:
                return _BIN[type(node.op)](left, right)
            except (ZeroDivisionError, OverflowError):
                return UNKNOWN
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float") \
                and len(node.args) == 1:
            value = self.expr(node.args[0], env)
            try:
                return UNKNOWN if value is UNKNOWN else (int if node.func.id == "int" else float)(value)
            except (TypeError, ValueError):
                return UNKNOWN
        return UNKNOWN

    def truth(self, node: ast.AST, env: dict[str, Any]) -> Optional[bool]:
        value = self.expr(node, env)
        if value is UNKNOWN:
            return None
        return bool(value)

    def undecided(self, stmt: ast.If, env: dict[str, Any]) -> None:
        """A branch not decided: a key it sets in a dict already built is present but not known
        (``if args.offload: cfg["zero_optimization"]["offload_optimizer"] = {...}`` must not read
        as DeepSpeed's default, no offload)."""
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Subscript)):
                continue
            target = node.targets[0]
            held = self.expr(target.value, env) if isinstance(target.value, ast.Subscript) else \
                env.get(target.value.id) if isinstance(target.value, ast.Name) else None
            key = self.expr(target.slice, env)
            if isinstance(held, dict) and not isinstance(held, _Options) and isinstance(key, str):
                held[key] = UNKNOWN
                self.lines.setdefault(id(held), {})[key] = node.lineno
        mark_undecided(self, stmt, env, UNKNOWN, _Options)

    def body(self, stmts: list[ast.stmt], env: dict[str, Any], stop_line: Optional[int] = None) -> Any:
        """Run statements; return the value of ``return`` (or UNKNOWN)."""
        for stmt in stmts:
            if stop_line is not None and stmt.lineno >= stop_line:
                return UNKNOWN
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    env[target.id] = self.expr(stmt.value, env)
                elif isinstance(target, ast.Subscript):
                    # cfg["key"] = v, and cfg["zero_optimization"]["offload_optimizer"] = {...}
                    held = self.expr(target.value, env) if isinstance(target.value, ast.Subscript) else \
                        env.get(target.value.id) if isinstance(target.value, ast.Name) else None
                    key = self.expr(target.slice, env)
                    if isinstance(held, dict) and isinstance(key, str):
                        held[key] = self.expr(stmt.value, env)
                        self.lines.setdefault(id(held), {})[key] = stmt.lineno
            elif isinstance(stmt, ast.Expr):
                apply_update(self, stmt, env, _Options)
            elif isinstance(stmt, ast.If):
                test = self.truth(stmt.test, env)
                if test is None:
                    self.undecided(stmt, env)
                    continue
                result = self.body(stmt.body if test else stmt.orelse, env, stop_line)
                if result is not UNKNOWN:
                    return result
            elif isinstance(stmt, ast.Return):
                return self.expr(stmt.value, env)
            if self.steps > _MAX_STEPS:
                return UNKNOWN
        return UNKNOWN


def _called_with_options(tree: ast.Module, name: str) -> bool:
    """Whether the module calls ``name(**vars(...))`` or ``name(**d)`` with ``d = vars(...)``: the
    function's ``**kwargs`` are then the parsed options."""
    from_vars = {t.id for n in nodes_of(tree) if isinstance(n, ast.Assign) and _is_vars(n.value)
                 for t in n.targets if isinstance(t, ast.Name)}
    for n in nodes_of(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name:
            for kw in n.keywords:
                if kw.arg is None and (_is_vars(kw.value) or (isinstance(kw.value, ast.Name)
                                                              and kw.value.id in from_vars)):
                    return True
    return False


def _is_vars(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" \
        and len(node.args) == 1


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in nodes_of(tree) if isinstance(n, ast.FunctionDef)}


def _enclosing(tree: ast.Module, line: int) -> Optional[ast.FunctionDef]:
    best = None
    for n in nodes_of(tree):
        if isinstance(n, ast.FunctionDef) and n.lineno <= line <= (n.end_lineno or n.lineno) \
                and (best is None or n.lineno > best.lineno):
            best = n
    return best


@register_adapter
class DeepSpeedCodeAdapter(Adapter):
    name = "deepspeed_code"
    frameworks = ("deepspeed",)

    def detect(self, project: Project) -> bool:
        return any(("deepspeed" in s.source.text and "initialize" in s.source.text) or "DeepSpeedPlugin(" in s.source.text
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.deepspeed import DeepSpeedAdapter, _ConfigPass, deepspeed_block
        from preflight.adapters.deepspeed_json_load import json_loaded_config

        if any(deepspeed_block(cfg) is not None for _, cfg in project.configs):
            return  # a DeepSpeed file is given: it is the config
        for script in project.scripts:
            found = self.config_of(project, plan, script) or self.config_file_of(project, plan, script) \
                or json_loaded_config(self, project, plan, script) or self.written_of(project, plan, script)
            if found is None:
                continue
            loaded, data = found
            if isinstance(data, dict) and data:
                _ConfigPass(DeepSpeedAdapter(), project, plan, loaded, (), data).run()

    def written_of(self, project: Project, plan: TrainingPlan, script: ParsedPython) \
            -> Optional[tuple[LoadedConfig, dict]]:
        return _written_config(self, project, plan, script)

    def config_file_of(self, project: Project, plan: TrainingPlan, script: ParsedPython) \
            -> Optional[tuple[LoadedConfig, dict]]:
        """A DeepSpeed JSON whose path the script builds from its options and hands to
        ``HfDeepSpeedConfig(path)``, ``deepspeed.initialize(config=path)`` or accelerate's
        ``DeepSpeedPlugin(hf_ds_config=path)``
        (NExT-GPT's ``args['ds_config_path'] = f'dsconfig/stage_{args["stage"]}.json'`` with
        ``--stage 1`` on the launch line), found next to the script or under the project root."""
        option = self._option_resolver(project, plan, script)
        for node in nodes_of(script.tree):
            if not isinstance(node, ast.Call):
                continue
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else ""
            if callee == "HfDeepSpeedConfig" and node.args:
                arg: Optional[ast.AST] = node.args[0]
            elif callee == "initialize" and isinstance(node.func, ast.Attribute):
                arg = next((k.value for k in node.keywords if k.arg in ("config", "config_params")), None)
            elif callee == "DeepSpeedPlugin":
                # accelerate ``Accelerator(deepspeed_plugin=DeepSpeedPlugin(hf_ds_config='./ds_config_zero2.json'))``
                # (KimMeen/Time-LLM @ 0045cde run_main.py:103-104): the JSON is the DeepSpeed config
                arg = next((k.value for k in node.keywords if k.arg == "hf_ds_config"), None)
            else:
                continue
            if arg is None:
                continue
            ev = _Eval(option, {})
            fn = _enclosing(script.tree, node.lineno)
            env: dict[str, Any] = {}
            if fn is not None:
                self.bind_params(ev, fn, env, option)
                if fn.args.kwarg is not None and _called_with_options(script.tree, fn.name):
                    env[fn.args.kwarg.arg] = _Options(option)
            ev.body(fn.body if fn is not None else script.tree.body, env, stop_line=node.lineno)
            value = ev.expr(arg, env)
            if not isinstance(value, str) or not value.lower().endswith(".json"):
                continue
            loaded = read_json_beside(project, plan, script, value)
            if loaded is None:
                continue
            self.note(plan, f"{script.source.display}:{node.lineno}: the DeepSpeed config is {loaded.path} "
                            f"({ast.unparse(arg)} = {value!r}, from the launch options); read")
            return loaded, loaded.data
        return None

    def _option_resolver(self, project: Project, plan: TrainingPlan, script: ParsedPython):
        cli = _CliPass(self, project, plan, script)

        def option(name: str) -> Any:
            found = cli.value(name)
            if found is None:
                return UNKNOWN
            value = found[1]
            number = _as_int(value)
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            return number if number is not None and isinstance(value, str) else value

        return option

    def config_of(self, project: Project, plan: TrainingPlan, script: ParsedPython) \
            -> Optional[tuple[LoadedConfig, dict]]:
        option = self._option_resolver(project, plan, script)
        for node in nodes_of(script.tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "initialize"):
                continue
            cfg = next((k.value for k in node.keywords if k.arg in ("config", "config_params")), None)
            if not isinstance(cfg, ast.Name):
                continue
            lines: dict = {}
            ev = _Eval(option, lines)
            # a project wrapper's parameter (``def deepspeed_initialize(..., deepspeed_config)``):
            # the dict its caller passes
            fn, name, at = origin(script.tree, _enclosing(script.tree, node.lineno), cfg.id, node.lineno,
                                  self.last_assign)
            env: dict[str, Any] = {}
            if fn is not None:
                self.bind_params(ev, fn, env, option)
            stmts = fn.body if fn is not None else script.tree.body
            source_path, data = script.source.display, None
            assign = self.last_assign(stmts, name, at)
            if assign is None:
                continue
            if isinstance(assign.value, ast.Call) and isinstance(assign.value.func, ast.Name):
                called = self.helper(project, script, assign.value.func.id)
                if called is None:
                    continue
                helper_fn, helper_path = called
                henv: dict[str, Any] = {}
                self.bind_params(ev, helper_fn, henv, lambda n: UNKNOWN)
                names = [a.arg for a in helper_fn.args.args]
                for k, a in enumerate(assign.value.args):
                    if k < len(names):
                        henv[names[k]] = ev.expr(a, env)
                for kw in assign.value.keywords:
                    if kw.arg:
                        henv[kw.arg] = ev.expr(kw.value, env)
                data = ev.body(helper_fn.body, henv)
                source_path = helper_path
            else:
                ev.body(stmts, env, stop_line=at)
                data = env.get(name)
            if not isinstance(data, dict):
                continue
            if isinstance(assign.value, ast.Call):
                # cfg["key"] = value after the helper returned it
                env[name] = data
                before = dict(lines.get(id(data), {}))
                ev.body([s for s in stmts if isinstance(s, ast.Assign) and assign.lineno < s.lineno < at
                         and isinstance(s.targets[0], ast.Subscript)], env)
                # keys set in the caller: their lines are not lines of the helper's file
                lines[id(data)] = {k: v for k, v in lines.get(id(data), {}).items() if before.get(k) == v}
            clean = self.clean(data, lines, (), {})
            loaded = LoadedConfig(path=str(source_path), kind="python", data=clean[0], lines=clean[1])
            self.note(plan, f"{script.source.display}:{node.lineno}: the DeepSpeed config is built in Python "
                            f"({source_path}); read without running it")
            return loaded, clean[0]
        return None

    def clean(self, data: Any, lines: dict, path: tuple, out_lines: dict) -> tuple[Any, dict]:
        if isinstance(data, dict):
            keys = lines.get(id(data), {})
            out = {}
            for k, v in data.items():
                if v is UNKNOWN:
                    v = RUNTIME  # present but not known: never read as absent (no default applies)
                sub = (*path, k)
                if k in keys:
                    out_lines[sub] = keys[k]
                out[k], _ = self.clean(v, lines, sub, out_lines)
            return out, out_lines
        if isinstance(data, list):
            return [RUNTIME if x is UNKNOWN else x for x in data], out_lines
        return data, out_lines

    def bind_params(self, ev: _Eval, fn: ast.FunctionDef, env: dict, option) -> None:
        args = fn.args.args + fn.args.kwonlyargs
        defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + list(fn.args.defaults) + \
            list(fn.args.kw_defaults)
        for a, d in zip(args, defaults):
            given = option(a.arg)
            env[a.arg] = given if given is not UNKNOWN else (ev.expr(d, {}) if d is not None else UNKNOWN)

    def last_assign(self, stmts: list[ast.stmt], name: str, before: int) -> Optional[ast.Assign]:
        found = None
        for stmt in stmts:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Assign) and n.lineno < before and len(n.targets) == 1 \
                        and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name \
                        and (found is None or n.lineno > found.lineno):
                    found = n
        return found

    def helper(self, project: Project, script: ParsedPython, name: str) -> Optional[tuple[ast.FunctionDef, str]]:
        local = _functions(script.tree)
        if name in local:
            return local[name], str(script.source.display)
        module = None
        for n in nodes_of(script.tree):
            if isinstance(n, ast.ImportFrom) and n.module and any((a.asname or a.name) == name for a in n.names):
                module = n.module
        if module is None:
            return None
        return _module_helper(project, script, module, name)


_DS_KEYS = ("train_micro_batch_size_per_gpu", "train_batch_size", "zero_optimization", "gradient_accumulation_steps")


def _flat(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body with ``with`` blocks opened (``with open(path, "w") as writer:``)."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, ast.With):
            out.extend(_flat(stmt.body))
        else:
            out.append(stmt)
    return out


def _dumped_name(fn: ast.FunctionDef) -> Optional[ast.Call]:
    """The ``json.dump(d, f)``/``json.dumps(d)`` call of ``fn`` writing a dict held in a name."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("dump", "dumps") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "json" \
                and node.args and isinstance(node.args[0], ast.Name):
            return node
    return None


def _module_helper(project: Project, script: ParsedPython, module: str, name: str) \
        -> Optional[tuple[ast.FunctionDef, str]]:
    path = Path(str(script.source.path)).resolve().parent
    found = _local_module(module, [path, *list(path.parents)[:5]])
    if found is None or not project.may_read(found):
        return None
    try:
        tree = parse_file(found)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    fn = _functions(tree).get(name)
    if fn is None:
        return None
    try:
        shown = os.path.relpath(found, project.root.resolve())
    except ValueError:
        shown = str(found)
    return fn, shown


def _written_config(adapter: DeepSpeedCodeAdapter, project: Project, plan: TrainingPlan, script: ParsedPython) \
        -> Optional[tuple[LoadedConfig, dict]]:
    """A DeepSpeed config dict that a helper writes to a JSON file before the engine starts
    (MCG-NJU/VideoMAE utils.py:482-511 @ 14ef8d8: ``create_ds_config(args)`` sets
    ``args.deepspeed_config`` to a path under the output folder and writes ``json.dumps(ds_config)``
    with ``train_micro_batch_size_per_gpu: args.batch_size``, ``fp16.enabled: True``; the script
    calls ``utils.create_ds_config(args)`` and later ``deepspeed.initialize(args=args, ...)``, which
    reads ``args.deepspeed_config``). Read like a dict a helper returns; the helper's call must not
    sit under a guard the job decides false, and the dict must hold a DeepSpeed batch or ZeRO key."""
    if script.tree is None:
        return None
    imports: dict[str, str] = {}
    for n in nodes_of(script.tree):
        if isinstance(n, ast.Import):
            for alias in n.names:
                imports[alias.asname or alias.name] = alias.name
    idx = project.index(script)
    option = adapter._option_resolver(project, plan, script)
    for site in idx.calls:
        call = site.call
        if idx.runs(site) is False:
            continue
        helper: Optional[tuple[ast.FunctionDef, str]] = None
        if isinstance(call.func, ast.Name):
            helper = adapter.helper(project, script, call.func.id)
        elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                and call.func.value.id in imports:
            helper = _module_helper(project, script, imports[call.func.value.id], call.func.attr)
        if helper is None:
            continue
        fn, shown = helper
        dumped = _dumped_name(fn)
        if dumped is None:
            continue
        lines: dict = {}
        ev = _Eval(option, lines)
        env: dict[str, Any] = {}
        adapter.bind_params(ev, fn, env, lambda n: UNKNOWN)
        names = [a.arg for a in fn.args.args]
        for k, a in enumerate(call.args):
            if k < len(names):
                env[names[k]] = ev.expr(a, {})
        ev.body(_flat(fn.body), env, stop_line=dumped.lineno)
        dumped_arg = dumped.args[0]
        data = env.get(dumped_arg.id) if isinstance(dumped_arg, ast.Name) else None
        if not isinstance(data, dict) or not any(k in data for k in _DS_KEYS):
            continue
        clean = adapter.clean(data, lines, (), {})
        loaded = LoadedConfig(path=str(shown), kind="python", data=clean[0], lines=clean[1])
        adapter.note(plan, f"{script.source.display}:{call.lineno}: {site.label}(...) writes the DeepSpeed config "
                           f"built in {shown}:{fn.lineno} to a JSON file before the engine starts; read without "
                           "running it")
        return loaded, clean[0]
    return None


__all__ = ["DeepSpeedCodeAdapter", "declared_options"]
