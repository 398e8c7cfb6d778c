"""PF123 module-replaced-after-optimizer: a layer (or the whole model) is replaced by a new module after the
optimizer was built over its parameters; the optimizer keeps the old tensors and the new layer never trains."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# torch.nn classes without parameters: replacing a layer by one of them drops it on purpose
_PARAM_FREE = frozenset({
    "Identity", "Flatten", "Unflatten", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Mish", "ELU", "SELU", "CELU", "Sigmoid", "Tanh", "Softmax",
    "LogSoftmax", "Softplus", "Hardswish", "Hardsigmoid", "Hardtanh", "MaxPool1d", "MaxPool2d", "MaxPool3d",
    "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "Upsample", "PixelShuffle", "ZeroPad2d",
    "Sequential", "ModuleList", "ModuleDict"})
_OPTIMIZER_ROOTS = ("torch.optim.", "bitsandbytes.optim.", "apex.optimizers.")
_OPTIMIZER_NAMES = frozenset({"transformers.AdamW", "transformers.Adafactor", "transformers.optimization.AdamW",
                              "transformers.optimization.Adafactor"})


def _chain(node: ast.AST) -> Optional[str]:
    """``a``, ``a.b.c`` (names and attributes only)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _chain(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _optimizer_owners(ctx: FileContext, call: ast.Call) -> list[str]:
    """For ``torch.optim.X(<params>, ...)``: every ``M`` of ``M.parameters()`` in the parameters argument."""
    qual = qualify(ctx, call.func)
    last = qual.rsplit(".", 1)[-1]
    if not ((qual.startswith(_OPTIMIZER_ROOTS) and last[:1].isupper() and "lr_scheduler" not in qual
             and last not in ("Optimizer", "swa_utils")) or qual in _OPTIMIZER_NAMES):
        return []
    params = call.args[0] if call.args else kwarg(call, "params")
    if params is None:
        return []
    owners = []
    for node in ast.walk(params):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("parameters", "named_parameters"):
            text = _chain(node.func.value)
            if text:
                owners.append(text)
    return owners


def _module_classes(ctx: FileContext) -> set[str]:
    """``nn.Module`` subclasses of the file, through subclasses of those."""
    known = {"Module", "LightningModule", "PreTrainedModel"}
    out: set[str] = set()
    grew = True
    while grew:
        grew = False
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in out and any(ast.unparse(b).rsplit(".", 1)[-1] in known | out for b in cls.bases):
                out.add(cls.name)
                grew = True
    return out


def _new_module(ctx: FileContext, value: ast.AST, classes: set[str]) -> Optional[str]:
    """The constructor text when ``value`` builds a new module with parameters, else None."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "cpu", "train", "half", "float", "bfloat16", "double"):
        value = value.func.value
    if not isinstance(value, ast.Call):
        return None
    qual = qualify(ctx, value.func)
    text = ast.unparse(value.func)
    last = text.rsplit(".", 1)[-1]
    if qual.startswith("torch.nn.") and qual.count(".") == 2 and last[:1].isupper():
        return None if last in _PARAM_FREE or last.startswith(("Parameter", "Module")) else text
    if qual.startswith("torchvision.models.") and last[:1].islower() and not last.startswith("get_"):
        return text
    if qual == "timm.create_model":
        return text
    if call_last(value) == "from_pretrained" and not any(w in text for w in ("Tokenizer", "Config", "Processor")):
        return text
    return text if isinstance(value.func, ast.Name) and value.func.id in classes else None


# in-place rewriters: calls that swap a model's submodules for new ones (new parameter tensors)
_INPLACE_QUANT = frozenset({"prepare_qat", "fuse_modules", "fuse_modules_qat"})


def _inplace_rewrite(ctx: FileContext, stmt: ast.stmt) -> Optional[tuple[str, str]]:
    """(model chain, what) when the statement rewrites a model's layers in place:
    ``ModelSpeedup(model, ...).speedup_model()`` (NNI: the pruned layers are replaced by smaller
    new modules), ``torch.ao.quantization.prepare_qat(model, inplace=True)`` and
    ``fuse_modules(model, ..., inplace=True)`` (fused/QAT modules are new modules)."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return None
    call = stmt.value
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "speedup_model" and isinstance(func.value, ast.Call) \
            and func.value.args and ast.unparse(func.value.func).rsplit(".", 1)[-1] == "ModelSpeedup":
        chain = _chain(func.value.args[0])
        return (chain, "`ModelSpeedup(...).speedup_model()` replaces the pruned layers by new modules") \
            if chain else None
    qual = qualify(ctx, func)
    last = qual.rsplit(".", 1)[-1]
    if last in _INPLACE_QUANT and "quantization" in qual and call.args:
        inplace = kwarg(call, "inplace")
        if isinstance(inplace, ast.Constant) and inplace.value is True:
            chain = _chain(call.args[0])
            return (chain, f"`{last}(..., inplace=True)` swaps the layers for new fused/QAT modules") \
                if chain else None
    return None


_MODULE_WALKS = frozenset({"modules", "named_modules", "children", "named_children"})


def _parameter_ctor(ctx: FileContext, value: ast.AST) -> Optional[str]:
    """``nn.Parameter(...)`` / ``torch.nn.Parameter(...)``: a new parameter tensor."""
    if isinstance(value, ast.Call) and qualify(ctx, value.func) in ("torch.nn.Parameter", "torch.nn.parameter.Parameter"):
        return ast.unparse(value.func)
    return None


def _walked_modules(fn: ast.AST, root: str) -> dict[str, str]:
    """Loop variables bound to the submodules of ``root`` (``for name, q in model.named_modules():`` ->
    ``{"q": "model"}``), so that ``q.scale = ...`` counts as a change of ``root``."""
    out: dict[str, str] = {}
    for node in ast.walk(fn):
        if not (isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Call)
                and isinstance(node.iter.func, ast.Attribute) and node.iter.func.attr in _MODULE_WALKS):
            continue
        base = _chain(node.iter.func.value)
        if base is None or not (base == root or base.startswith(root + ".")):
            continue
        target = node.target
        if isinstance(target, ast.Tuple) and node.iter.func.attr.startswith("named") and len(target.elts) == 2:
            target = target.elts[1]
        if isinstance(target, ast.Name):
            out[target.id] = root
    return out


