"""A project's Hugging Face-style config class whose ``__init__`` computes its fields, sized as a
decoder of the Llama layout its keys describe.

The shape (jingyaogong/minimind @ the benchmark's commit ``model/model_minimind.py:11-48``: ``class
MiniMindConfig(PretrainedConfig): model_type = "minimind"``, ``def __init__(self, hidden_size=768,
num_hidden_layers=8, use_moe=False, **kwargs)`` setting ``self.num_attention_heads = kwargs.get(
"num_attention_heads", 8)``, ``self.intermediate_size = kwargs.get("intermediate_size",
math.ceil(hidden_size * math.pi / 64) * 64)``, ``self.tie_word_embeddings = kwargs.get(..., True)``;
``trainer/train_pretrain.py:116,134``: ``lm_config = MiniMindConfig(hidden_size=args.hidden_size,
num_hidden_layers=args.num_hidden_layers, use_moe=bool(args.use_moe))`` handed to a helper that builds
``MiniMindForCausalLM``, whose class says ``config_class = MiniMindConfig``).

Read, never imported: ``v = C(...)`` in the script, ``C`` imported from a module of the project,
subclassing ``PretrainedConfig``, with a literal ``model_type`` and an ``__init__`` made only of
``super().__init__(...)`` and ``self.x = E`` statements; ``E`` evaluated over the parameters (their literal
defaults, replaced by the call's keywords resolved like the launch line), the fields already set,
``kwargs.get("k", default)``, arithmetic, ``math.ceil``/``math.pi``/``int``; a model class of that module
declaring ``config_class = C``; ``v`` handed to a call of the script. The count is the Llama layout (grouped
query attention without biases, a three-matrix gated MLP, RMS norms, the head tied or not as the config says)
from :func:`preflight.estimate.arch.from_hf_config`, **low**: the keys name the sizes, the model code (not
read) decides the layout. A mixture-of-experts switch set, a missing size or any other statement states
nothing.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.local_trees import parse_file
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
_NEEDED = ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size", "intermediate_size")
_KEEP = (*_NEEDED, "num_key_value_heads", "head_dim", "tie_word_embeddings", "rms_norm_eps")
_MOE = ("use_moe", "moe", "use_mixture_of_experts")


class _Unknown(Exception):
    pass


def _eval(node: ast.AST, env: dict[str, Any], fields: dict[str, Any], kwargs: dict[str, Any],
          kwarg_name: Optional[str]) -> Any:
    def ev(n: ast.AST) -> Any:
        return _eval(n, env, fields, kwargs, kwarg_name)

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise _Unknown(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "self" and node.attr in fields:
            return fields[node.attr]
        if node.value.id == "math" and node.attr in ("pi", "e"):
            return getattr(math, node.attr)
        raise _Unknown(ast.unparse(node))
    if isinstance(node, ast.BinOp):
        left, right = ev(node.left), ev(node.right)
        ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
               ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b}
        op = ops.get(type(node.op))
        if op is None or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)):
            raise _Unknown("operator")
        try:
            return op(left, right)
        except ZeroDivisionError as exc:
            raise _Unknown("division") from exc
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == kwarg_name \
                and f.attr == "get" and node.args and isinstance(node.args[0], ast.Constant) and len(node.args) <= 2:
            key = node.args[0].value
            if key in kwargs:
                return kwargs[key]
            return ev(node.args[1]) if len(node.args) == 2 else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math" \
                and f.attr in ("ceil", "floor") and len(node.args) == 1:
            value = ev(node.args[0])
            if not isinstance(value, (int, float)):
                raise _Unknown("math")
            return getattr(math, f.attr)(value)
        if isinstance(f, ast.Name) and f.id in ("int", "bool") and len(node.args) == 1:
            value = ev(node.args[0])
            if not isinstance(value, (int, float, bool)):
                raise _Unknown("cast")
            return int(value) if f.id == "int" else bool(value)
    raise _Unknown(type(node).__name__)


def _config_class(tree: ast.Module, name: str) -> Optional[ast.ClassDef]:
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
    if cls is None or not any((ast.unparse(b).rsplit(".", 1)[-1]).lower() == "pretrainedconfig" for b in cls.bases):
        return None
    if not any(isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "model_type" for t in s.targets)
               and isinstance(s.value, ast.Constant) for s in cls.body):
        return None
    return cls


def config_fields(cls: ast.ClassDef, given: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The fields ``cls(**given)`` sets (those among :data:`_KEEP` and the MoE switches), or None when its
    ``__init__`` does anything else or a needed size is not known."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    params = [a.arg for a in init.args.args[1:]]
    defaults = dict(zip(params[len(params) - len(init.args.defaults):], init.args.defaults))
    env: dict[str, Any] = {}
    for p in params:
        if p in given:
            env[p] = given[p]
        elif isinstance(defaults.get(p), ast.Constant):
            env[p] = defaults[p].value  # type: ignore[attr-defined]
    kwarg_name = init.args.kwarg.arg if init.args.kwarg else None
    extra = {k: v for k, v in given.items() if k not in params}
    if extra and kwarg_name is None:
        return None
    fields: dict[str, Any] = {}
    for stmt in init.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Constant, ast.Call)):
            if isinstance(stmt.value, ast.Call) and "super" not in ast.unparse(stmt.value.func):
                return None  # a call that may change the fields
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
                and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == "self"):
            return None
        attr = stmt.targets[0].attr
        try:
            fields[attr] = _eval(stmt.value, env, fields, extra, kwarg_name)
        except (_Unknown, TypeError, ValueError, OverflowError, RecursionError):
            if attr in _KEEP or attr in _MOE:
                return None
            fields[attr] = None
    if any(fields.get(k) for k in _MOE):
        return None
    if not all(isinstance(fields.get(k), int) and not isinstance(fields.get(k), bool) and fields[k] > 0
               for k in _NEEDED):
        return None
    return {k: fields[k] for k in _KEEP if k in fields and fields[k] is not None}


def _has_model(tree: ast.Module, name: str) -> Optional[str]:
    """A model class of the module declaring ``config_class = name``."""
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and any(
                isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "config_class" for t in s.targets)
                and isinstance(s.value, ast.Name) and s.value.id == name for s in cls.body):
            return cls.name
    return None


@register_adapter
class ModelConfigKwargsAdapter(ScratchAdapter):
    name = "model_config_kwargs"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None and "Config(" in s.source.text
                   for s in project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        from preflight.adapters.cliargs import option_resolver
        from preflight.adapters.model_helper_load import _UNSET, _Caller, _imported, _none_defaults

        from preflight.estimate.arch import ArchitectureError, from_hf_config

        path = Path(str(script.source.path)).resolve()
        imported = _imported(script.tree, path)
        found = []
        for owner in ast.walk(script.tree):
            if not isinstance(owner, (ast.FunctionDef, ast.Module)):
                continue
            for stmt in ast.walk(owner):
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                        and stmt.value.func.id in imported and not stmt.value.args):
                    continue
                var, call, func = stmt.targets[0].id, stmt.value, stmt.value.func
                if any(k.arg is None for k in call.keywords) or not isinstance(func, ast.Name):
                    continue
                module, cname = imported[func.id]
                try:
                    if module.stat().st_size > _MAX_BYTES:
                        continue
                    tree = parse_file(module)
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                cls = _config_class(tree, cname)
                model = _has_model(tree, cname) if cls is not None else None
                if cls is None or model is None:
                    continue
                handed = [c for c in ast.walk(owner) if isinstance(c, ast.Call) and c is not call and any(
                    isinstance(a, ast.Name) and a.id == var for a in [*c.args, *(k.value for k in c.keywords)])]
                if not handed:
                    continue
                caller = _Caller(project.index(script), owner, option_resolver(project, script),
                                 _none_defaults(project, script))
                given = {str(k.arg): caller.value(k.value) for k in call.keywords}
                if any(v is _UNSET for v in given.values()):
                    continue
                fields = config_fields(cls, given)
                if fields is None:
                    continue
                try:
                    arch = from_hf_config({**fields, "model_type": "llama"}, name=cname,
                                          source=f"{module.name}:{cls.lineno}")
                except ArchitectureError:
                    continue
                found.append((arch.params_total, stmt, cname, model, module, cls, fields))
        if len({f[0] for f in found}) != 1:
            return
        total, stmt, cname, model, module, cls, fields = found[0]
        sizes = ", ".join(f"{k} {fields[k]}" for k in _KEEP if k in fields)
        src = project.source(script, stmt, "code",
                             detail=f"{cname}(...) ({module.name}:{cls.lineno}, the config_class of {model}): {sizes}; "
                                    f"about {total:,} parameters counted as a Llama-layout decoder (the model code "
                                    "is not read)")
        self.add_checked(plan, "model.num_parameters", total, src, "low")
        self.add_checked(plan, "model.class_name", model, src, "low")
