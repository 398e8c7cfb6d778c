"""PF697 ddp-encoder-pooler-never-used: a BERT-family encoder (which carries a pooler layer) used only
through its token states inside a model that accelerate or ``DistributedDataParallel`` wraps for several
processes without ``find_unused_parameters``."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# transformers classes whose base model builds a pooler (``add_pooling_layer=True`` by default)
_POOLER_CLASSES = frozenset({
    "BertModel", "RobertaModel", "XLMRobertaModel", "AlbertModel", "MPNetModel", "CamembertModel",
    "ErnieModel", "RoFormerModel", "NezhaModel", "XLMRobertaXLModel",
})
# checkpoint names AutoModel resolves to one of those (DistilBERT, DeBERTa, ModernBERT, ELECTRA and the
# decoder families have no pooler)
_POOLER_NAMES = re.compile(
    r"(^|[/_-])(bert|roberta|xlm-roberta|albert|mpnet|camembert|macbert|minilm|bge|e5|simcse)([-_/.]|$)",
    re.IGNORECASE)
_NO_POOLER = re.compile(r"distil|deberta|modernbert|electra|gpt|t5|llama|bart", re.IGNORECASE)
_TOKEN_ATTRS = frozenset({"last_hidden_state", "hidden_states", "attentions"})
# any of these in the project: the author handles unused parameters (or the pooler) already
_HANDLED = ("find_unused_parameters", "static_graph", "pooler", "requires_grad", "add_pooling_layer",
            "_set_static_graph")


def _text(script: Any) -> str:
    return (script.text if script.text is not None else script.source.text) or ""


def _is_module_class(cls: ast.ClassDef) -> bool:
    names = [ast.unparse(b).rsplit(".", 1)[-1] for b in cls.bases]
    return "Module" in names


def _param_default(fn: ast.FunctionDef, name: str) -> tuple[Optional[int], Optional[ast.expr]]:
    """(position of parameter ``name`` after self, its default) in ``fn``."""
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    for i, (arg, default) in enumerate(zip(args, defaults)):
        if arg.arg == name:
            return i - 1, default
    for arg, kw_default in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if arg.arg == name:
            return None, kw_default
    return None, None


def _checkpoint(ctx: FileContext, cls: ast.ClassDef, init: ast.FunctionDef,
                expr: ast.expr) -> Optional[tuple[str, Optional[str], Optional[int]]]:
    """(checkpoint name, the __init__ parameter it comes from, that parameter's position) when ``expr``
    is a literal name, a module constant, or an __init__ parameter with a literal default."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value, None, None
    if not isinstance(expr, ast.Name):
        return None
    position, default = _param_default(init, expr.id)
    if default is not None:
        if isinstance(default, ast.Constant) and isinstance(default.value, str):
            return default.value, expr.id, position
        return None
    if any(a.arg == expr.id for a in init.args.args + init.args.kwonlyargs):
        return None
    values = [n.value for n in ctx.tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
    if len(values) == 1 and isinstance(values[0], ast.Constant) and isinstance(values[0].value, str):
        return values[0].value, None, None
    return None


def _encoders(ctx: FileContext, cls: ast.ClassDef) -> dict[str, tuple[ast.Call, str, Optional[str], Optional[int]]]:
    """``self.X = <pooler model>.from_pretrained(...)`` in __init__: X -> (call, what it loads, parameter,
    parameter position)."""
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    out: dict[str, tuple[ast.Call, str, Optional[str], Optional[int]]] = {}
    if init is None:
        return out
    for node in ast.walk(init):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, call = node.targets[0], node.value
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == "self" and isinstance(call, ast.Call)):
            continue
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "from_pretrained" and call.args):
            continue
        if any(k.arg is None or k.arg in ("add_pooling_layer", "config") for k in call.keywords):
            continue
        owner = ast.unparse(func.value).rsplit(".", 1)[-1]
        found = _checkpoint(ctx, cls, init, call.args[0])
        if owner in _POOLER_CLASSES:
            if found is None:
                out[target.attr] = (call, owner, None, None)
            else:
                out[target.attr] = (call, f"{owner} ({found[0]})", found[1], found[2])
        elif owner == "AutoModel" and found is not None:
            name = found[0]
            if _POOLER_NAMES.search(name) and not _NO_POOLER.search(name):
                out[target.attr] = (call, f"AutoModel ({name})", found[1], found[2])
    return out


