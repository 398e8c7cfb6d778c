"""What reaches a loss: softmax/sigmoid probabilities, log-probabilities or raw logits.

``loss_sites(ctx)`` (built once per file, cached on the context) lists every call of a
loss with a logits contract (cross-entropy, BCE-with-logits) or a probability contract
(BCE), functional or ``nn.*Loss``, with what its input is (:class:`Act`): ``softmax``,
``log_softmax``, ``sigmoid`` or ``logits`` (the output of a ``Linear``/``Conv`` layer, of a
model whose ``forward`` returns one, an HF ``.logits``), and the lines that show it.
Activations are seen inline, through names (followed by
:mod:`preflight.analysis.value_resolver`), as layers, at the end of an ``nn.Sequential``
and in what local ``forward`` methods and helpers return (all returns must agree).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight._record import dataclass
from preflight.analysis.scopes import ClassInfo, FunctionInfo, scope_index
from preflight.analysis.value_resolver import (
    MAX_DEPTH,
    Chain,
    ValueResolver,
    default_of,
    last_name,
    text,
    value_resolver,
)

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext


# -- activations -----------------------------------------------------------------

SOFTMAX, LOG_SOFTMAX, SIGMOID, LOGITS = "softmax", "log_softmax", "sigmoid", "logits"
CE, BCE_LOGITS, BCE = "cross-entropy", "bce-with-logits", "bce"
NLL = "nll"  # expects log-probabilities (log_softmax output)

_FUNCS = {
    "torch.softmax": SOFTMAX, "torch.nn.functional.softmax": SOFTMAX,
    "torch.special.softmax": SOFTMAX, "torch.log_softmax": LOG_SOFTMAX,
    "torch.nn.functional.log_softmax": LOG_SOFTMAX, "torch.special.log_softmax": LOG_SOFTMAX,
    "torch.sigmoid": SIGMOID, "torch.nn.functional.sigmoid": SIGMOID,
    "torch.special.expit": SIGMOID,
}
_METHODS = {"softmax": SOFTMAX, "log_softmax": LOG_SOFTMAX, "sigmoid": SIGMOID}
_LAYERS = {"Softmax": SOFTMAX, "Softmax2d": SOFTMAX, "LogSoftmax": LOG_SOFTMAX, "Sigmoid": SIGMOID}
_LOGIT_LAYERS = frozenset({"Linear", "LazyLinear", "Bilinear", "Conv1d", "Conv2d", "Conv3d",
                           "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"})
# shape/dtype/device changes and selections keep the range of the values
_KEEP_METHODS = frozenset({"view", "reshape", "squeeze", "unsqueeze", "flatten", "float", "double",
                           "half", "bfloat16", "to", "contiguous", "permute", "transpose", "clone",
                           "type_as", "cpu", "cuda", "view_as", "reshape_as", "squeeze_", "t"})
_KEEP_FUNCS = frozenset({"torch.squeeze", "torch.unsqueeze", "torch.flatten", "torch.reshape",
                         "torch.permute", "torch.transpose"})
_CLAMPS = frozenset({"clamp", "clip", "clamp_"})
# nn.Module methods that return the module itself (torch/nn/modules/module.py: `return self`)
_SELF_METHODS = frozenset({"cuda", "cpu", "to", "float", "double", "half", "bfloat16", "train", "eval",
                           "requires_grad_", "to_empty", "xpu", "type"})
_LOSS_FUNCS = {"torch.nn.functional.cross_entropy": CE, "torch.nn.functional.binary_cross_entropy":
               BCE, "torch.nn.functional.binary_cross_entropy_with_logits": BCE_LOGITS,
               "torch.nn.functional.nll_loss": NLL}
_LOSS_CLASSES = {"CrossEntropyLoss": CE, "BCEWithLogitsLoss": BCE_LOGITS, "BCELoss": BCE,
                 "NLLLoss": NLL}
DESCRIBE = {SOFTMAX: "softmax probabilities", LOG_SOFTMAX: "log-probabilities (log_softmax)",
            SIGMOID: "sigmoid probabilities", LOGITS: "raw, unbounded logits"}


@dataclass(frozen=True)
class Act:
    kind: str
    chain: Chain  # (node, message) from the loss input back to where the activation happens


@dataclass(frozen=True)
class LossSite:
    call: ast.Call
    kind: str
    loss: str  # how to name the loss, e.g. "`nn.CrossEntropyLoss()`"
    loss_node: ast.AST  # where the loss object was created (or the functional call)
    input: ast.expr
    act: Optional[Act]


def _agree(acts: list[Optional[Act]]) -> Optional[Act]:
    kinds = {a.kind if a is not None else None for a in acts}
    return acts[0] if acts and len(kinds) == 1 and None not in kinds else None


class LossAnalysis:
    """Loss calls of the file and what their input is; see the module docstring."""

    def __init__(self, ctx: FileContext, eval_mode: bool = False) -> None:
        self.ctx = ctx
        self.eval_mode = eval_mode  # read `forward` as it runs after `model.eval()` (self.training False)
        self.scopes = scope_index(ctx)
        self.qualify = self.scopes.imports.qualify
        self._memo: dict[int, Optional[Act]] = {}
        self._summaries: dict[FunctionInfo, Optional[Act]] = {}
        self.sites: list[LossSite] = []
        self._find_sites()

    @staticmethod
    def of(ctx: FileContext, eval_mode: bool = False) -> LossAnalysis:
        if eval_mode:
            return ctx.cached("loss-analysis-eval-mode", lambda: LossAnalysis(ctx, eval_mode=True))
        return ctx.cached("loss-analysis", lambda: LossAnalysis(ctx))

    @property
    def values(self) -> ValueResolver:
        return value_resolver(self.ctx)

    def _loss_class(self, call: ast.Call) -> Optional[str]:
        qual = self.qualify(call.func) or ""
        last = qual.rsplit(".", 1)[-1]
        if last in _LOSS_CLASSES and (qual.startswith("torch.nn.") or qual == last):
            return _LOSS_CLASSES[last]
        return None

    def _find_sites(self) -> None:
        words = _LOSS_WORDS | {alias for alias, target in self.scopes.imports.aliases.items()
                               if target.rsplit(".", 1)[-1] in _LOSS_WORDS}
        # `self.loss_fn = F.binary_cross_entropy_with_logits`: a loss function bound to a name or attribute
        fn_aliases: dict[str, tuple[str, str]] = {}
        for assign in self.ctx.nodes(ast.Assign):
            if isinstance(assign.value, (ast.Name, ast.Attribute)):
                qual = self.qualify(assign.value) or ""
                if qual in _LOSS_FUNCS:
                    for tgt in assign.targets:
                        name = last_name(tgt)
                        if name:
                            fn_aliases[name] = (_LOSS_FUNCS[qual], qual)
        words = words | set(fn_aliases)
        calls = [c for c in self.ctx.nodes(ast.Call) if last_name(c.func) in words]
        if not calls:
            return
        ctors = [c for c in calls if self._loss_class(c) is not None]
        names = {t for c in ctors for t in _target_ids(self.ctx, c)}
        if names:
            calls = self.ctx.nodes(ast.Call)
        for call in calls:
            func = call.func
            fn = self.scopes.function_of(call)
            qual = self.qualify(func) or ""
            kind = _LOSS_FUNCS.get(qual)
            node: ast.AST
            if kind is not None:
                loss, node = f"`{qual.replace('torch.nn.functional.', 'F.')}`", call
            elif last_name(func) in fn_aliases:
                kind, target = fn_aliases[last_name(func)]
                loss, node = f"`{text(func)}` (bound to `{target.replace('torch.nn.functional.', 'F.')}`)", call
            elif isinstance(func, ast.Call) and self._loss_class(func) is not None:
                kind, loss, node = self._loss_class(func), f"`{text(func)}`", func
            elif (isinstance(func, ast.Name) and func.id in names) or (
                    isinstance(func, ast.Attribute) and func.attr in names):
                found = self._criterion(func, fn)
                if found is None:
                    continue
                kind, loss, node = found
            else:
                continue
            arg = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "input"), None)
            if arg is None or isinstance(arg, ast.Starred) or kind is None:
                continue
            self.sites.append(LossSite(call, kind, loss, node, arg, self.value(arg, fn)))

    def _criterion(self, func: ast.expr, fn: FunctionInfo) -> Optional[tuple[str, str, ast.AST]]:
        leaves = self.values.sources(func, fn)
        if not leaves:
            return None
        kinds = set()
        for leaf in leaves:
            if not isinstance(leaf.node, ast.Call):
                return None
            kind = self._loss_class(leaf.node)
            if kind is None:
                return None
            kinds.add(kind)
        if len(kinds) != 1:
            return None
        node = leaves[0].node
        return kinds.pop(), f"`{text(node)}`", node

    def value(self, expr: ast.AST, fn: FunctionInfo, depth: int = 0) -> Optional[Act]:
        key = id(expr)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # cycles resolve to unknown
        found = self._value(expr, fn, depth) if depth <= MAX_DEPTH else None
        self._memo[key] = found
        return found

    def _via(self, act: Optional[Act], chain: Chain) -> Optional[Act]:
        if act is None or not chain:
            return act
        return Act(act.kind, (*chain, *act.chain))

    def _value(self, expr: ast.AST, fn: FunctionInfo, depth: int) -> Optional[Act]:
        if isinstance(expr, ast.Call):
            return self._call(expr, fn, depth)
        if isinstance(expr, ast.Subscript):
            return self.value(expr.value, fn, depth + 1)
        if isinstance(expr, ast.Attribute) and expr.attr == "logits":
            return self._hf_logits(expr, fn)
        if isinstance(expr, (ast.Name, ast.Attribute, ast.IfExp)):
            leaves = self.values.sources(expr, fn)
            if not leaves or all(leaf.node is expr for leaf in leaves):
                return None
            return _agree([self._via(self.value(leaf.node, leaf.fn, depth + 1), leaf.chain)
                           for leaf in leaves])
        return None

    def _call(self, call: ast.Call, fn: FunctionInfo, depth: int) -> Optional[Act]:
        func = call.func
        qual = self.qualify(func) or ""
        kind = _FUNCS.get(qual)
        if kind is not None:
            return Act(kind, ((call, f"`{text(call)}` applies {kind}"),))
        if qual in _KEEP_FUNCS and call.args:
            return self.value(call.args[0], fn, depth + 1)
        resolved = self.scopes.bindings.resolve_call(call, fn)
        if resolved is not None:
            return None if resolved[1] else self._summary(resolved[0])
        if isinstance(func, ast.Attribute):
            if func.attr == "forward":
                return self._module_out(func.value, fn, depth)
            receiver = func.value
            is_self = isinstance(receiver, ast.Name) and receiver.id == "self"
            if func.attr in _KEEP_METHODS and not is_self:
                return self.value(receiver, fn, depth + 1)
            if func.attr in _CLAMPS and not is_self:
                inner = self.value(receiver, fn, depth + 1)
                return inner if inner is not None and inner.kind != LOGITS else None
            if func.attr in _METHODS and not is_self and not qual.startswith("torch.") and (
                    self.scopes.bindings.classify(receiver, fn) is None):
                kind = _METHODS[func.attr]
                return Act(kind, ((call, f"`{text(call)}` applies {kind}"),))
        if isinstance(func, ast.Name) and func.id == "self" and fn.cls is not None and fn.cls.is_module:
            return self._forward(fn.cls, call)  # `self(x)` in a module's method runs its `forward`
        return self._module_out(func, fn, depth)

    def _module_out(self, module: ast.expr, fn: FunctionInfo, depth: int) -> Optional[Act]:
        """What calling ``module`` returns, when every way it was built agrees."""
        leaves = self.values.sources(module, fn, depth + 1)
        if not leaves:
            only = self._only_model(module, fn)
            if only is not None:
                return self._via(self._forward(only, module), (
                    (only.node, f"`{text(module)}` is a parameter of `{fn.name}()`, which this file never "
                                f"calls; `{only.name}` is the one model class the file defines"),))
            if self._model_param(module, fn) and not self._file_models():
                return self._sibling_model(module, fn)
            found = self.scopes.bindings.lookup(module, fn) if isinstance(
                module, ast.Attribute) and not (
                isinstance(module.value, ast.Name) and module.value.id == "self") else None
            if found is None:
                return None
            if found.cls is not None and found.cls.is_module:
                return self._forward(found.cls, found.node)
            if isinstance(found.node, ast.Call):
                return self._constructed(found.node, self.scopes.function_of(found.node), depth)
            return None
        return _agree([self._via(self._constructed(leaf.node, leaf.fn, depth), leaf.chain)
                       for leaf in leaves])

    def _only_model(self, module: ast.expr, fn: FunctionInfo) -> Optional[ClassInfo]:
        """``def train(model, loader, ...)``, never called in the file, in a file that defines one
        ``nn.Module`` class with a ``forward`` (used nowhere as a layer of another class): that
        class is the model the parameter receives (the shape of single-file training scripts
        whose entry point is in another file)."""
        if not self._model_param(module, fn):
            return None
        models = self._file_models()
        if len(models) != 1:
            return None
        return models[0]

    def _file_models(self) -> list[ClassInfo]:
        return [c for c in self.scopes.classes.values() if c.is_module and "forward" in c.methods]

    def _model_param(self, module: ast.expr, fn: FunctionInfo) -> bool:
        """``module`` is a plain parameter of a function the file never calls."""
        node = fn.node
        if not isinstance(module, ast.Name) or isinstance(node, ast.Module) or fn.call_sites or (
                fn.cls is not None) or module.id not in fn.params:
            return False
        args = node.args
        every = [*getattr(args, "posonlyargs", []), *args.args, *args.kwonlyargs]
        arg = next((a for a in every if a.arg == module.id), None)
        if arg is None or arg.annotation is not None or default_of(node, module.id) is not None:
            return False
        return self.scopes.scope_of_name(module.id, fn) is fn

    def _sibling_model(self, module: ast.expr, fn: FunctionInfo) -> Optional[Act]:
        """A training function of a file that defines no model, whose ``model`` parameter is
        never given in the file: the one top-level ``nn.Module`` class (with a ``forward``, used
        as a layer by no other class there) of the ``.py`` files beside it is that model."""
        from preflight.analysis.project_imports import sibling_modules

        found: list[tuple[LossAnalysis, ClassInfo, str]] = []
        layers: set[str] = set()
        for other, display in sibling_modules(self.ctx, "def forward"):
            analysis = LossAnalysis.of(other, self.eval_mode)
            for cls in analysis._file_models():
                found.append((analysis, cls, display))
            for cls in analysis.scopes.classes.values():
                for sub in ast.walk(cls.node):
                    if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                        layers.add(sub.func.id)
        tops = [f for f in found if f[1].name not in layers]
        if len(tops) != 1:
            return None
        analysis, cls, display = tops[0]
        act = analysis._forward(cls, cls.node)
        if act is None:
            return None
        where = ", ".join(f"{display}:{getattr(n, 'lineno', 0)}" for n, _ in act.chain[-1:])
        return Act(act.kind, ((module, (
            f"`{text(module)}` is a parameter of `{fn.name}()`, which this file never calls; "
            f"`{cls.name}` ({display}:{cls.node.lineno}) is the one model class beside it, and its "
            f"`forward` returns {act.kind} output ({where})")),))

    def _constructed(self, node: ast.AST, fn: FunctionInfo, depth: int) -> Optional[Act]:
        if isinstance(node, ast.Name) and isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                self.values.module_annotation(fn.node, p) is node for p in fn.params):
            cls = self.scopes.classes_by_name.get(node.id)
            return self._forward(cls, node) if cls is not None else None
        if not isinstance(node, ast.Call) or depth > MAX_DEPTH:
            return None
        if isinstance(node.func, ast.Attribute) and node.func.attr in _SELF_METHODS and isinstance(
                node.func.value, ast.Call):
            # `Net(...).cuda()` / `Net(...).to(device)`: nn.Module's `cuda`/`to`/`train` return the module
            return self._constructed(node.func.value, fn, depth + 1)
        qual = self.qualify(node.func) or ""
        last = qual.rsplit(".", 1)[-1]
        if qual.startswith("torch.nn.") and not qual.startswith("torch.nn.functional."):
            if last in _LAYERS:
                kind = _LAYERS[last]
                return Act(kind, ((node, f"`{text(node)}` applies {kind}"),))
            if last in _LOGIT_LAYERS:
                return Act(LOGITS, ((node, f"`{text(node)}` is a linear layer: its output is "
                                           "unbounded"),))
            if last == "Sequential" and node.args and not node.keywords:
                tail = node.args[-1]
                if isinstance(tail, ast.Starred):
                    return None
                inner = self._module_out(tail, fn, depth + 1)
                return self._via(inner, ((node, f"`{text(node, 50)}` ends in `{text(tail, 40)}`"),))
            return None
        if isinstance(node.func, ast.Name) and self.scopes.scope_of_name(
                node.func.id, fn).is_module_scope:
            cls = self.scopes.classes_by_name.get(node.func.id)
            if cls is not None:
                return self._forward(cls, node) if cls.is_module else None
            imported = self._imported_model(node)
            if imported is not None:
                return imported
        resolved = self.scopes.bindings.resolve_call(node, fn)
        if resolved is None or resolved[1]:
            return None
        target = resolved[0]
        rets = [r for r in self.values.returns.get(target, []) if r.value is not None]
        return _agree([self._via(self._module_out(r.value, target, depth + 1),
                                 ((r, f"`{target.name}()` returns it"),))
                       for r in rets if r.value is not None])

    def _imported_model(self, node: ast.Call) -> Optional[Act]:
        """``Net(...)`` where ``Net`` is imported from a module of the project (one level)."""
        from preflight.analysis.project_imports import imported_class

        assert isinstance(node.func, ast.Name)
        got = imported_class(self.ctx, node.func.id)
        if got is None:
            return None
        other, cdef, display = got
        analysis = LossAnalysis.of(other, self.eval_mode)
        cls = analysis.scopes.classes_by_name.get(cdef.name)
        if cls is None or not cls.is_module:
            return None
        act = analysis._forward(cls, cdef)
        if act is None:
            return None
        where = ", ".join(f"{display}:{getattr(n, 'lineno', 0)}" for n, _ in act.chain[-1:])
        return Act(act.kind, ((node, (
            f"`{cdef.name}` is defined in {display}:{cdef.lineno}, and its `forward` returns "
            f"{act.kind} output ({where})")),))

    def _forward(self, cls: ClassInfo, node: ast.AST) -> Optional[Act]:
        forward = cls.method("forward")
        if forward is None:
            return None
        if self.eval_mode and _training_tests(forward.node):
            return self._eval_summary(forward)
        return self._summary(forward)

    def _eval_summary(self, fn: FunctionInfo) -> Optional[Act]:
        """What ``forward`` returns with ``self.training`` False: the ``if self.training`` /
        ``if not self.training`` branches are chosen, and the statements run top to bottom up to the
        first ``return``; None when another branch, loop or ``with`` holds a return or rebinds the name
        that is returned."""
        body = _eval_path(list(getattr(fn.node, "body", [])))
        if body is None:
            return None
        env: dict[str, Optional[tuple[ast.stmt, ast.expr]]] = {}
        for stmt in body:
            if isinstance(stmt, ast.Return):
                expr = stmt.value
                chain: list[tuple[ast.AST, str]] = [(stmt, f"`{fn.cls.name if fn.cls else fn.name}.forward()` returns it "
                                                  "when the module is in eval mode (`self.training` is False)")]
                for _ in range(MAX_DEPTH):
                    if not isinstance(expr, ast.Name):
                        break
                    if expr.id not in env or env[expr.id] is None:
                        return None
                    bound = env[expr.id]
                    assert bound is not None
                    chain.append((bound[0], f"`{text(bound[0], 60)}`"))
                    expr = bound[1]
                if expr is None or isinstance(expr, ast.Name):
                    return None
                act = self.value(expr, fn)
                return Act(act.kind, (*chain[:1], *act.chain)) if act is not None else None
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                env[stmt.targets[0].id] = (stmt, stmt.value)
                continue
            for node in ast.walk(stmt):
                if isinstance(node, ast.Return):
                    return None
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                    env[node.id] = None
        return None

    def _summary(self, fn: FunctionInfo) -> Optional[Act]:
        if fn in self._summaries:
            return self._summaries[fn]
        self._summaries[fn] = None
        rets = [r for r in self.values.returns.get(fn, []) if r.value is not None]
        name = f"{fn.cls.name}.{fn.name}" if fn.cls is not None else fn.name
        acts = []
        for ret in rets:
            assert ret.value is not None
            act = self.value(ret.value, fn)
            acts.append(self._via(act, ((ret, f"`{name}()` returns it"),)))
        found = _agree(acts)
        self._summaries[fn] = found
        return found

    def _hf_logits(self, expr: ast.Attribute, fn: FunctionInfo) -> Optional[Act]:
        """``out.logits`` where ``out`` is the output of a pretrained model's forward."""
        leaves = self.values.sources(expr.value, fn)
        if not leaves:
            return None
        for leaf in leaves:
            call = leaf.node
            if not isinstance(call, ast.Call):
                return None
            found = self.scopes.bindings.classify(call.func, leaf.fn)
            if found is None or found.kind != "module" or found.cls is not None:
                return None
            if "from_pretrained" not in ast.unparse(found.node):
                return None
        return Act(LOGITS, ((expr, f"`{text(expr)}` is the model's raw logits"),))