def _helper_changes(ctx: FileContext, fn: ast.FunctionDef, param: str,
                    classes: set[str]) -> list[tuple[ast.Assign, str, str]]:
    """(assignment, target, constructor) for each new module or ``nn.Parameter`` that ``fn`` assigns to an
    attribute of its parameter ``param`` or of a submodule it walks (``for m in param.modules()``)."""
    roots = {param: param, **_walked_modules(fn, param)}
    out = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        tgt = node.targets[0]
        base = tgt.value if isinstance(tgt, ast.Subscript) else tgt
        if not isinstance(base, ast.Attribute):
            continue
        text = _chain(base)
        if text is None or text.split(".")[0] not in roots or text.endswith((".data", ".grad")):
            continue
        ctor = _parameter_ctor(ctx, node.value) or _new_module(ctx, node.value, classes)
        if ctor is None or text in _argument_chains(node.value):
            continue
        out.append((node, text, ctor))
    return out


def _argument_chains(value: ast.AST) -> set[str]:
    """The name/attribute chains passed as arguments anywhere in ``value`` (``LoRA(model.fc, r=8)``)."""
    out = set()
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                text = _chain(arg)
                if text:
                    out.add(text)
    return out


def _scope(ctx: FileContext, node: ast.AST) -> int:
    return id(ctx.enclosing_function(node))


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


