"""PF400 model-attribute-through-parallel-wrapper: ``model = nn.DataParallel(model)`` (or DDP) and then
``model.save_pretrained(...)``/``model.generate(...)``/``model.config``: the wrapper has none of the model's own
attributes."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples
from preflight.rules.code._parallel_wrappers import wrapper_assigns, wrapper_call

# attributes of the transformers / diffusers / PEFT models that nn.Module does not have: through a
# DataParallel/DDP wrapper each one raises AttributeError ("'DataParallel' object has no attribute ...")
_MODEL_ONLY = frozenset({
    "save_pretrained", "push_to_hub", "generate", "resize_token_embeddings", "get_input_embeddings",
    "get_output_embeddings", "set_input_embeddings", "gradient_checkpointing_enable",
    "gradient_checkpointing_disable", "enable_input_require_grads", "config", "generation_config",
    "base_model", "print_trainable_parameters", "merge_and_unload", "peft_config", "load_adapter",
    "set_adapter", "add_adapter", "get_encoder", "get_decoder", "tie_weights", "num_parameters",
    "enable_gradient_checkpointing", "enable_xformers_memory_efficient_attention", "register_to_config",
    "save_config", "get_nb_trainable_parameters",
})

# what nn.Module, DataParallel and DistributedDataParallel answer themselves (a local model class's method
# of one of these names is reached through the wrapper's own)
_WRAPPER_HAS = frozenset({
    "module", "forward", "train", "eval", "training", "parameters", "named_parameters", "buffers",
    "named_buffers", "children", "named_children", "modules", "named_modules", "state_dict", "load_state_dict",
    "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "type", "zero_grad", "apply", "requires_grad_",
    "register_buffer", "register_parameter", "register_module", "add_module", "get_submodule", "get_parameter",
    "get_buffer", "register_forward_hook", "register_forward_pre_hook", "register_backward_hook",
    "register_full_backward_hook", "register_full_backward_pre_hook", "register_state_dict_pre_hook",
    "register_load_state_dict_post_hook", "extra_repr", "share_memory", "compile", "ipu", "xpu", "to_empty",
    "no_sync", "join", "join_hook", "device_ids", "output_device", "dim", "device_type", "process_group",
    "broadcast_buffers", "find_unused_parameters", "gradient_as_bucket_view", "static_graph",
    "register_comm_hook", "reducer", "replicate", "scatter", "gather", "parallel_apply", "src_device_obj",
    "logger", "require_backward_grad_sync", "require_forward_param_sync", "dump_patches",
    "call_super_init", "T_destination",
    # set on DistributedDataParallel by some torch versions (kept silent when a local class has one too)
    "device", "dtype", "mixed_precision", "parameters_to_ignore", "module_device",
})

_MOVES = ("to", "cuda", "cpu", "half", "float", "bfloat16", "train")


def _torch_wrapper(ctx: FileContext, assign: ast.Assign) -> Optional[ast.Call]:
    """The ``torch`` DataParallel/DDP call the assignment binds (a project's own subclass, which may forward
    attributes with ``__getattr__``, does not count)."""
    call = wrapper_call(assign)
    if not isinstance(call, ast.Call):
        return None
    qual = qualify(ctx, call.func)
    return call if qual.startswith("torch.") else None


def _strip_moves(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MOVES:
        node = node.func.value
    return node


def _bound_names(node: ast.AST) -> set[str]:
    out: set[str] = set()
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    while targets:  # names bound, not the ones an attribute or subscript target reads (`model.x = 1`)
        t = targets.pop()
        if isinstance(t, ast.Name):
            out.add(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            targets.extend(t.elts)
        elif isinstance(t, ast.Starred):
            targets.append(t.value)
    return out


def _class_attributes(cls: ast.ClassDef) -> set[str]:
    """Methods and ``self.x = ...`` attributes a local model class defines for itself."""
    names: set[str] = set()
    for item in cls.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if not item.name.startswith("__"):
                names.add(item.name)
            for sub in ast.walk(item):
                if isinstance(sub, ast.Assign):
                    for t in sub.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            names.add(t.attr)
    if any(isinstance(i, ast.FunctionDef) and i.name in ("__getattr__", "__getattribute__") for i in cls.body):
        return set()
    return names - _WRAPPER_HAS


def _guarded(ctx: FileContext, node: ast.AST, name: str, scope: Optional[ast.AST]) -> bool:
    """Under an ``isinstance``/``hasattr``/``getattr`` test on the name (the author unwraps by hand)."""
    for anc in ctx.ancestors(node):
        if anc is scope:
            break
        test = getattr(anc, "test", None)
        if isinstance(anc, (ast.If, ast.IfExp, ast.While)) and test is not None:
            for sub in ast.walk(test):
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) \
                        and sub.func.id in ("isinstance", "hasattr", "getattr") and sub.args \
                        and isinstance(sub.args[0], ast.Name) and sub.args[0].id == name:
                    return True
    return False


@register
class ModelAttributeThroughParallelWrapper(Rule):
    code = "PF400"
    needs_text = ("DataParallel", "DDP")
    name = "model-attribute-through-parallel-wrapper"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "transformers")
    summary = ("`model = nn.DataParallel(model)` (or DDP), then `model.save_pretrained(...)`, `model.generate(...)` "
               "or `model.config` on the wrapper: it has none of the model's own attributes")
    explanation = """
