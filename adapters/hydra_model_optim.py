"""The optimizer of a Hydra job whose LightningModule the composed config names: ``model: {_target_:
pkg.Module, ...}`` built by ``hydra.utils.instantiate(cfg.model, ...)`` in the script
(SalesforceAIResearch/uni2ts ``cli/train.py:129`` ``instantiate(cfg.model, _convert_="all")``,
``cli/conf/pretrain/model/moirai_small.yaml:1`` ``_target_: uni2ts.model.moirai.MoiraiPretrain``,
``src/uni2ts/model/moirai/pretrain.py:337`` ``torch.optim.AdamW(...)`` in ``configure_optimizers``).

Only when the composed config has no ``optimizer`` node of its own: the class is read from the project's
files (never imported) and the one optimizer class its ``configure_optimizers`` (own or inherited)
constructs is ``optimizer.name`` (medium): see :mod:`preflight.adapters.target_class`."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

from preflight.adapters.target_class import configure_optimizers, find_class, target_bases

from preflight.analysis.syntax import dotted_name
from preflight.plan import Source

if TYPE_CHECKING:
    from preflight.adapters.hydra import _Facts


def _instantiates_model(tree: ast.AST) -> bool:
    """``instantiate(cfg.model, ...)`` (``hydra.utils.instantiate``) in the script."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and (dotted_name(node.func) or "").rsplit(".", 1)[-1] \
                == "instantiate" and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "model":
            return True
    return False


def _has_optimizer_node(node: object) -> bool:
    if isinstance(node, dict):
        return any(k == "optimizer" or _has_optimizer_node(v) for k, v in node.items())
    if isinstance(node, list):
        return any(_has_optimizer_node(v) for v in node)
    return False


def model_optimizer(facts: _Facts) -> None:
    app = facts.composed.app
    cfg = facts.cfg
    model = cfg.get("model") if isinstance(cfg, dict) else None
    target = model.get("_target_") if isinstance(model, dict) else None
    if app.script is None or app.script.tree is None or app.script.source.path is None \
            or not isinstance(target, str) or _has_optimizer_node(cfg) or not _instantiates_model(app.script.tree):
        return
    root = Path(str(facts.project.root)) if facts.project.root else None
    bases = target_bases(root, [Path(str(app.script.source.path)).resolve().parent])
    found = find_class(target, bases)
    opt = configure_optimizers(found, bases) if found is not None else None
    if found is None or opt is None:
        return
    try:
        shown = str(opt.path.resolve().relative_to(root.resolve())) if root is not None else opt.path.name
    except ValueError:
        shown = opt.path.name
    facts.adapter.add_checked(facts.plan, "optimizer.name", opt.name, Source(
        "code", shown, opt.line, "model._target_",
        f"{opt.name}(...) in {opt.owner}.configure_optimizers() ({shown}:{opt.line}) of the LightningModule "
        f"{target} that instantiate(cfg.model) builds ({facts.where(('model', '_target_'))})"), "medium")
