"""PF125 padded-targets-in-cross-entropy: target sequences padded with a token id by the loader's collate
function reach cross-entropy with the default ``ignore_index=-100``; every pad position is trained on."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.binding_kinds import MODULE
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# tensor methods that keep the values of the padded batch (moves, views, casts)
_KEEP = frozenset({"to", "cuda", "long", "contiguous", "view", "reshape", "flatten", "clone", "detach", "squeeze",
                   "unsqueeze", "transpose", "permute", "t"})


def _minus_100(node: Optional[ast.AST], consts: dict[str, list[ast.AST]]) -> Optional[bool]:
    """True for -100 (also through a name bound once), False for another known value, None when unknown."""
    if node is None:
        return False  # pad_sequence's default padding_value is 0
    if isinstance(node, ast.Name):
        bound = consts.get(node.id, [])
        if len(bound) != 1:
            return None if "ignore" in node.id.lower() else False
        node = bound[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return node.operand.value == 100
    if isinstance(node, ast.Constant):
        return node.value == -100
    text = ast.unparse(node).lower()
    return None if "ignore" in text else False


_TENSOR_MAKERS = frozenset({"tensor", "LongTensor", "as_tensor"})
WHOLE = -1  # key of a collate that returns the padded batch itself, not a tuple or dict


def _pad_helper_value(helper: ast.FunctionDef, call: ast.Call) -> Optional[ast.AST]:
    """The pad value of a project helper that pads lists by hand, ``ids + [pad] * (n - len(ids))``, with
    ``pad`` a parameter of the helper: what ``call`` passes for it, else its default. None when the helper
    pads otherwise."""
    params = helper.args.args
    defaults = dict(zip([a.arg for a in params[len(params) - len(helper.args.defaults):]], helper.args.defaults))
    pad: Optional[str] = None
    for node in ast.walk(helper):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(side, ast.List) and len(side.elts) == 1 and isinstance(side.elts[0], ast.Name) \
                        and isinstance(other, ast.BinOp) and isinstance(other.op, ast.Sub) \
                        and isinstance(other.right, ast.Call) and call_last(other.right) == "len":
                    pad = side.elts[0].id
    if pad is None or pad not in [a.arg for a in params]:
        return None
    given = kwarg(call, pad)
    index = [a.arg for a in params].index(pad)
    if given is None and index < len(call.args):
        given = call.args[index]
    return given if given is not None else defaults.get(pad)


def _token_id(value: ast.AST) -> bool:
    """A number, or a name/attribute that names a token id (``tokenizer.pad_token_id``, ``EOS_ID``), not a label
    pad value (``label_pad_id``, ``ignore_id``)."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, int) and not isinstance(value.value, bool)
    words = ast.unparse(value).lower()
    return isinstance(value, (ast.Name, ast.Attribute)) and any(w in words for w in ("pad", "eos", "end")) \
        and not any(w in words for w in ("label", "ignore", "mask"))


def _padded(elt: ast.AST, functions: dict[str, ast.FunctionDef], consts: dict[str, list[ast.AST]],
            params: Optional[dict[str, Optional[ast.AST]]] = None) -> Optional[tuple[ast.AST, str]]:
    """(where, pad text) when ``elt`` is a batch padded with a value other than -100: ``pad_sequence(...)``,
    or a tensor of a project helper's hand-padded lists."""
    if isinstance(elt, ast.Call) and call_last(elt) == "pad_sequence":
        value = kwarg(elt, "padding_value") or (elt.args[2] if len(elt.args) > 2 else None)
        if _minus_100(value, consts) is False:
            return elt, (f"`pad_sequence(..., padding_value={ast.unparse(value)})`" if value is not None
                         else "`pad_sequence(...)` (padding_value 0, the default)")
        return None
    if isinstance(elt, ast.Call) and call_last(elt) in _TENSOR_MAKERS and len(elt.args) == 1:
        inner = elt.args[0]
        helper = functions.get(inner.func.id) if isinstance(inner, ast.Call) and isinstance(
            inner.func, ast.Name) else None
        if helper is not None and isinstance(inner, ast.Call):
            given = _pad_helper_value(helper, inner)
            if isinstance(given, ast.Name) and params is not None and given.id in params:
                given = params[given.id]  # a parameter of the collate function: what partial() or its default gives
            if given is not None and _token_id(given) and _minus_100(given, consts) is False:
                return elt, f"`{helper.name}(...)`, which appends `{ast.unparse(given)}` to every shorter row"
    return None