def _token_only_use(ctx: FileContext, node: ast.AST, functions: dict[str, ast.FunctionDef], depth: int = 0) -> bool:
    """The encoder output ``node`` is read only for its token states (``.last_hidden_state``, ``[0]``),
    directly, through a local name, or through a helper of the file whose parameter is read that way."""
    parent = ctx.parent(node)
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return parent.attr in _TOKEN_ATTRS
    if isinstance(parent, ast.Subscript) and parent.value is node:
        key = parent.slice
        return isinstance(key, ast.Constant) and (key.value == 0 or key.value in _TOKEN_ATTRS)
    if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], ast.Name):
        fn = ctx.enclosing_function(parent)
        if fn is None:
            return False
        name = parent.targets[0].id
        loads = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        return bool(loads) and all(_token_only_use(ctx, n, functions, depth) for n in loads)
    if isinstance(parent, ast.Call) and node in parent.args and depth < 2:
        callee = parent.func
        helper: Optional[str] = callee.attr if isinstance(callee, ast.Attribute) \
            and ast.unparse(callee.value) in ("self", "cls") else callee.id if isinstance(callee, ast.Name) else None
        fn = functions.get(helper) if helper else None
        if fn is None:
            return False
        params = [a.arg for a in fn.args.args]
        if params and params[0] in ("self", "cls") and isinstance(callee, ast.Attribute) \
                and not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list):
            params = params[1:]
        index = parent.args.index(node)
        if index >= len(params) or fn.args.vararg is not None:
            return False
        loads = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == params[index]
                 and isinstance(n.ctx, ast.Load)]
        return bool(loads) and all(_token_only_use(ctx, n, functions, depth + 1) for n in loads)
    return False


def _uses(ctx: FileContext, cls: ast.ClassDef, attr: str) -> Optional[list[ast.Call]]:
    """The calls of ``self.<attr>(...)`` in the class when every use of the encoder reads only its
    token states; None when some use reads more (or cannot be followed)."""
    functions: dict[str, ast.FunctionDef] = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
    for stmt in ctx.tree.body:
        if isinstance(stmt, ast.FunctionDef):
            functions.setdefault(stmt.name, stmt)
    calls = []
    for node in ast.walk(cls):
        if not (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name)
                and node.value.id == "self"):
            continue
        parent = ctx.parent(node)
        if isinstance(parent, ast.Assign) and node in parent.targets:
            continue  # the assignment in __init__
        if isinstance(parent, ast.Call) and parent.func is node:
            if not _token_only_use(ctx, parent, functions):
                return None
            calls.append(parent)
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in ("config", "device", "dtype", "embeddings",
                                                                 "get_input_embeddings", "resize_token_embeddings",
                                                                 "gradient_checkpointing_enable"):
            continue
        return None  # handed elsewhere (an optimizer group, a helper): not followed
    return calls