def _training_test(test: ast.expr) -> Optional[bool]:
    """True for ``self.training`` (and ``is True``/``== True``), False for its negation, else None."""
    if isinstance(test, ast.Attribute) and test.attr == "training" and isinstance(test.value, ast.Name) \
            and test.value.id == "self":
        return True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _training_test(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)) \
            and isinstance(test.comparators[0], ast.Constant) and isinstance(test.comparators[0].value, bool):
        inner = _training_test(test.left)
        return None if inner is None else (inner if test.comparators[0].value else not inner)
    return None


def _training_tests(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.If) and _training_test(n.test) is not None for n in ast.walk(fn))


def _eval_path(body: list[ast.stmt], depth: int = 0) -> Optional[list[ast.stmt]]:
    """``body`` with every top-level ``if self.training`` replaced by the branch that runs in eval mode."""
    if depth > 4:
        return None
    out: list[ast.stmt] = []
    for stmt in body:
        test = _training_test(stmt.test) if isinstance(stmt, ast.If) else None
        if isinstance(stmt, ast.If) and test is not None:
            branch = _eval_path(stmt.orelse if test else stmt.body, depth + 1)
            if branch is None:
                return None
            out.extend(branch)
        else:
            out.append(stmt)
    return out


def eval_mode_sites(ctx: FileContext) -> list[LossSite]:
    """Loss calls whose input is the output of a model put in eval mode (``model.eval()`` earlier in
    the same function, no ``model.train()`` between; or ``self(...)`` in a Lightning evaluation hook),
    whose ``forward`` returns an activation only when ``self.training`` is False: the sites (with that
    activation) that :func:`loss_sites` leaves unknown."""
    return ctx.cached("loss-sites-eval-mode", lambda: _eval_mode_sites(ctx))


