"""Shared helpers of the framework rules (PF4xx): what an Accelerator, a Hugging Face call
or a TRL config looks like in one file, found through the file's imports."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any, Iterator, Optional

from preflight.analysis.accumulation import ACCELERATORS
from preflight.analysis.scopes import scope_index

if TYPE_CHECKING:
    from preflight.adapters_api import CallSite, Resolved, ScriptIndex
    from preflight.analysis.context import FileContext
    from preflight.plan_rules import PlanContext
    from preflight.sources import ParsedPython

# calls that hand a loader on without changing what it is
LOADER_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "zip", "tqdm.tqdm", "tqdm.auto.tqdm", "len",
                             "tqdm.notebook.tqdm", "rich.progress.track"})
FLASH_PREFIXES = ("flash_attention", "flash-attention", "kernels-community/")


def qualify(ctx: FileContext, node: ast.AST) -> str:
    return scope_index(ctx).imports.qualify(node) or ""


def calls(ctx: FileContext) -> Iterator[tuple[ast.Call, str]]:
    """Every call of the file with its import-qualified callee name (listed once per file)."""
    def build() -> list[tuple[ast.Call, str]]:
        qualify = scope_index(ctx).imports.qualify
        return [(call, qualify(call.func) or "") for call in ctx.nodes(ast.Call)]

    return iter(ctx.cached("pf4-calls", build))


def is_from(qual: str, package: str, last: str) -> bool:
    """``qual`` names ``last`` of ``package`` (``transformers.BitsAndBytesConfig``, any submodule)."""
    return (qual == f"{package}.{last}" or qual.startswith(package + ".")) and qual.rsplit(".", 1)[-1] == last


def kwarg(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


#: torch.optim optimizers that keep state between steps (moment estimates, accumulators, step counts)
STATEFUL_OPTIMIZERS = frozenset({"Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop", "Adagrad", "Adadelta",
                                 "SparseAdam", "Adafactor"})


def stateful_optimizer(call: ast.Call, qual: str) -> Optional[str]:
    """The class name (``Adam``, ``SGD with momentum``) when ``call`` builds a ``torch.optim`` optimizer that
    keeps state between steps; SGD only with a momentum that is not a literal zero (keyword or third
    positional argument)."""
    if not qual.startswith("torch.optim.") or qual.count(".") != 2:
        return None
    last = qual.rsplit(".", 1)[-1]
    if last in STATEFUL_OPTIMIZERS:
        return last
    if last == "SGD":
        momentum = kwarg(call, "momentum")
        if momentum is None and len(call.args) > 2:
            momentum = call.args[2]
        if momentum is not None and not (isinstance(momentum, ast.Constant) and not momentum.value):
            return "SGD with momentum"
    return None


def has_unpacking(call: ast.Call) -> bool:
    return any(kw.arg is None for kw in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)


def script_index(ctx: FileContext) -> ScriptIndex:
    """The adapters' literal resolver over this file (argparse defaults included)."""
    from preflight.script_index import ScriptIndex  # not via adapters_api: no plan, loaders or json

    return ctx.cached("pf4-script-index", lambda: ScriptIndex(ctx.parsed))