@register
class ModuleReplacedAfterOptimizer(Rule):
    code = "PF123"
    name = "module-replaced-after-optimizer"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("parameters",)
    summary = "A layer or the model is replaced by a new module after the optimizer was built over its parameters: the new module never trains"
    explanation = """
## What it finds

In one function (or the script's top level): `opt = torch.optim.X(model.parameters(), ...)`,
then later `model.fc = nn.Linear(...)` (a submodule replaced by a new module with parameters,
`model.classifier[6] = ...` included) or `model = Net()` (the model built again), and then
`opt` is still used to train (`opt.step()`, or `opt` handed to a call) with no new optimizer
built in between.

## Why it matters

An optimizer copies the list of parameter tensors it is given when it is constructed
(`torch/optim/optimizer.py`: `Optimizer.__init__` -> `add_param_group` stores `list(params)`).
A new module has new parameter tensors that the optimizer has never seen: they receive
gradients but `opt.step()` never updates them, while the old layer's tensors, no longer in the
model, get no gradient. The new head stays at its random initialisation, or the rebuilt model
never trains, and nothing raises (pytorch/pytorch#54765: "You need to reinitialize the
optimizer; otherwise it doesn't know anything about the new nets parameters";
spro/practical-pytorch#9: the model built twice, the optimizer bound to the first one, the loss
does not go down).

## How to fix it

Replace the layers first and build the optimizer afterwards, or build a new optimizer (or call
`opt.add_param_group({"params": model.fc.parameters()})`) after the replacement.

## When preflight stays silent

* The optimizer is built again (the name is bound again) or `add_param_group` is called after
  the replacement, or the optimizer is not used after it.
* The new module has no parameters (`nn.Identity()`, `nn.Dropout()`, an activation, an empty
  container): the layer is dropped on purpose.
* The new value wraps or moves the old model (`model = DDP(model)`, `model = model.to(device)`,
  `model = torch.compile(model)`): the parameters are the same tensors.
* The optimizer covers other modules only (`opt` over `model.encoder.parameters()` and
  `model.head` replaced).
* The optimizer and the replacement sit in the two branches of one `if`.

A new `nn.Parameter` assigned to an attribute of the model (`model.pos_embed = nn.Parameter(...)`,
or `m.scale = nn.Parameter(...)` for the `m` of a `for m in model.modules()` loop) is the same
bug one tensor at a time. So is a helper function of the file, called on the model after the
optimizer was built, that assigns a new module or `nn.Parameter` to its argument or to the
submodules it walks: the finding sits on the assignment in the helper (openvinotoolkit/nncf
PR 327: the range initialiser replaced each quantizer's `scale` after the optimizer had taken
the parameters, "breaks the gradient updates"; the fix copies the value in under
`torch.no_grad()`). Assigning to `.data` or copying in place keeps the tensor and stays silent.

Calls that rewrite the model's layers in place count as a replacement too:
`ModelSpeedup(model, ...).speedup_model()` (NNI replaces the pruned layers by smaller new
modules; microsoft/nni#4521: "the parameters registered in the optimizer are outdated"),
`torch.ao.quantization.prepare_qat(model, inplace=True)` and
`fuse_modules(model, ..., inplace=True)` (new fused or QAT modules).
"""
    bad_examples = examples("preflight.rules.code._pf123_examples", "PF123_BAD")
    good_examples = examples("preflight.rules.code._pf123_examples", "PF123_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        optimizers: list[tuple[ast.Assign, str, list[str]]] = []
        for node in ctx.nodes(ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.value, ast.Call):
                continue
            name = _chain(node.targets[0])
            owners = _optimizer_owners(ctx, node.value) if name else []
            if name and owners:
                optimizers.append((node, name, owners))
        if not optimizers:
            return
        classes = _module_classes(ctx)
        assigns = ctx.nodes(ast.Assign)
        reported: set[int] = set()
        for opt_node, opt, owners in optimizers:
            scope = _scope(ctx, opt_node)
            scope_node = ctx.enclosing_function(opt_node) or ctx.tree
            walked = {k: v for owner in owners for k, v in _walked_modules(scope_node, owner).items()}
            for node in assigns:
                if id(node) in reported or len(node.targets) != 1 or _pos(node) <= _pos(opt_node) \
                        or _scope(ctx, node) != scope or self._apart(ctx, opt_node, node):
                    continue
                hit = self._replaces(ctx, node, owners, classes, walked)
                if hit is None:
                    continue
                target, owner, ctor = hit
                if not self._trains_after(ctx, opt, opt_node, node, scope):
                    continue
                reported.add(id(node))
                whole = target == owner
                what = (f"`{target}` is built again (`{ctor}(...)`)" if whole
                        else f"`{target}` is replaced by a new `{ctor}(...)`")
                yield ctx.finding(
                    self, node,
                    f"{what} after `{opt}` was built over `{owner}.parameters()` (line {opt_node.lineno}): the "
                    f"optimizer keeps the old parameter tensors, so `{opt}.step()` never updates the new "
                    f"module's and it stays at its initial weights. Build `{opt}` after the replacement, or "
                    f"add the new parameters with `{opt}.add_param_group(...)`",
                    evidence=[ctx.evidence(opt_node, "the optimizer takes its parameter list here")])
            yield from self._rewritten_in_place(ctx, opt_node, opt, owners, scope, reported)
            yield from self._changed_in_helpers(ctx, opt_node, opt, owners, scope, classes, reported)

    def _changed_in_helpers(self, ctx: FileContext, opt_node: ast.Assign, opt: str, owners: list[str], scope: int,
                            classes: set[str], reported: set[int]) -> Iterable[Finding]:
        """``helper(model, ...)`` called after the optimizer, where the file's ``def helper(m, ...)`` assigns a
        new ``nn.Parameter`` or module to an attribute of ``m`` or of a submodule it walks (NNCF PR 327: the
        range initialiser replaced each quantizer's ``scale`` after the optimizer had taken the parameters)."""
        helpers = {fn.name: fn for fn in getattr(ctx.tree, "body", []) if isinstance(fn, ast.FunctionDef)}
        if not helpers:
            return
        for call in ctx.nodes(ast.Call):
            if not isinstance(call.func, ast.Name) or call.func.id not in helpers or _pos(call) <= _pos(opt_node) \
                    or _scope(ctx, call) != scope or self._apart(ctx, opt_node, call):
                continue
            fn = helpers[call.func.id]
            if fn is ctx.enclosing_function(opt_node):
                continue
            params = [a.arg for a in fn.args.args]
            stmt = next((a for a in ctx.ancestors(call) if isinstance(a, ast.stmt)), None)
            for i, arg in enumerate(call.args):
                text = _chain(arg)
                owner = next((o for o in owners if text is not None and (text == o or o.startswith(text + "."))),
                             None)
                if owner is None or i >= len(params) or stmt is None:
                    continue
                for node, target, ctor in _helper_changes(ctx, fn, params[i], classes):
                    if id(node) in reported or not self._trains_after(ctx, opt, opt_node, stmt, scope):
                        continue
                    reported.add(id(node))
                    yield ctx.finding(
                        self, node,
                        f"`{target}` is replaced by a new `{ctor}(...)` in `{fn.name}`, which line {call.lineno} "
                        f"calls on `{text}` after `{opt}` was built over `{owner}.parameters()` (line "
                        f"{opt_node.lineno}): the optimizer keeps the old tensors, so `{opt}.step()` never updates "
                        f"the new one and it stays at the value it was given. Copy the value into the existing "
                        f"parameter (`with torch.no_grad(): {target}.copy_(...)`), or build `{opt}` after "
                        f"`{fn.name}(...)`",
                        evidence=[ctx.evidence(opt_node, "the optimizer takes its parameter list here"),
                                  ctx.evidence(call, f"`{fn.name}` changes `{text}` here")])

    def _rewritten_in_place(self, ctx: FileContext, opt_node: ast.Assign, opt: str, owners: list[str],
                            scope: int, reported: set[int]) -> Iterable[Finding]:
        for stmt in ctx.nodes(ast.Expr):
            if id(stmt) in reported or _pos(stmt) <= _pos(opt_node) or _scope(ctx, stmt) != scope \
                    or self._apart(ctx, opt_node, stmt):
                continue
            hit = _inplace_rewrite(ctx, stmt)
            if hit is None:
                continue
            chain, what = hit
            owner = next((o for o in owners if chain == o or o.startswith(chain + ".")), None)
            if owner is None or not self._trains_after(ctx, opt, opt_node, stmt, scope):
                continue
            reported.add(id(stmt))
            yield ctx.finding(
                self, stmt,
                f"{what} of `{chain}` after `{opt}` was built over `{owner}.parameters()` (line "
                f"{opt_node.lineno}): the optimizer keeps the old parameter tensors, so `{opt}.step()` never "
                f"updates the new layers and fine-tuning changes nothing. Build `{opt}` after this call",
                evidence=[ctx.evidence(opt_node, "the optimizer takes its parameter list here")])

    @staticmethod
    def _replaces(ctx: FileContext, node: ast.Assign, owners: list[str], classes: set[str],
                  walked: dict[str, str]) -> Optional[tuple[str, str, str]]:
        tgt = node.targets[0]
        base = tgt.value if isinstance(tgt, ast.Subscript) else tgt
        text = _chain(base)
        if text is None or text.endswith((".data", ".grad")):
            return None
        ctor = _parameter_ctor(ctx, node.value) if isinstance(base, ast.Attribute) else None
        ctor = ctor or _new_module(ctx, node.value, classes)
        if ctor is None:
            return None
        shown = text
        head = text.split(".")[0]
        if head in walked and "." in text:  # `for m in model.modules(): m.scale = nn.Parameter(...)`
            text = walked[head] + ".<submodule>." + text.split(".", 1)[1]
        mentioned = {c for c in (_chain(n) for n in ast.walk(node.value)) if c is not None}
        for owner in owners:
            if text == owner and any(m == owner or m.startswith(owner + ".") for m in mentioned):
                return None  # wraps or reuses the old model: `model = Wrapper(model)`, `Net(model.backbone)`
            if text != owner and text in _argument_chains(node.value):
                return None  # wraps the old layer: `model.fc = LoRALinear(model.fc)`
            if isinstance(tgt, ast.Subscript):
                related = text == owner or text.startswith(owner + ".")
            else:
                related = text == owner or text.startswith(owner + ".") or owner.startswith(text + ".")
            if related:
                return shown, owner, ctor
        return None

    @staticmethod
    def _apart(ctx: FileContext, a: ast.AST, b: ast.AST) -> bool:
        """``a`` and ``b`` in the two branches of one ``if`` (never both on one run)."""
        for anc in ctx.ancestors(b):
            if isinstance(anc, ast.If):
                body = {id(n) for s in anc.body for n in ast.walk(s)}
                orelse = {id(n) for s in anc.orelse for n in ast.walk(s)}
                if (id(a) in body and id(b) in orelse) or (id(a) in orelse and id(b) in body):
                    return True
        return False

    @staticmethod
    def _trains_after(ctx: FileContext, opt: str, opt_node: ast.Assign, repl: ast.stmt, scope: int) -> bool:
        """``opt`` steps or is handed to a call after ``repl`` and is neither built again nor given new
        parameter groups in between."""
        module_scope = ctx.enclosing_function(opt_node) is None
        # a loop around the replacement but not around the optimizer: its uses run again afterwards
        loops = [a for a in ctx.ancestors(repl) if isinstance(a, (ast.For, ast.While))
                 and not any(n is opt_node for n in ast.walk(a))]
        in_loop = {id(n) for loop in loops for n in ast.walk(loop)}
        for node in ctx.nodes(ast.Assign):
            if _scope(ctx, node) == scope and _pos(node) > _pos(repl) \
                    and any(_chain(n) == opt for t in node.targets for n in ast.walk(t)):
                return False  # a new optimizer
        uses = []
        for call in ctx.nodes(ast.Call):
            f = call.func
            if isinstance(f, ast.Attribute) and _chain(f.value) == opt:
                if f.attr == "add_param_group" and _scope(ctx, call) == scope and _pos(call) > _pos(repl):
                    return False
                if f.attr == "step":
                    uses.append(call)
            elif any(_chain(a) == opt for a in [*call.args, *(k.value for k in call.keywords)]):
                uses.append(call)
        cls = ctx.enclosing(repl, ast.ClassDef)
        for use in uses:
            fn = ctx.enclosing_function(use)
            if opt.startswith("self.") and cls is not None and ctx.enclosing(use, ast.ClassDef) is cls \
                    and fn is not ctx.enclosing_function(repl):
                return True  # another method of the class steps `self.optimizer`
            if _scope(ctx, use) == scope and (_pos(use) > _pos(repl) or id(use) in in_loop):
                return True
            if module_scope and fn is not None and ctx.enclosing_function(fn) is None \
                    and opt.split(".")[0] not in {t.id for a in ast.walk(fn) if isinstance(a, ast.Assign)
                                                  for t in a.targets if isinstance(t, ast.Name)}:
                return True  # a top-level function reads the script's optimizer
        return False
