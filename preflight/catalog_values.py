"""Sizes a script reads from a well-known dataset, environment or tokenizer, from the data catalog
``preflight.architectures.datasets`` (read, never run; no library imported).

The shapes read (the object bound once, or by the one ``if`` arm the resolver can decide, to the named
constructor; the name resolved like any other value):

- ``env.observation_space.shape[0]``, ``env.action_space.shape[0]``, ``env.action_space.n`` after
  ``env = gym.make("HalfCheetah-v3")`` (``gymnasium.make``; D4RL's ``"hopper-medium-v2"``): sfujim/TD3
  ``main.py:66,74-75``, corl-team/CORL ``algorithms/offline/dt.py:454-455``;
- ``dataset.num_features`` / ``num_node_features`` / ``num_classes`` after ``Planetoid(root, "Cora")``
  (torch_geometric.datasets), and ``data.num_features`` of its graph ``data = dataset[0]``;
- ``dataset.num_tasks`` (``num_classes`` for node sets) after ``PygGraphPropPredDataset(name=...)`` and
  the other OGB loaders: snap-stanford/ogb ``examples/graphproppred/mol/main_pyg.py:115``;
- ``len(train_set.classes)`` after a torchvision ``CIFAR10(...)`` / ``CIFAR100`` / ``MNIST`` ...;
- ``tokenizer.vocab_size`` and ``len(tokenizer)`` after ``AutoTokenizer.from_pretrained("gpt2")`` (and the
  model-specific tokenizer classes), ``enc.n_vocab`` after ``tiktoken.get_encoding("gpt2")``.

Refused (the value stays unknown): an id or name not resolved to a string, or not in the catalog; an env
passed through a wrapper function before the read (a wrapper may change the spaces); ``len(tokenizer)``
when the script adds tokens (``tokenizer.add_special_tokens(...)`` / ``add_tokens``). A value from here is
capped at ``medium``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.syntax import dotted_name
from preflight.script_index_core import Resolved

if TYPE_CHECKING:
    from preflight.script_index import ScriptIndex

_GYM_MAKE = ("gym.make", "gymnasium.make")
_OGB = ("ogb.graphproppred.PygGraphPropPredDataset", "ogb.graphproppred.DglGraphPropPredDataset",
        "ogb.graphproppred.GraphPropPredDataset", "ogb.nodeproppred.PygNodePropPredDataset",
        "ogb.nodeproppred.DglNodePropPredDataset", "ogb.nodeproppred.NodePropPredDataset")
_PLANETOID = "torch_geometric.datasets.Planetoid"
_TOKENIZER_CLASSES = ("AutoTokenizer", "GPT2Tokenizer", "GPT2TokenizerFast", "BertTokenizer", "BertTokenizerFast",
                      "RobertaTokenizer", "RobertaTokenizerFast", "LlamaTokenizer", "LlamaTokenizerFast",
                      "PreTrainedTokenizerFast")


def _qualified(index: ScriptIndex, func: ast.AST) -> Optional[str]:
    """``gym.make`` with ``import gymnasium as gym`` -> ``gymnasium.make``: the dotted callee through the imports."""
    name = dotted_name(func)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    imported = index.imports.get(head)
    if imported is None:
        return None
    return f"{imported}.{rest}" if rest else imported


def _constructor(index: ScriptIndex, node: ast.AST) -> Optional[ast.expr]:
    """The call (or ``x[0]``) ``node`` stands for: itself, or the one value a name is bound to."""
    if isinstance(node, (ast.Call, ast.Subscript)):
        return node
    if not isinstance(node, ast.Name):
        return None
    bound = index.assigns.get(node.id, [])
    if len(bound) == 1 and isinstance(bound[0], (ast.Call, ast.Subscript)):
        return bound[0]
    if len(bound) > 1 and None not in bound:
        from preflight.script_untaken import untaken_rebinding

        taken = untaken_rebinding(index, node.id)
        return taken if isinstance(taken, (ast.Call, ast.Subscript)) else None
    return None


def _argument(call: ast.Call, position: int, keyword: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[position] if len(call.args) > position else None


def _string(index: ScriptIndex, node: Optional[ast.expr], depth: int) -> Optional[Resolved]:
    got = index.resolve(node, depth + 1) if node is not None else None
    return got if got is not None and isinstance(got.value, str) else None


def _found(value: int, expr: ast.AST, name: Resolved, what: str, source: str) -> Resolved:
    detail = f"{what} of {name.value!r} = {value} (catalog: {source})"
    if name.kind == "cli":
        return Resolved(value, "cli", getattr(expr, "lineno", None), name.key, detail, cap="medium")
    return Resolved(value, "code", getattr(expr, "lineno", None), None, detail, cap="medium")


def _env_value(index: ScriptIndex, expr: ast.expr, depth: int) -> Optional[Resolved]:
    """``E.observation_space.shape[0]`` / ``E.action_space.shape[0]`` / ``E.action_space.n``."""
    from preflight.architectures.datasets import env_spaces

    if isinstance(expr, ast.Subscript):
        if not (isinstance(expr.slice, ast.Constant) and expr.slice.value == 0
                and isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape"):
            return None
        space = expr.value.value
        discrete = False
    elif isinstance(expr, ast.Attribute) and expr.attr == "n":
        space = expr.value
        discrete = True
    else:
        return None
    if not (isinstance(space, ast.Attribute) and space.attr in ("observation_space", "action_space")):
        return None
    call = _constructor(index, space.value)
    if not isinstance(call, ast.Call) or _qualified(index, call.func) not in _GYM_MAKE:
        return None
    env_id = _string(index, _argument(call, 0, "id"), depth)
    spaces = env_spaces(env_id.value) if env_id is not None else None
    if env_id is None or spaces is None:
        return None
    if space.attr == "observation_space":
        return None if discrete else _found(spaces.obs, expr, env_id, "observation size", spaces.source)
    if discrete != spaces.discrete:
        return None
    return _found(spaces.act, expr, env_id, "action count" if discrete else "action size", spaces.source)


def _dataset_value(index: ScriptIndex, expr: ast.Attribute, depth: int) -> Optional[Resolved]:
    from preflight.architectures.datasets import OGB, PLANETOID

    call = _constructor(index, expr.value)
    graph = False
    if isinstance(call, ast.Subscript) and isinstance(call.slice, ast.Constant) and call.slice.value == 0:
        # ``data = dataset[0]``: the one graph of a Planetoid set, whose ``num_features`` is the set's
        call, graph = _constructor(index, call.value), True
    callee = _qualified(index, call.func) if isinstance(call, ast.Call) else None
    if not isinstance(call, ast.Call) or callee is None or (graph and callee != _PLANETOID):
        return None
    if callee == _PLANETOID:
        name = _string(index, _argument(call, 1, "name"), depth)
        data = PLANETOID.get(name.value.lower()) if name is not None else None
        attr = {"num_features": "num_features", "num_node_features": "num_features",
                "num_classes": None if graph else "num_classes"}.get(expr.attr)
    elif callee in _OGB:
        name = _string(index, _argument(call, 0, "name"), depth)
        data = OGB.get(name.value) if name is not None else None
        attr = {"num_tasks": "num_tasks", "num_classes": "num_classes"}.get(expr.attr)
    else:
        return None
    if name is None or data is None or attr is None:
        return None
    value = getattr(data, attr)
    return _found(value, expr, name, attr, data.source) if isinstance(value, int) else None


def _tokenizer_value(index: ScriptIndex, expr: ast.expr, target: ast.AST, length: bool,
                     depth: int) -> Optional[Resolved]:
    from preflight.architectures.datasets import TIKTOKEN, TOKENIZERS

    call = _constructor(index, target)
    callee = _qualified(index, call.func) if isinstance(call, ast.Call) else None
    if not isinstance(call, ast.Call) or callee is None:
        return None
    parts = callee.split(".")
    if parts[:1] == ["tiktoken"] and parts[-1] == "get_encoding":
        name = _string(index, _argument(call, 0, "encoding_name"), depth)
        vocab = TIKTOKEN.get(name.value) if name is not None else None
        tiktoken = True
    elif parts[0] == "transformers" and len(parts) >= 3 and parts[-2] in _TOKENIZER_CLASSES \
            and parts[-1] == "from_pretrained":
        name = _string(index, _argument(call, 0, "pretrained_model_name_or_path"), depth)
        vocab = TOKENIZERS.get(name.value.lower()) if name is not None else None
        tiktoken = False
    else:
        return None
    if name is None or vocab is None:
        return None
    if length:
        if tiktoken or _adds_tokens(index, target):
            return None
        return _found(vocab.length, expr, name, "len(tokenizer)", vocab.source)
    attr = expr.attr if isinstance(expr, ast.Attribute) else ""
    if attr != ("n_vocab" if tiktoken else "vocab_size"):
        return None
    return _found(vocab.vocab_size, expr, name, attr, vocab.source)


def _adds_tokens(index: ScriptIndex, target: ast.AST) -> bool:
    """The script grows the tokenizer (``tok.add_special_tokens(...)``, ``tok.add_tokens(...)``) anywhere."""
    if not isinstance(target, ast.Name):
        return True
    tree = index.script.tree
    return tree is None or any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("add_")
        and isinstance(n.func.value, ast.Name) and n.func.value.id == target.id for n in ast.walk(tree))


def _classes_value(index: ScriptIndex, expr: ast.Call, depth: int) -> Optional[Resolved]:
    """``len(train_set.classes)`` after a torchvision dataset constructor."""
    from preflight.architectures.datasets import TORCHVISION_CLASSES

    arg = expr.args[0]
    if not (isinstance(arg, ast.Attribute) and arg.attr == "classes"):
        return None
    call = _constructor(index, arg.value)
    callee = _qualified(index, call.func) if isinstance(call, ast.Call) else None
    if callee is None or not callee.startswith("torchvision.datasets."):
        return None
    got = TORCHVISION_CLASSES.get(callee.rsplit(".", 1)[1])
    if got is None:
        return None
    named = Resolved(callee.rsplit(".", 1)[1], "code")
    return _found(got[0], expr, named, "len(.classes)", got[1])


def catalog_value(index: ScriptIndex, expr: ast.AST, depth: int) -> Optional[Resolved]:
    """The catalog's value for ``expr`` when it reads a size of a named dataset, env or tokenizer, else None."""
    if isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Attribute) and expr.attr == "n"):
        return _env_value(index, expr, depth)
    if isinstance(expr, ast.Attribute):
        if expr.attr in ("vocab_size", "n_vocab"):
            return _tokenizer_value(index, expr, expr.value, False, depth)
        if expr.attr in ("num_features", "num_node_features", "num_classes", "num_tasks"):
            return _dataset_value(index, expr, depth)
        return None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" \
            and len(expr.args) == 1 and not expr.keywords and "len" not in index.assigns:
        if isinstance(expr.args[0], ast.Attribute):
            return _classes_value(index, expr, depth)
        got = _tokenizer_value(index, expr, expr.args[0], True, depth)
        if got is None and isinstance(expr.args[0], ast.Name):
            # the characters of a text file the job holds
            from preflight.catalog_chars import char_vocab

            got = char_vocab(index, expr, depth)
        return got
    return None


def catalog_constants(index: ScriptIndex, tree: ast.Module) -> ast.Module:
    """``tree`` with its top-level names bound once to a cataloged size written as that constant, for the
    parameter counter that reads module constants as literals (karpathy/ng-video-lecture ``gpt.py:27,143``:
    ``vocab_size = len(chars)`` read by ``nn.Embedding(vocab_size, n_embd)`` in a class); ``tree`` itself when
    none is. The tree handed in is not changed."""
    body: list[ast.stmt] = []
    changed = False
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, (ast.Call, ast.Attribute, ast.Subscript)) \
                and len(index.assigns.get(stmt.targets[0].id, [])) == 1:
            got = catalog_value(index, stmt.value, 0)
            if got is not None and isinstance(got.value, int):
                value = ast.copy_location(ast.Constant(got.value), stmt.value)
                stmt = ast.copy_location(ast.Assign(targets=stmt.targets, value=value, lineno=stmt.lineno), stmt)
                changed = True
        body.append(stmt)
    return ast.Module(body=body, type_ignores=tree.type_ignores) if changed else tree