def _padded_positions(fn: ast.FunctionDef, consts: dict[str, list[ast.AST]],
                      functions: Optional[dict[str, ast.FunctionDef]] = None,
                      partial: Optional[ast.Call] = None) -> dict[Union[int, str], tuple[ast.AST, str]]:
    """Positions of ``fn``'s returned tuple (or keys of its returned dict) that hold a batch padded with a
    value other than -100, with the padding call and how it pads. ``partial``: the ``functools.partial(fn,
    ...)`` the loader is given, whose keywords bind ``fn``'s parameters."""
    every = fn.args.args + fn.args.kwonlyargs
    tail = fn.args.args[len(fn.args.args) - len(fn.args.defaults):]
    params: dict[str, Optional[ast.AST]] = {a.arg: None for a in every}
    params.update({a.arg: d for a, d in zip(tail, fn.args.defaults)})
    params.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults)})
    if partial is not None:
        params.update({k.arg: k.value for k in partial.keywords if k.arg is not None})
    local: dict[str, list[ast.AST]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name):
                    local.setdefault(tgt.id, []).append(node.value)
    out: dict[Union[int, str], tuple[ast.AST, str]] = {}
    for node in ast.walk(fn):
        if not isinstance(node, ast.Return):
            continue
        items: list[tuple[Union[int, str], ast.AST]] = []
        if isinstance(node.value, ast.Tuple):
            items = list(enumerate(node.value.elts))
        elif isinstance(node.value, ast.Dict):
            items = [(k.value, v) for k, v in zip(node.value.keys, node.value.values)
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif node.value is not None:
            items = [(WHOLE, node.value)]  # the padded batch itself (a language-model loader of token rows)
        for i, item in items:
            elt: ast.AST = item
            if isinstance(item, ast.Name) and len(local.get(item.id, [])) == 1:
                elt = local[item.id][0]
            found = _padded(elt, functions or {}, consts, params)
            if found is not None:
                out[i] = found
    return out


def _derived(node: ast.AST, names: set[str], batch: Optional[tuple[str, set[str]]] = None) -> bool:
    """``node`` holds the values of one of ``names``: the name, a slice of it, a move or view of it; or,
    with ``batch`` = (name, keys), ``name["key"]`` for one of the padded keys of a dict batch."""
    if isinstance(node, ast.Name):
        return node.id in names
    if batch is not None and isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and node.value.id == batch[0] and isinstance(node.slice, ast.Constant) and node.slice.value in batch[1]:
        return True
    if isinstance(node, ast.Subscript):
        idx = node.slice
        parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        return all(isinstance(p, (ast.Slice, ast.Constant)) for p in parts) and _derived(node.value, names, batch)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEP:
        return _derived(node.func.value, names, batch)
    return False


def _batch_changed(loop: ast.For, name: str) -> bool:
    """The loop writes into the dict batch ``name``, deletes or pops a key of it, or updates it."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
                and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == name and node.func.attr in ("pop", "update", "setdefault", "popitem", "clear"):
            return True
    return False


def _hf_model(ctx: FileContext, call: ast.Call) -> bool:
    """``model(..., labels=...)`` where ``model`` was built by a transformers ``X.from_pretrained(...)``
    (also through ``.to(device)``/``.cuda()``/``.train()``): its loss is cross-entropy with ignore_index=-100."""
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return False
    scopes = scope_index(ctx)
    found = scopes.bindings.classify(call.func, scopes.function_of(call))
    if found is None or found.kind != MODULE:
        return False
    node = found.inner.node if found.inner is not None else found.node
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_pretrained"):
        return False
    return (qualify(ctx, node.func.value) or "").startswith("transformers.")


@register
class PaddedTargetsInCrossEntropy(Rule):
    code = "PF125"
    name = "padded-targets-in-cross-entropy"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("collate_fn",)
    summary = "Target sequences padded with a token id reach cross-entropy with the default ignore_index=-100: every pad position is a training target"
    explanation = """
## What it finds

A DataLoader whose `collate_fn` (a function of the same file) returns sequences padded
with `pad_sequence(..., padding_value=PAD)` where `PAD` is not -100 (the tokenizer's pad id,
or the default 0), or padded by a helper of the file that appends a token id to each
shorter list (`ids + [pad_idx] * (max_length - len(ids))`, `pad_idx` a number or a name
like `tokenizer.pad_token_id` / `token_end_id`, given at the call or as the default) and
wrapped in `torch.tensor(...)`; returned in a tuple, in a dict read as
`batch["labels"]`, or returned alone (a language-model loader of padded token rows iterated as
`for seq in loader:`, its shifted slice `seq[:, 1:]` the target; EleutherAI/aria pull request 40,
"exclude padding tokens from contributing to loss") (a collate given as `functools.partial(collate, pad_id=...)`, inline or
through a name, binds the collate's parameters); and a training loop over that loader that passes those sequences (or
slices, views and moves of them) as the target of `F.cross_entropy` or of an
`nn.CrossEntropyLoss()` built without `ignore_index` or with `ignore_index=-100`
(FlagAI-Open/FlagAI#522: labels padded with the end-token id, "Yes you are right"), or as `labels=` of a transformers model
built with `X.from_pretrained(...)`, or in `model(**batch)` for a dict batch with a padded
`"labels"` key that the loop does not write, pop or update (its loss is cross-entropy with ignore_index=-100; the
shape of meta-llama/llama-cookbook#73, 01-ai/Yi#110, zai-org/ChatGLM-6B#362).

## Why it matters

Cross-entropy skips only the targets equal to `ignore_index`, -100 by default
(`torch.nn.functional.cross_entropy`). Pad positions hold the pad id, so each of them is a
target: the model is trained to predict the pad token after every sequence, the loss is
averaged over pad positions too and is dominated by them on batches of uneven lengths
(lukas-blecher/LaTeX-OCR#305: "the default value is -100, but [PAD] token's index = 0").

## How to fix it

Pass `ignore_index=PAD` to the loss (`F.cross_entropy(logits, target, ignore_index=PAD)`,
`nn.CrossEntropyLoss(ignore_index=PAD)`), or pad the targets with -100.

## When preflight stays silent

* The loss has an `ignore_index=` other than -100 or `reduction="none"` (a mask is applied by
  hand), or the targets are padded with -100 (also through a name bound to -100); a hand-padding
  helper's pad value named like a label pad (`label_pad_id`, `ignore_id`, `mask_id`) or unknown.
* The targets are indexed with a mask (`target[target != PAD]`) or written to before the loss
  (`target[target == PAD] = -100`, `masked_fill`).
* The collate function is not in the file, pads in another way, or the loop does not unpack
  the loader's tuple (a collate returning the padded batch alone: the loop variable is the batch).
* `labels=` goes to a model that is not a transformers `from_pretrained` model (a project
  model may mask the pad id itself), or, for a collate returning the padded batch alone, the loop
  never reads the model's `.loss` (it trains on a loss of its own, checked as above).
"""
    bad_examples = examples("preflight.rules.code._pf125_examples", "PF125_BAD")
    good_examples = examples("preflight.rules.code._pf125_examples", "PF125_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        functions = {fn.name: fn for fn in ctx.nodes(ast.FunctionDef)}
        consts: dict[str, list[ast.AST]] = {}
        losses: dict[str, list[ast.Call]] = {}
        for node in ctx.nodes(ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, (ast.Name, ast.Attribute)):
                    consts.setdefault(ast.unparse(tgt), []).append(node.value)
                    if isinstance(node.value, ast.Call) and qualify(ctx, node.value.func) == "torch.nn.CrossEntropyLoss":
                        losses.setdefault(ast.unparse(tgt), []).append(node.value)
        loaders: dict[str, tuple[ast.FunctionDef, dict[Union[int, str], tuple[ast.AST, str]]]] = {}
        for node in ctx.nodes(ast.Assign):
            call = node.value
            if not (isinstance(call, ast.Call) and call_last(call) == "DataLoader" and len(node.targets) == 1):
                continue
            fn_node: Optional[ast.AST] = kwarg(call, "collate_fn")
            if isinstance(fn_node, ast.Name) and fn_node.id not in functions and len(consts.get(fn_node.id, [])) == 1:
                fn_node = consts[fn_node.id][0]  # `collator = functools.partial(collate, pad_id=...)`
            partial = None
            if isinstance(fn_node, ast.Call) and call_last(fn_node) == "partial" and fn_node.args:
                partial, fn_node = fn_node, fn_node.args[0]
            fn = functions.get(fn_node.id) if isinstance(fn_node, ast.Name) else None
            if fn is None:
                continue
            padded = _padded_positions(fn, consts, functions, partial)
            if padded:
                loaders[ast.unparse(node.targets[0])] = (fn, padded)
        if not loaders:
            return
        for loop in ctx.nodes(ast.For):
            it: ast.AST = loop.iter
            target: ast.AST = loop.target
            if isinstance(it, ast.Call) and call_last(it) in ("enumerate", "tqdm") and it.args:
                it = it.args[0]
                if isinstance(target, ast.Tuple) and len(target.elts) == 2:
                    target = target.elts[1]
            found = loaders.get(ast.unparse(it))
            if found is None:
                continue
            fn, padded = found
            batch: Optional[tuple[str, set[str]]] = None
            whole = False
            if isinstance(target, ast.Tuple):
                elts = target.elts
                names = {e.id for i in padded if isinstance(i, int) and 0 <= i < len(elts) for e in [elts[i]]
                         if isinstance(e, ast.Name)}
            elif isinstance(target, ast.Name) and any(isinstance(i, str) for i in padded):
                names, batch = set(), (target.id, {i for i in padded if isinstance(i, str)})
            elif isinstance(target, ast.Name) and WHOLE in padded:
                names = {target.id}  # `for seq in loader:` over a loader of padded token rows
                whole = True
            else:
                continue
            if (names or batch) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                                        and n.func.attr == "backward" for n in ast.walk(loop)):
                yield from self._losses(ctx, loop, names, losses, fn, padded, batch, whole)

    def _losses(self, ctx: FileContext, loop: ast.For, names: set[str], losses: dict[str, list[ast.Call]],
                fn: ast.FunctionDef, padded: dict[Union[int, str], tuple[ast.AST, str]],
                batch: Optional[tuple[str, set[str]]] = None, whole: bool = False) -> Iterable[Finding]:
        names = set(names)
        statements = sorted((n for n in ast.walk(loop) if isinstance(n, (ast.Assign, ast.Call))),
                            key=lambda n: (n.lineno, n.col_offset))
        keys = sorted(padded, key=lambda k: (not any(w in str(k) for w in ("label", "target", "tgt")), str(k)))
        pad, how = padded[keys[0]]
        consts: dict[str, list[ast.AST]] = {}
        for assign in ctx.nodes(ast.Assign):
            for tgt in assign.targets:
                if isinstance(tgt, ast.Name):
                    consts.setdefault(tgt.id, []).append(assign.value)
        if batch is not None and _batch_changed(loop, batch[0]):
            return  # `batch["labels"] = ...`, `batch.pop("labels")`, `del batch[...]`: not the collate's labels
        for node in statements:
            if isinstance(node, ast.Assign):
                pairs: list[tuple[ast.AST, ast.AST]] = []  # (target, value)
                for tgt in node.targets:
                    if isinstance(tgt, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                            and len(tgt.elts) == len(node.value.elts):
                        pairs.extend(zip(tgt.elts, node.value.elts))
                    else:
                        pairs.append((tgt, node.value))
                for dst, val in pairs:
                    if isinstance(dst, ast.Subscript) and _derived(dst.value, names, batch):
                        return  # the pad positions are rewritten (`target[target == PAD] = -100`)
                    if isinstance(dst, ast.Name):
                        if _derived(val, names, batch):
                            names.add(dst.id)
                        else:
                            names.discard(dst.id)
                continue
            hf_labels = kwarg(node, "labels")
            shown = f"`labels={ast.unparse(hf_labels)}`" if hf_labels is not None else ""
            if hf_labels is None and batch is not None and "labels" in batch[1] and any(
                    k.arg is None and isinstance(k.value, ast.Name) and k.value.id == batch[0] for k in node.keywords):
                hf_labels = ast.Subscript(value=ast.Name(id=batch[0], ctx=ast.Load()),
                                          slice=ast.Constant(value="labels"), ctx=ast.Load())  # `model(**batch)`
                pad, how = padded["labels"]
                shown = f"`**{batch[0]}` (its `\"labels\"`)"
            if whole and not any(isinstance(n, ast.Attribute) and n.attr == "loss" for n in ast.walk(loop)):
                hf_labels = None  # the model's own loss is never read: the loop trains on a loss of its own
            if hf_labels is not None and _derived(hf_labels, names, batch) and _hf_model(ctx, node):
                yield ctx.finding(
                    self, node,
                    f"{shown} comes from sequences that `{fn.name}` pads with "
                    f"{how}, and `{ast.unparse(node.func)}` is a "
                    f"transformers model whose loss is cross-entropy with ignore_index=-100: every pad position "
                    f"is a training target, so the model learns to predict padding and the loss is averaged over "
                    f"pad tokens. Pad the labels with -100 (or set `labels[labels == pad_id] = -100`)",
                    evidence=[ctx.evidence(pad, "the labels are padded here")])
                return
            qual = qualify(ctx, node.func)
            text = ast.unparse(node.func)
            if qual == "torch.nn.functional.cross_entropy":
                ctor = node
            elif text in losses and len(losses[text]) == 1:
                ctor = losses[text][0]
            else:
                continue
            tgt_arg = node.args[1] if len(node.args) > 1 else kwarg(node, "target")
            if tgt_arg is None or not _derived(tgt_arg, names, batch):
                continue
            reduction = kwarg(node, "reduction") or kwarg(ctor, "reduction")
            ignore = kwarg(node, "ignore_index") or kwarg(ctor, "ignore_index")
            if (ignore is not None and _minus_100(ignore, consts) is not True) or (
                    isinstance(reduction, ast.Constant) and reduction.value == "none") or (
                    reduction is not None and not isinstance(reduction, ast.Constant)):
                continue
            yield ctx.finding(
                self, node,
                f"`{ast.unparse(tgt_arg)}` comes from sequences that `{fn.name}` pads with {how}, and this "
                f"cross-entropy ignores only -100 (ignore_index={ast.unparse(ignore) if ignore is not None else '-100, the default'}): every "
                f"pad position is a training target, so the model learns to predict padding and the loss is "
                f"averaged over pad tokens. Pass `ignore_index=` the pad id, or pad the targets with -100",
                evidence=[ctx.evidence(pad, "the targets are padded here")])