def _eval_mode_sites(ctx: FileContext) -> list[LossSite]:
    normal = {id(s.call): s for s in loss_sites(ctx)}
    if not any(s.act is None for s in normal.values()) or (not any(
            isinstance(c.func, ast.Attribute) and c.func.attr == "eval" and not c.args for c in ctx.nodes(ast.Call))
            and not any(fn.name in ("validation_step", "test_step") for fn in ctx.nodes(ast.FunctionDef))):
        return []  # no loss of unknown input, or nothing put in eval mode: nothing to re-read
    analysis = LossAnalysis.of(ctx, eval_mode=True)
    out: list[LossSite] = []
    for site in analysis.sites:
        before = normal.get(id(site.call))
        if site.act is None or before is None or before.act is not None:
            continue
        fn = analysis.scopes.function_of(site.call)
        leaves = [site.input] if isinstance(site.input, ast.Call) else [
            leaf.node for leaf in analysis.values.sources(site.input, fn) or ()]
        if leaves and all(isinstance(c, ast.Call) and _in_eval_mode(ctx, c, analysis.scopes.function_of(c))
                          for c in leaves):
            out.append(site)
    return out


def _in_eval_mode(ctx: FileContext, call: ast.Call, fn: FunctionInfo) -> bool:
    """``call`` runs a module put in eval mode before it in the same function."""
    module = call.func
    if isinstance(module, ast.Attribute) and module.attr == "forward":
        module = module.value
    if isinstance(module, ast.Name) and module.id == "self":
        return fn.hook == "lightning-eval"
    if not isinstance(module, (ast.Name, ast.Attribute)) or isinstance(fn.node, ast.Module):
        return False
    name, line = text(module), call.lineno
    evals, trains = [], []
    for node in ast.walk(fn.node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and text(node.func.value) == name:
            if node.func.attr == "eval" and not node.args:
                evals.append(node.lineno)
            elif node.func.attr == "train":
                trains.append(node.lineno)
    last = max((n for n in evals if n < line), default=None)
    return last is not None and not any(last <= n <= line for n in trains)


_LOSS_WORDS = frozenset({*(q.rsplit(".", 1)[-1] for q in _LOSS_FUNCS), *_LOSS_CLASSES})



def _target_ids(ctx: FileContext, call: ast.Call) -> list[str]:
    parent = ctx.parent(call)
    while isinstance(parent, ast.Attribute) and parent.attr in ("to", "cuda"):
        parent = ctx.parent(ctx.parent(parent) or parent)
    out: list[str] = []
    if isinstance(parent, (ast.Assign, ast.AnnAssign)):
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        for t in targets:
            if isinstance(t, ast.Name):
                out.append(t.id)
            elif isinstance(t, ast.Attribute):
                out.append(t.attr)
    return out


def loss_sites(ctx: FileContext) -> list[LossSite]:
    """Every loss call with a logits or probability contract, with what reaches it."""
    return ctx.cached("loss-sites", lambda: LossAnalysis(ctx).sites)


def site_evidence(ctx: FileContext, site: LossSite) -> list:
    """Evidence lines for a finding on ``site``: the path of the value, then the loss."""
    assert site.act is not None
    out, seen = [], set()
    for node, message in reversed(site.act.chain):
        line = getattr(node, "lineno", 0)
        if line in seen or node is site.call:
            continue
        seen.add(line)
        out.append(ctx.evidence(node, message))
    if site.loss_node is not site.call and getattr(site.loss_node, "lineno", 0) not in seen:
        out.append(ctx.evidence(site.loss_node, f"{site.loss} is created here"))
    out.append(ctx.evidence(site.call, f"{site.loss} receives {DESCRIBE[site.act.kind]}"))
    return out