## What it finds

A name bound to `torch.nn.DataParallel(model)` or `DistributedDataParallel(model)`
(device moves included: `nn.DataParallel(model).cuda()`), and later in the same function,
with the name not re-bound in between, an attribute the wrapped model has and the wrapper
does not:

* a transformers / diffusers / PEFT model attribute: `save_pretrained`, `push_to_hub`,
  `generate`, `resize_token_embeddings`, `config`, `base_model`, `gradient_checkpointing_enable`...;
* a method or `self.` attribute of the file's own model class, when the wrapped model was
  built from that class in the same function (`model = Net(); model = DDP(model); model.predict(x)`).

## Why it matters

`DataParallel` and `DistributedDataParallel` are modules of their own that hold the model
as `.module`; their `__getattr__` is `nn.Module`'s, which finds only their own parameters,
buffers and submodules. Every other attribute raises AttributeError, typically at the
first save after a whole epoch of training, with nothing written (transformers issue
16971: "'DataParallel' object has no attribute 'save_pretrained'"; transformers issue
7980 for DDP; deepspeech.pytorch issue 475: "'DistributedDataParallel' object has no
attribute 'version' at the time of model checkpointing").

## How to fix it

Reach the model through the wrapper: `model.module.save_pretrained(path)`, or keep a
name for the unwrapped model (`raw = model; model = nn.DataParallel(raw)`) and call the
method on it (`model_to_save = model.module if hasattr(model, "module") else model`).

## When preflight stays silent

* The wrapper is a project's own class (it may forward attributes with `__getattr__`), or
  the local model class defines `__getattr__`.
* The attribute is one the wrapper has (`parameters`, `state_dict`, `train`, `module`...).
* The name is re-bound after the wrap (`model = model.module`), the use is under an
  `isinstance`/`hasattr`/`getattr` test on it, or the use is in another function
  (preflight does not follow the wrapper there).
"""
    bad_examples = examples("preflight.rules.code._pf400_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf400_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        assigns = [(a, c) for a in wrapper_assigns(ctx) for c in [_torch_wrapper(ctx, a)] if c is not None]
        if not assigns:
            return
        scopes = scope_index(ctx)
        classes = {n.name: n for n in ctx.nodes(ast.ClassDef)
                   if n.name in scopes.classes_by_name and scopes.classes_by_name[n.name].is_module}
        binders = [n for n in ctx.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)
                   if _bound_names(n)]
        attrs = ctx.nodes(ast.Attribute)
        reported: set[int] = set()
        for assign, call in assigns:
            name = assign.targets[0].id  # type: ignore[attr-defined]
            scope = ctx.enclosing_function(assign)
            local = self._local_class_attributes(ctx, call, scope, assign, classes)
            end = assign.end_lineno or assign.lineno
            rebinds = [b.lineno for b in binders if b is not assign and name in _bound_names(b)
                       and b.lineno > end and ctx.enclosing_function(b) is scope]
            stop = min(rebinds) if rebinds else None
            for node in attrs:
                if not (isinstance(node.value, ast.Name) and node.value.id == name
                        and isinstance(node.ctx, ast.Load)) or node.lineno <= end:
                    continue
                if stop is not None and node.lineno >= stop:
                    continue
                if node.attr not in _MODEL_ONLY and node.attr not in local:
                    continue
                if ctx.enclosing_function(node) is not scope or _guarded(ctx, node, name, scope):
                    continue
                if node.lineno in reported:
                    continue
                reported.add(node.lineno)
                kind = qualify(ctx, call.func).rsplit(".", 1)[-1]
                yield ctx.finding(
                    self, node,
                    f"`{name}` is the `{kind}` wrapper bound at line {assign.lineno}, which has no "
                    f"`{node.attr}`: only the wrapped model does, so `{ast.unparse(node)}` raises AttributeError "
                    f"('{kind}' object has no attribute '{node.attr}'). Use `{name}.module.{node.attr}` (or keep a "
                    "name for the unwrapped model)",
                    evidence=[ctx.evidence(assign, f"`{name}` becomes the `{kind}` wrapper here")])

    @staticmethod
    def _local_class_attributes(ctx: FileContext, call: ast.Call, scope: Optional[ast.AST], assign: ast.Assign,
                                classes: dict[str, ast.ClassDef]) -> set[str]:
        """Attributes of the file's own model class when the wrapped model is built from it in this scope."""
        if not call.args:
            return set()
        inner = _strip_moves(call.args[0])
        if isinstance(inner, ast.Name):
            built = None
            for a in ctx.nodes(ast.Assign):
                if a.lineno >= assign.lineno or ctx.enclosing_function(a) is not scope:
                    continue
                if any(isinstance(t, ast.Name) and t.id == inner.id for t in a.targets):
                    value = _strip_moves(a.value)
                    if not (isinstance(value, ast.Name) and value.id == inner.id):  # `model = model.cuda()`
                        built = value
            inner = built if built is not None else inner
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in classes:
            return _class_attributes(classes[inner.func.id])
        return set()
