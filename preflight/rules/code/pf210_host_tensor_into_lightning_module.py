"""PF210 host-tensor-into-lightning-module: a LightningModule builds a tensor without a device in a
step and feeds it to its own layers, which Lightning has moved to the accelerator."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import ClassInfo, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples

# factories that allocate on the default (CPU) device unless given device=
_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.rand", "torch.randn",
                        "torch.randint", "torch.arange", "torch.eye", "torch.linspace", "torch.tensor"})
# methods Lightning runs on the module's device (the ones building data or options are not)
_OFF_DEVICE = ("__init__", "configure_", "setup", "prepare_data", "teardown", "dataloader", "on_save_checkpoint",
               "on_load_checkpoint", "transfer_batch_to_device", "on_before_batch_transfer")
# the program sets a default device or moves the tensor through hooks of its own
_ESCAPES = ("set_default_device", "set_default_tensor_type", "set_default_dtype(torch.cuda")


def _host_factory(ctx: FileContext, node: ast.AST) -> Optional[ast.Call]:
    """A factory call with no ``device=`` (and no ``**kwargs`` that may carry one), whose value is
    used as it is (not ``torch.zeros(...).to(x)``): ``torch.tensor`` of a plain scalar aside."""
    if not isinstance(node, ast.Call) or qualify(ctx, node.func) not in _FACTORIES:
        return None
    if any(kw.arg in (None, "device") for kw in node.keywords):
        return None
    if qualify(ctx, node.func) == "torch.tensor" and (
            not node.args or isinstance(node.args[0], ast.Constant)):
        return None  # a 0-dim CPU scalar tensor combines with CUDA tensors
    return node


def _returned_factories(ctx: FileContext, fn: ast.AST) -> list[ast.Call]:
    """The host factories a helper method returns (``return (torch.zeros(...), torch.zeros(...))``),
    when every ``return`` of it returns only such factories."""
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            assigned.setdefault(node.target.id, []).extend([node.target, node.target])

    def resolved(expr: ast.expr) -> ast.expr:
        """A name bound once in the helper (``hidden = torch.zeros(...); return hidden``) -> its value."""
        if isinstance(expr, ast.Name) and len(assigned.get(expr.id, [])) == 1:
            return assigned[expr.id][0]
        return expr

    out: list[ast.Call] = []
    for ret in returns:
        value = resolved(ret.value) if ret.value is not None else None
        parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value] if value is not None else []
        found = [_host_factory(ctx, resolved(p)) for p in parts]
        if not parts or any(f is None for f in found):
            return []
        out.extend(f for f in found if f is not None)
    return out


def _layers(ctx: FileContext, cls: ClassInfo, local_modules: set[str]) -> set[str]:
    """``self.x`` attributes assigned an ``nn.*`` layer (or a module class of this file) in ``__init__``."""
    init = cls.method("__init__")
    out: set[str] = set()
    if init is None:
        return out
    for node in ast.walk(init.node):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        qual = qualify(ctx, node.value.func)
        callee = node.value.func.id if isinstance(node.value.func, ast.Name) else ""
        if not (qual.startswith("torch.nn.") or callee in local_modules):
            continue
        for tgt in node.targets:
            if isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name) and tgt.value.id == "self":
                out.add(tgt.attr)
    return out


def _consumer(call: ast.Call, layers: set[str]) -> Optional[str]:
    """``self(...)`` -> "forward"; ``self.lstm(...)`` -> "lstm" when ``lstm`` is a layer."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "self":
        return "forward"
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
            and func.attr in layers:
        return func.attr
    return None


