"""PF356 fresh-peft-adapter-evaluated: a model wrapped by ``get_peft_model`` and then only evaluated: the
adapter is new (LoRA's B matrices are zero), so the evaluation measures the base model, not a trained one."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_TRAINERS = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "RewardTrainer", "ORPOTrainer",
                       "KTOTrainer", "GRPOTrainer", "CPOTrainer", "PPOTrainer"})
_EVALUATES = frozenset({"evaluate", "predict", "generate"})
# calls that put trained weights into an existing PEFT model (or restore it whole)
_LOADS = frozenset({"load_adapter", "load_state_dict", "set_peft_model_state_dict", "load_checkpoint",
                    "load_state", "load_model", "from_pretrained", "load_weights", "load_pretrained"})


def _uses(ctx: FileContext, name: str, after: int) -> list[ast.Name]:
    return [n for n in ctx.nodes(ast.Name) if n.id == name and n.lineno > after]


def _call_of(ctx: FileContext, node: ast.AST) -> Optional[ast.Call]:
    """The call ``node`` is an argument of (``f(node)``, ``f(model=node)``) or the receiver of (``node.f()``)."""
    parent = ctx.parent(node)
    if isinstance(parent, ast.keyword):
        parent = ctx.parent(parent)
    if isinstance(parent, ast.Call) and node is not parent.func:
        return parent
    if isinstance(parent, ast.Attribute) and parent.value is node:
        outer = ctx.parent(parent)
        if isinstance(outer, ast.Call) and outer.func is parent:
            return outer
    return None


def _assigned_name(ctx: FileContext, call: ast.Call) -> Optional[str]:
    parent = ctx.parent(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None


def _trained_adapter_exists(ctx: FileContext) -> bool:
    """The file produces or names a trained adapter: it saves a model (``save_pretrained``), trains
    (``backward``, ``trainer.train()``), or names an adapter directory (``adapter_dir``, ``lora_path``...)."""
    for call in ctx.nodes(ast.Call):
        last = call_last(call)
        if last in ("save_pretrained", "backward"):
            return True
        if last == "train" and isinstance(call.func, ast.Attribute) and "trainer" in ast.unparse(call.func.value).lower():
            return True
    for node in ctx.nodes(ast.Name, ast.arg):
        text = (node.id if isinstance(node, ast.Name) else node.arg).lower()
        if ("adapter" in text or "lora" in text) and any(k in text for k in ("dir", "path", "ckpt", "checkpoint")):
            return True
    return False


@register
class FreshPeftAdapterEvaluated(Rule):
    code = "PF356"
    needs_text = ("get_peft_model",)
    name = "fresh-peft-adapter-evaluated"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a model wrapped by `get_peft_model` and only evaluated, never trained nor loaded: the new "
               "adapter is a no-op (LoRA B = 0) and the evaluation measures the base model")
    url = "https://github.com/huggingface/peft/issues/793"
    explanation = """
## What it finds

`m = get_peft_model(base, config)` where `m` is then evaluated (`m.eval()`,
`m.generate(...)`, or given to a Trainer whose `evaluate()`/`predict()` is called) but
never trained (no `m.train()`, no optimizer over its parameters, no `backward` in the
function, no Trainer that trains it, no `accelerator.prepare`) and nothing is loaded into it
(`load_adapter`, `load_state_dict`, `set_peft_model_state_dict`, `from_pretrained`...).

## Why it matters

`get_peft_model` creates a new adapter. LoRA initialises its `B` matrices to zero, so a
fresh adapter leaves every output of the base model unchanged (other PEFT methods start as
no-ops too). A script that trains an adapter, saves it, and then "reloads" it for evaluation
with `get_peft_model(base, config)` evaluates the base model: the fine-tuned model seems to
behave exactly like the original (peft issue 793).

## How to fix it

Load the saved adapter: `PeftModel.from_pretrained(base, "path/to/adapter")` (or
`model.load_adapter(path, adapter_name)`), or evaluate the trained object itself.

## When preflight stays silent

