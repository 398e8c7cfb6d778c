"""trlx's entry point: ``trlx.train(..., config=C)`` trains the model its configuration names.

The library builds everything from the ``TRLConfig`` it is given (CarperAI/trlx @ 3340c2f
``trlx/trlx.py:96-110``: ``trainer = get_trainer(config.train.trainer)(config=config, ...)``, the
trainer picked by its name from a registry of strings; ``trlx/trainer/accelerate_base_trainer.py:
157`` loads ``config.model.model_path`` with ``from_pretrained`` and wraps it with PEFT only when
``config.model.peft_config`` is set; ``trlx/trainer/accelerate_ppo_trainer.py:231`` builds the
training loader with ``config.train.batch_size`` per process, forwarded in chunks of
``config.train.minibatch_size`` when that is set; ``trlx/utils/__init__.py:93-103`` maps
``config.optimizer.name`` ``"adamw"`` to ``torch.optim.AdamW``). Since the trainer is picked by a
string, the code that reads the keys is never reached by following calls: this module states the
library's reading of the configuration object instead.

The configuration is the value tree of :mod:`preflight.adapters.config_object` (the script's
``TRLConfig(train=TrainConfig(batch_size=4), model=ModelConfig(model_path=...), ...)`` literal, with
the assignments the job's branches take), reached from the ``config=`` keyword directly or through
one ``config = TRLConfig.update(default_config, hparams)`` (examples/hh/ppo_hh.py:209: the launch
line's JSON overrides; none on a launch line without arguments). Every fact is medium: the keys are
the library's, the values the script's.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

# trlx.utils.OptimizerName values that are torch optimizers (the 8-bit ones are bitsandbytes')
_OPTIMIZERS = {"adam": "Adam", "adamw": "AdamW", "sgd": "SGD"}


def _is_entry(call: ast.Call) -> bool:
    return dotted_name(call.func) == "trlx.train"


def _tree_path(node: ast.AST, reader: Any) -> Optional[tuple]:
    bare = reader.bare
    reader.bare = True  # a bare name means its object here
    try:
        return reader.chain(node)
    finally:
        reader.bare = bare


def _config_path(value: ast.AST, nodes: list[ast.AST], reader: Any) -> Optional[tuple]:
    """The tree path of the configuration given as ``config=``: the object itself, or the one a
    single local binding ``config = SomeConfig.update(base, ...)`` starts from."""
    path = _tree_path(value, reader)
    if path is not None or not isinstance(value, ast.Name):
        return path
    binds = [n for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr))
             and any(isinstance(t, ast.Name) and t.id == value.id
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(binds) != 1 or not isinstance(binds[0], ast.Assign):
        return None
    call = binds[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "update"
            and call.args):
        return None
    return _tree_path(call.args[0], reader)


def _env_name(tree: ast.Module, var: str) -> Optional[str]:
    """The environment variable a module-level name is read from when bound once, at the top level,
    to ``os.environ.get("X")`` or ``os.getenv("X")`` without a default (None when X is unset)."""
    binds = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             and any(isinstance(t, ast.Name) and t.id == var
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(binds) != 1 or binds[0] not in tree.body or not isinstance(binds[0], ast.Assign):
        return None
    value = binds[0].value
    if isinstance(value, ast.Call) and dotted_name(value.func) in ("os.environ.get", "os.getenv") \
            and len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Constant) \
            and isinstance(value.args[0].value, str):
        return value.args[0].value
    return None


def _off_when_unset(fn: Any, node: ast.AST, launch_text: str) -> Optional[str]:
    """The environment variable whose absence keeps ``node`` from running: ``node`` lies in the body
    of an ``if``/``elif`` testing ``v == "literal"``, ``v`` bound to an unset-able environment read
    (trlx examples/hh/ppo_hh.py:69-106 ``config_name = os.environ.get("CONFIG_NAME")`` then ``if
    config_name == "125M": default_config.model.model_path = ...``), and the launch sets no such
    variable."""
    if not isinstance(fn, ast.Module):
        return None
    parents = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and any(child is s for s in parent.body):
            test = parent.test
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
                sides = [test.left, test.comparators[0]]
                names = [x for x in sides if isinstance(x, ast.Name)]
                consts = [x for x in sides if isinstance(x, ast.Constant) and x.value is not None]
                if len(names) == 1 and len(consts) == 1:
                    env = _env_name(fn, names[0].id)
                    if env is not None and env not in launch_text:
                        return env
        child, parent = parent, parents.get(id(parent))
    return None


def _launch_text(project: Any) -> str:
    """The launch line and the launch script it came from: where an environment variable is set."""
    text = " ".join(getattr(project, "argv", []) or [])
    at = getattr(project, "launch_at", None)
    root = getattr(project, "root", None)
    if at and root is not None:
        from pathlib import Path

        from preflight.sources import read_text_limited

        try:
            text += "\n" + (read_text_limited(Path(str(root)) / at[0]) or "")
        except (OSError, ValueError):
            return text
    return text


Got = tuple[str, Any, Any, str, str, str]  # field, value, Leaf, key, detail, confidence


def trlx_train(call: ast.Call, nodes: list[ast.AST], reader: Any, shown: str,
               dropped: dict[tuple, tuple[Any, list[tuple[Any, ast.AST]]]], project: Any) -> list[Got]:
    """``(field, value, leaf, key, detail, confidence)`` for each plan fact the configuration handed to
    ``trlx.train`` gives; empty when the call is not trlx's or its configuration is not known. A key
    the script changes only in branches on an environment variable the launch does not set keeps the
    value it was built with, at low confidence."""
    if not _is_entry(call):
        return []
    given = next((k.value for k in call.keywords if k.arg == "config"), None)
    if given is None:
        return []
    root = _config_path(given, nodes, reader)
    if root is None or not isinstance(reader.known(root), dict):
        return []
    launch: list[str] = []

    def value(*keys: str) -> tuple[Any, Any, str]:
        """The key's value, its Leaf, and the confidence ("" when not known)."""
        path = root + keys
        leaf = reader.known(path)
        got = lookup_leaf(reader, path)
        if got is not None:
            return leaf, got, "medium"
        if leaf is not None:
            return leaf, None, ""  # a section (``peft_config={"r": 8}``): set, not one value
        if path in dropped:
            before, sites = dropped[path]
            if not launch:
                launch.append(_launch_text(project))
            envs = {_off_when_unset(fn, node, launch[0]) for fn, node in sites}
            if None not in envs:
                return before.value, before, "low"
        return None, None, ""

    where = f"given to trlx.train(config=...) ({shown}:{call.lineno})"
    base = ".".join(root)
    out: list[Got] = []
    ref, leaf, conf = value("model", "model_path")
    first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "model_path"), None)
    if first is not None:  # ``trlx.train("gpt2", config=c)``: trlx/trlx.py:89-90 sets config.model.model_path
        from preflight.adapters.config_object import Leaf

        if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value:
            ref, conf = first.value, "medium"
            leaf = Leaf(ref, shown, call.lineno, "trlx.train's model_path argument")
        else:
            ref, conf, leaf = None, "", None
    if isinstance(ref, str) and ref:
        unset = "" if conf != "low" else ": the branches that change it test an environment variable the launch does not set"
        out.append(("model.ref", ref, leaf, f"{base}.model.model_path",
                    f"{'the model path' if first is not None else base + '.model.model_path'} {where}: the trainer "
                    f"loads it with from_pretrained{unset}", conf))
        peft, pleaf, _ = value("model", "peft_config")
        if peft is None and (pleaf is not None or (*root, "model", "peft_config") not in dropped):
            # unset: the library's default None, or None given
            out.append(("peft.method", "none", pleaf or leaf, f"{base}.model.peft_config",
                        f"{base}.model.peft_config is None {where}: the model is trained without PEFT",
                        "medium" if pleaf is not None else conf))
    batch, bleaf, bconf = value("train", "batch_size")
    minibatch, mleaf, _ = value("train", "minibatch_size")
    if isinstance(batch, int) and not isinstance(batch, bool) and batch > 0 and minibatch is None \
            and (mleaf is not None or (*root, "train", "minibatch_size") not in dropped):
        out.append(("batch.micro", batch, bleaf, f"{base}.train.batch_size",
                    f"{base}.train.batch_size {where}: the batch of each process's loader", bconf))
    name, nleaf, nconf = value("optimizer", "name")
    if isinstance(name, str) and name.lower() in _OPTIMIZERS:
        out.append(("optimizer.name", _OPTIMIZERS[name.lower()], nleaf, f"{base}.optimizer.name",
                    f"{base}.optimizer.name {name!r} {where}: torch.optim.{_OPTIMIZERS[name.lower()]}", nconf))
    return out


def lookup_leaf(reader: Any, path: tuple) -> Any:
    """The Leaf at ``path`` of the reader's value tree (None when unknown or a section)."""
    from preflight.adapters.config_object import Leaf, lookup

    got = lookup(reader.combined, path)
    return got if isinstance(got, Leaf) else None
