"""Where a script materialises the model's weights before ZeRO-3 or FSDP shards them
(``model.load_placement``), read from the order of its calls, without running it.

* ``gpu``: the model is moved to the GPU whole (``model.cuda()``, ``model.to("cuda...")``)
  before ``FullyShardedDataParallel(...)``/``fully_shard(...)``/``deepspeed.initialize(...)``
  wraps it in the same function; or ``from_pretrained`` runs before the DeepSpeed config is
  registered (``TrainingArguments(deepspeed=...)``, ``HfDeepSpeedConfig(...)`` later in the
  same function: PF413's shape), so transformers does not partition at load and DeepSpeed's
  engine moves the whole module to the GPU (``_configure_distributed_model``).
* ``sharded``: ``from_pretrained`` inside ``with deepspeed.zero.Init(...)``, or after the
  DeepSpeed config is registered in the same function (transformers then loads under
  ``zero.Init`` when the config is ZeRO-3).

Only the ZeRO-3 and FSDP estimates read the fact; for other jobs it changes nothing.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional

from preflight.adapters_api import CallSite

_WRAPS = ("FullyShardedDataParallel", "fully_shard", "deepspeed.initialize")


def _functions(tree: ast.AST) -> dict[int, Optional[ast.AST]]:
    """id(call node) -> its innermost enclosing function (None: module level)."""
    out: dict[int, Optional[ast.AST]] = {}

    def walk(node: ast.AST, scope: Optional[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
            if isinstance(child, ast.Call):
                out[id(child)] = scope
            walk(child, inner)

    walk(tree, None)
    return out


def _under_zero_init(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                "zero.Init" in ast.unparse(item.context_expr) for item in node.items):
            for sub in node.body:
                inside.update(id(n) for n in ast.walk(sub) if isinstance(n, ast.Call))
    return inside


def _mentions_zero_init(tree: ast.AST) -> bool:
    """Whether the file uses ``zero.Init`` anywhere (a context, a call, ``zero3_init``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "Init" and \
                ast.unparse(node.value).endswith("zero"):
            return True
    return False


def _to_gpu(site: CallSite) -> bool:
    func = site.call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "cuda":
        return True
    if func.attr != "to" or not site.call.args:
        return False
    text = ast.unparse(site.call.args[0]).strip("'\"f")
    return text.startswith("cuda") or text.startswith("torch.device('cuda") or \
        text.startswith('torch.device("cuda')


def _wraps(site: CallSite) -> bool:
    q = site.qualified or site.name or ""
    return any(q.endswith(w) for w in _WRAPS)


def _registers_ds_config(site: CallSite) -> bool:
    if site.last == "HfDeepSpeedConfig":
        return True
    args = (site.last or "").endswith("TrainingArguments") or site.last in ("SFTConfig", "DPOConfig", "GRPOConfig")
    ds = site.kwarg("deepspeed")
    return args and ds is not None and not (isinstance(ds, ast.Constant) and ds.value in (None, False, ""))


def placements(tree: ast.AST, calls: list[CallSite], is_model: Callable[[CallSite], bool],
               loads: list[CallSite]) -> Iterator[tuple[str, CallSite, str]]:
    """(placement, the call that decides it, why) for each decisive shape found."""
    scope = _functions(tree)
    zero_init = _under_zero_init(tree)
    wraps = [s for s in calls if _wraps(s)]
    registers = [s for s in calls if _registers_ds_config(s)]
    for load in loads:
        if id(load.call) in zero_init:
            yield "sharded", load, "from_pretrained under deepspeed.zero.Init: partitioned while loading"
            continue
        same = [r for r in registers if scope.get(id(r.call)) is scope.get(id(load.call))]
        if not same:
            continue
        first = min(same, key=lambda r: r.line)
        if first.line < load.line:
            yield ("sharded", load, f"from_pretrained after {first.label}(...) (line {first.line}) registers "
                   "the DeepSpeed config: transformers partitions a ZeRO-3 model while loading")
        else:
            yield ("gpu", load, f"from_pretrained before {first.label}(...) (line {first.line}) registers the "
                   "DeepSpeed config: the whole model reaches every GPU before ZeRO-3 shards it")
    for move in calls:
        if not (_to_gpu(move) and is_model(move)):
            continue
        later = [w for w in wraps if w.line > move.line and scope.get(id(w.call)) is scope.get(id(move.call))]
        if later:
            wrap = min(later, key=lambda w: w.line)
            yield ("gpu", move, f"{move.label}(...) before {wrap.label}(...) (line {wrap.line}): the whole "
                   "model is on every GPU before it is sharded")
    # deepspeed.initialize(model=...) on a model the script built itself, in a file with no
    # deepspeed.zero.Init and no DeepSpeed config registered for transformers: nothing
    # partitions it while it is built, and DeepSpeed's engine moves the whole module to the
    # GPU before ZeRO-3 shards it (``_configure_distributed_model``: ``self.module.to(
    # self.device)``; "zero.Init() handles device placement of model" only for ZeRO
    # parameters)
    if registers or _mentions_zero_init(tree):
        return
    for wrap in wraps:
        if not (wrap.qualified or wrap.name or "").endswith("deepspeed.initialize"):
            continue
        model = wrap.arg(1, "model")
        if not isinstance(model, ast.Name):
            continue
        built = [c for c in calls if c.target == model.id and c.line < wrap.line
                 and scope.get(id(c.call)) is scope.get(id(wrap.call)) and not _to_gpu(c)]
        if built:
            yield ("gpu", wrap, f"{wrap.label}(model={model.id}) on a model built without "
                   "deepspeed.zero.Init: the engine moves the whole module to the GPU before "
                   "ZeRO-3 shards it")
            return