* The wrapped model is trained in the file, or weights are loaded into it afterwards.
* The config sets `init_lora_weights` (a non-default start, e.g. for tests).
* The wrapped model is not evaluated in the file (it is returned or handed elsewhere).
* The file neither saves a model, trains, nor names an adapter path (`adapter_dir`,
  `lora_path`...): there is no trained adapter it could mean (benchmarks of a fresh adapter).
* Test files (`test_*.py`) and `test*`/`bench*` functions, which wrap fresh adapters on purpose.
"""
    bad_examples = examples("preflight.rules.code._pf356_examples", "PF356_BAD")
    good_examples = examples("preflight.rules.code._pf356_examples", "PF356_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        base = ctx.path.replace("\\", "/").rsplit("/", 1)[-1]
        if base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py":
            return  # tests wrap fresh adapters on purpose (initialisation, shapes, no-op checks)
        if not _trained_adapter_exists(ctx):
            return
        backward_scopes = {ctx.enclosing_function(c) for c in ctx.nodes(ast.Call) if call_last(c) == "backward"}
        for wrap in ctx.nodes(ast.Call):
            if call_last(wrap) != "get_peft_model":
                continue
            name = _assigned_name(ctx, wrap)
            if name is None or any(kw.arg is None or kw.arg == "init_lora_weights" for kw in wrap.keywords):
                continue
            config = wrap.args[1] if len(wrap.args) > 1 else kwarg(wrap, "peft_config")
            if isinstance(config, ast.Call) and kwarg(config, "init_lora_weights") is not None:
                continue
            scope = ctx.enclosing_function(wrap)
            if scope in backward_scopes or (isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
                                            and scope.name.startswith(("test", "bench"))):
                continue
            verdict = self._use(ctx, name, wrap)
            if verdict is None:
                continue
            yield ctx.finding(self, wrap, (
                f"`{name}` gets a new PEFT adapter here and is then only evaluated: nothing trains it and no "
                "saved adapter is loaded into it, and a fresh LoRA adapter (B = 0) changes no output, so this "
                "evaluation measures the base model. Load the trained adapter with "
                "PeftModel.from_pretrained(base, path) (or load_adapter) instead of get_peft_model"),
                evidence=[ctx.evidence(verdict, "evaluated here")])

    def _use(self, ctx: FileContext, name: str, wrap: ast.Call) -> Optional[ast.AST]:
        """The first evaluation of ``name`` after ``wrap`` when nothing trains or loads it, else None."""
        scope = ctx.enclosing_function(wrap)
        evaluated: Optional[ast.AST] = None
        trainers: set[str] = set()
        for use in sorted(_uses(ctx, name, wrap.lineno), key=lambda n: (n.lineno, n.col_offset)):
            if ctx.enclosing_function(use) is not scope:
                continue
            parent = ctx.parent(use)
            if isinstance(parent, ast.Assign) and use in parent.targets:
                break  # rebound: later uses are another object
            call = _call_of(ctx, use)
            if call is None:
                continue
            last = call_last(call)
            receiver = isinstance(call.func, ast.Attribute) and call.func.value is use
            if receiver and last in ("train", "parameters", "named_parameters"):
                return None
            if last in _LOADS or last == "prepare" or last in ("AdamW", "Adam", "SGD"):
                return None
            if receiver and last in ("eval", *_EVALUATES) and evaluated is None:
                evaluated = call
            if last in _TRAINERS:
                owner = _assigned_name(ctx, call)
                if owner is not None:
                    trainers.add(owner)
                    continue
                then = _call_of(ctx, call)  # Trainer(model=m, ...).evaluate()
                if then is None or then.func is not ctx.parent(call) or call_last(then) not in _EVALUATES:
                    return None
                if evaluated is None:
                    evaluated = then
        for call in ctx.nodes(ast.Call):
            if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                    and call.func.value.id in trainers and ctx.enclosing_function(call) is scope:
                if call.func.attr == "train":
                    return None
                if call.func.attr in _EVALUATES and evaluated is None:
                    evaluated = call
        return evaluated