@register
class HostTensorIntoLightningModule(Rule):
    code = "PF210"
    needs_text = ("torch.",)
    name = "host-tensor-into-lightning-module"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A LightningModule builds a tensor without `device=` in a step and passes it to its own "
               "layers: the tensor stays on the CPU while Lightning moved the module to the GPU")
    explanation = """
## What it finds

In a `LightningModule`, a tensor made with a factory and no `device=` (`torch.zeros(...)`,
`torch.ones`, `torch.randn`, `torch.arange`, `torch.tensor([...])`, ...) in a step, `forward`
or a helper method (directly, or returned by a helper such as `init_hidden`), that is then
passed to the module itself (`self(x, hidden)`) or to one of its layers (`self.lstm(x, (h, c))`)
without `.to(...)`, `.cuda()` or `.type_as(...)`.

## Why it matters

Lightning moves the module's parameters and buffers, and every batch, to the accelerator
(`Trainer(accelerator="gpu")`); a tensor the code builds itself is allocated on the default
device, the CPU. The layer then fails with "Input and hidden tensors are not at the same device"
(nn.LSTM) or "Expected all tensors to be on the same device" (Lightning issue 3738; Lightning's
docs, "Hardware agnostic training": "Delete any calls to .cuda() or .to(device)... When you need
to create a new tensor, use type_as ... or `device=self.device`").

## How to fix it

`torch.zeros(..., device=self.device)` (or `.type_as(x)`), or register a fixed tensor as a
buffer in `__init__`.

## When preflight stays silent

* The factory has `device=` (or `**kwargs`), or its value is moved (`.to(...)`, `.cuda()`,
  `.type_as(...)`) before reaching the layer, or the name is rebound or moved anywhere in the
  method.
* A `torch.tensor(<scalar>)`, or `*_like` factories (they follow their input's device).
* It is built in `__init__`, `setup`, `configure_*` or a dataloader hook, or never reaches
  `self(...)` or a `torch.nn` layer of the module (a plain helper object may move it itself).
* The program sets a default device (`torch.set_default_device`), or a Trainer of the file runs
  on `accelerator="cpu"`.
"""
    bad_examples = examples("preflight.rules.code._pf210_examples", "PF210_BAD")
    good_examples = examples("preflight.rules.code._pf210_examples", "PF210_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = (ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text) or ""
        if any(e in text for e in _ESCAPES) or 'accelerator="cpu"' in text or "accelerator='cpu'" in text:
            return
        scopes = scope_index(ctx)
        lightning = [c for c in scopes.classes.values() if c.is_lightning]
        if not lightning:
            return
        local_modules = {c.name for c in scopes.classes.values() if c.is_module}
        for cls in lightning:
            layers = _layers(ctx, cls, local_modules)
            helpers = {name: _returned_factories(ctx, info.node) for name, info in cls.methods.items()
                       if not name.startswith("__")}
            helpers = {k: v for k, v in helpers.items() if v}
            for name, info in cls.methods.items():
                if any(name.startswith(p) or p in name for p in _OFF_DEVICE):
                    continue
                yield from self._in_method(ctx, info.node, layers, helpers)

    def _in_method(self, ctx: FileContext, fn: ast.AST, layers: set[str],
                   helpers: dict[str, list[ast.Call]]) -> Iterable[Finding]:
        # every binding of each name in the method (line, the host factories it binds or None)
        bindings: dict[str, list[tuple[int, Optional[list[ast.Call]]]]] = {}
        moved: set[str] = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and node.attr in ("to", "cuda", "type_as", "to_device") \
                    and isinstance(node.value, ast.Name):
                moved.add(node.value.id)
            if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
                continue
            made: Optional[list[ast.Call]] = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                made = self._made(ctx, node.value, helpers)
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else [
                    i.optional_vars for i in node.items if i.optional_vars is not None])
            for tgt in targets:
                for n in ast.walk(tgt):
                    if isinstance(n, ast.Name):
                        bindings.setdefault(n.id, []).append((node.lineno, made))

        def bound(name: str, before: int) -> Optional[list[ast.Call]]:
            """The host factories ``name`` holds at a statement starting on line ``before``."""
            if name in moved:
                return None
            earlier = [b for b in bindings.get(name, []) if b[0] < before]
            return max(earlier, key=lambda b: b[0])[1] if earlier else None

        reported: set[int] = set()
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
            target = _consumer(call, layers)
            if target is None:
                continue
            args = [*call.args, *(kw.value for kw in call.keywords)]
            stmt: Optional[ast.AST] = call
            while stmt is not None and not isinstance(stmt, ast.stmt):
                stmt = ctx.parent(stmt)
            stmt_line = getattr(stmt, "lineno", call.lineno)
            for arg in args:
                parts = arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
                for part in parts:
                    made = [f for f in [_host_factory(ctx, part)] if f is not None]
                    label = None
                    if made:
                        label = ast.unparse(part)
                    elif isinstance(part, ast.Name):
                        held = bound(part.id, stmt_line)
                        if held:
                            made, label = held, part.id
                    if not made or id(made[0]) in reported:
                        continue
                    reported.add(id(made[0]))
                    where = "the module's `forward`" if target == "forward" else f"`self.{target}`"
                    evidence = [ctx.evidence(made[0], "built here without `device=`: on the CPU"),
                                ctx.evidence(call, f"passed to {where}, whose weights Lightning moved")]
                    yield ctx.finding(
                        self, made[0],
                        f"`{label}` is built with `{ast.unparse(made[0].func)}(...)` without `device=` and passed "
                        f"to {where}: it is allocated on the CPU while Lightning moved the module and the batch "
                        "to the accelerator, so the layer fails with a device mismatch (\"Input and hidden "
                        "tensors are not at the same device\"). Create it with `device=self.device` (or "
                        "`.type_as(x)`), or register a fixed tensor as a buffer",
                        evidence=evidence)

    @staticmethod
    def _made(ctx: FileContext, value: ast.expr, helpers: dict[str, list[ast.Call]]) -> Optional[list[ast.Call]]:
        """The host factories an assigned value is: one factory, a tuple of them, or a helper's return."""
        direct = _host_factory(ctx, value)
        if direct is not None:
            return [direct]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and isinstance(value.func.value, ast.Name) and value.func.value.id == "self" \
                and value.func.attr in helpers:
            return helpers[value.func.attr]
        if isinstance(value, (ast.Tuple, ast.List)) and value.elts:
            parts = [_host_factory(ctx, e) for e in value.elts]
            if all(p is not None for p in parts):
                return [p for p in parts if p is not None]
        return None