def _instantiations(pctx: PlanContext, name: str) -> list[ast.Call]:
    out = []
    for script in pctx.scripts:
        if name not in _text(script):
            continue
        for call in pctx.file_context(script).nodes(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id == name:
                out.append(call)
    return out


def _default_kept(calls: list[ast.Call], param: Optional[str], position: Optional[int]) -> bool:
    """Every construction of the class leaves the checkpoint parameter at its default."""
    if param is None:
        return True
    if not calls:
        return False
    for call in calls:
        if any(k.arg == param or k.arg is None for k in call.keywords):
            return False
        if any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if position is None or len(call.args) > position:
            return False
    return True


def _wrap_site(pctx: PlanContext, cls_name: str) -> Optional[tuple[Any, ast.Call, str]]:
    """(script, call, how) of the ``accelerator.prepare`` / ``DistributedDataParallel`` call that wraps a
    model built from the class, in a script that constructs it."""
    for script in pctx.scripts:
        text = _text(script)
        if f"{cls_name}(" not in text:
            continue
        ctx = pctx.file_context(script)
        bound: set[str] = set()
        for node in ctx.nodes(ast.Assign):
            value = node.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in ("to", "cuda", "train", "float", "bfloat16", "half"):
                value = value.func.value  # ``Model(...).cuda()`` / ``.to(device)``
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == cls_name:
                bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
        for call in ctx.nodes(ast.Call):
            func = call.func
            names = {a.id for a in call.args if isinstance(a, ast.Name)}
            direct = any(isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == cls_name
                         for a in call.args)
            if not (names & bound or direct):
                continue
            if isinstance(func, ast.Attribute) and func.attr == "prepare" and \
                    "accelerator" in ast.unparse(func.value).lower():
                return script, call, "accelerate"
            last = ast.unparse(func).rsplit(".", 1)[-1]
            if last in ("DistributedDataParallel", "DDP"):
                if any(k.arg in ("find_unused_parameters", "static_graph") or k.arg is None for k in call.keywords):
                    return None
                return script, call, "DistributedDataParallel"
    return None


@register
class DdpEncoderPoolerNeverUsed(PlanRule):
    code = "PF697"
    name = "ddp-encoder-pooler-never-used"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "pytorch")
    summary = ("a BERT-family encoder is used only for its token states (its pooler never runs) inside a model "
               "that DDP wraps for several processes without `find_unused_parameters`: the second step fails "
               "with \"Expected to have finished reduction in the prior iteration\"")
    explanation = """
## What it finds

A module class whose `__init__` loads a BERT-family base model (`BertModel`,
`RobertaModel`, `XLMRobertaModel`, `AlbertModel`, `MPNetModel`, ... or `AutoModel` with a
checkpoint name of those families: `bert-base-uncased`, `roberta-large`, `BAAI/bge-*`,
`all-MiniLM-*`) into an attribute, and whose every call of that encoder reads only the token
states (`.last_hidden_state`, `[0]`, directly, through a local name, or through a pooling
helper of the file), never `pooler_output`. The model is wrapped by
`accelerator.prepare(...)` or `DistributedDataParallel(...)` in a job launched with more
than one process, and nothing in the project sets `find_unused_parameters` or
`static_graph`.

## Why it matters

These base models build a pooler (a dense layer on the first token) by default. When the
loss is computed from the token states (mean pooling, a CLS slice, a token classifier),
the pooler's weight and bias never get a gradient. DDP expects a gradient for every
parameter that requires one; with the default `find_unused_parameters=False` the second
iteration fails with "RuntimeError: Expected to have finished reduction in the prior
iteration before starting a new one. This error indicates that your module has
parameters that were not used in producing loss" (huggingface/accelerate issue 116: a
two-tower retrieval model with mean pooling; the same report recurs for sentence-embedding
and token-classification heads built on `AutoModel`). On one GPU the job runs, so the
failure appears only once it is launched on several.

## How to fix it

Load the encoder without the pooler (`AutoModel.from_pretrained(name,
add_pooling_layer=False)`), or tell DDP to look for unused parameters:
`Accelerator(kwargs_handlers=[DistributedDataParallelKwargs(find_unused_parameters=True)])`
or `DistributedDataParallel(model, ..., find_unused_parameters=True)` (slower: it walks
the graph every step), or freeze the pooler (`requires_grad_(False)`).

## When preflight stays silent

* The launch has one process, or the plan does not say how many; DeepSpeed/FSDP sharding.
* Any script of the project mentions `find_unused_parameters`, `static_graph`,
  `requires_grad`, `add_pooling_layer` or `pooler` (the author handles it), or uses
  HF `Trainer` or Lightning (they choose the DDP settings themselves).
* Some use of the encoder reads `pooler_output` / `[1]`, or goes somewhere preflight does
  not follow (returned whole, handed to another object, unpacked).
* The checkpoint comes from a variable (a command-line argument, a config) unless the class is
  explicitly a pooler class (`BertModel`), or it names a model without a pooler
  (DistilBERT, DeBERTa, ELECTRA, ModernBERT, decoders), or the class is constructed with a
  different checkpoint than its default.
"""
    bad_examples = examples("preflight.rules.plan._pf697_examples", "PF697_BAD")
    good_examples = examples("preflight.rules.plan._pf697_examples", "PF697_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = pctx.plan.resolve("dist.world_size")
        if world is None or not isinstance(world.value, int) or isinstance(world.value, bool) or world.value <= 1:
            return
        sharding = pctx.plan.resolve("dist.sharding")
        if sharding is not None and sharding.value not in ("ddp", "none", None):
            return
        texts = [_text(s) for s in pctx.scripts]
        joined = "\n".join(texts)
        if any(h in joined for h in _HANDLED) or "Trainer(" in joined or "lightning" in joined:
            return
        if "from_pretrained" not in joined:
            return
        if any("find_unused" in tok or "static_graph" in tok for tok in (pctx.project.argv or [])):
            return
        for script in pctx.scripts:
            if "from_pretrained" not in _text(script):
                continue
            ctx = pctx.file_context(script)
            for cls in ctx.nodes(ast.ClassDef):
                if not _is_module_class(cls):
                    continue
                for attr, (load, what, param, position) in _encoders(ctx, cls).items():
                    calls = _uses(ctx, cls, attr)
                    if not calls:
                        continue
                    if not _default_kept(_instantiations(pctx, cls.name), param, position):
                        continue
                    site = _wrap_site(pctx, cls.name)
                    if site is None:
                        continue
                    wrap_script, wrap_call, how = site
                    evidence = [pctx.code_evidence(script, load, f"`self.{attr}` loads {what}, which builds a "
                                                   "pooler layer"),
                                pctx.code_evidence(script, calls[0], "only its token states are read here")]
                    e = pctx.fact_evidence(world, f"{world.value} processes")
                    if e is not None:
                        evidence.append(e)
                    fix = ("build the Accelerator with `kwargs_handlers=[DistributedDataParallelKwargs("
                           "find_unused_parameters=True)]`" if how == "accelerate"
                           else "pass `find_unused_parameters=True` to DistributedDataParallel")
                    yield pctx.code_finding(
                        self, wrap_script, wrap_call,
                        f"`{ast.unparse(wrap_call.func)}(...)` wraps `{cls.name}` in DDP for {world.value} processes "
                        f"with the default `find_unused_parameters=False`, but `{cls.name}.{attr}` is {what}, whose "
                        "pooler layer never contributes to the loss (only the token states are read): its "
                        "parameters get no gradient and the second step fails with \"Expected to have finished "
                        "reduction in the prior iteration\". Load the encoder with `add_pooling_layer=False`, or "
                        f"{fix}",
                        evidence=evidence)
                    return