def resolve(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[Resolved]:
    return script_index(ctx).resolve(expr) if expr is not None else None


def literal(ctx: FileContext, expr: Optional[ast.AST]) -> Any:
    """The statically known value of ``expr``, or ``_UNKNOWN``."""
    found = resolve(ctx, expr)
    return _UNKNOWN if found is None else found.value


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN: Any = _Unknown()
UNKNOWN: Any = _UNKNOWN


def target_text(node: ast.AST) -> Optional[str]:
    """``name`` or ``self.attr`` of an assignment target."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def dotted_text(node: Optional[ast.AST]) -> Optional[str]:
    """``a``, ``a.b.c`` of a name or an attribute chain of names; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted_text(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def position(node: ast.AST) -> tuple[int, int]:
    """(line, column) of a node, for ordering nodes of one file."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def accelerators(ctx: FileContext) -> list[ast.Call]:
    """``Accelerator(...)`` constructor calls of the file."""
    return [c for c, q in calls(ctx) if q in ACCELERATORS]


def accelerator_names(ctx: FileContext) -> set[str]:
    """Names (``accelerator``, ``self.accelerator``) an ``Accelerator(...)`` is assigned to."""
    return set(ctx.cached("pf4-accelerator-names", lambda: _accelerator_names(ctx)))


def _accelerator_names(ctx: FileContext) -> set[str]:
    ctors = {id(c) for c in accelerators(ctx)}
    out: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        if id(assign.value) in ctors:
            for tgt in assign.targets:
                text = target_text(tgt)
                if text:
                    out.add(text)
    return out


def is_accelerator_receiver(node: ast.AST, names: set[str]) -> bool:
    text = target_text(node)
    if text is None:
        return False
    return text in names or text.rsplit(".", 1)[-1] in ("accelerator", "accel")


def calls_by_attr(ctx: FileContext) -> dict[str, list[ast.Call]]:
    """The file's ``x.<attr>(...)`` calls by attribute name, in source order (built once)."""

    def build() -> dict[str, list[ast.Call]]:
        out: dict[str, list[ast.Call]] = {}
        for call in ctx.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute):
                found = out.get(func.attr)
                if found is None:
                    out[func.attr] = [call]
                else:
                    found.append(call)
        return out

    return ctx.cached("pf4-calls-by-attr", build)


def accelerator_calls(ctx: FileContext, method: str) -> list[ast.Call]:
    """``<accelerator>.<method>(...)`` calls of the file."""
    named = calls_by_attr(ctx).get(method)
    if not named:
        return []  # the accelerator names are not even looked for
    names = accelerator_names(ctx)
    return [call for call in named if is_accelerator_receiver(call.func.value, names)]  # type: ignore[attr-defined]


def unparse(node: Optional[ast.AST], limit: int = 60) -> str:
    if node is None:
        return ""
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_flash(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(FLASH_PREFIXES)


# --------------------------------------------------------------------------- project level

MODEL_CLASS = re.compile(r"^(Auto\w*Model\w*|\w*Model|\w+For[A-Z]\w*|\w*LMHeadModel)$")
NOT_MODEL = re.compile(r"Tokenizer|Processor|Config|FeatureExtractor|^Peft|^AutoPeft")


def model_loads(pctx: PlanContext, script: ParsedPython) -> list[CallSite]:
    """``<ModelClass>.from_pretrained(...)`` calls of a script on classes imported from
    transformers (not tokenizers, configs, PEFT; not diffusers, whose defaults differ)."""
    out = []
    for site in pctx.index(script).calls:
        name = site.name or ""
        if not name.endswith(".from_pretrained") or not (site.qualified or "").startswith("transformers."):
            continue
        cls = name.rsplit(".", 2)[-2]
        if MODEL_CLASS.match(cls) and not NOT_MODEL.search(cls):
            out.append(site)
    return out


def version_gate(pctx: PlanContext, package: str, script: ParsedPython, major: tuple[int, ...],
                 latest: str) -> Optional[tuple[str, bool]]:
    """Whether a rule about ``package >= major`` applies: (how the version is known, declared?)
    or None when the project declares an older version."""
    found = pctx.version(package, script)
    if found is None:
        return f"no {package} version is declared in the project's requirements, so the latest ({latest}) " \
               "is assumed", False
    if not found.at_least(*major):
        return None
    if found.how == "stated by the user":
        return f"{package} {found.text} as stated with --transformers-version", True
    return f"the project declares {found.describe()}", True


def prepared_names(ctx: FileContext) -> dict[str, ast.Call]:
    """Names bound from ``accelerator.prepare(...)`` -> the prepare call."""
    out: dict[str, ast.Call] = {}
    for call in accelerator_calls(ctx, "prepare"):
        parent = ctx.parent(call)
        if not isinstance(parent, ast.Assign):
            continue
        for tgt in parent.targets:
            for elt in (tgt.elts if isinstance(tgt, (ast.Tuple, ast.List)) else [tgt]):
                text = target_text(elt)
                if text is not None:
                    out.setdefault(text, call)
    return out
