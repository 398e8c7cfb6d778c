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
from typing import TYPE_CHECKING, Optional

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


def _fitted_key(tree: ast.AST) -> Optional[str]:
    """``K`` of ``m = instantiate(cfg.K, ...)`` where ``m`` is what the script hands to ``trainer.fit(m, ...)``
    (donglinkang2021/MinVQVAE ``train.py:13-18`` ``model = hydra.utils.instantiate(cfg.task)`` then
    ``trainer.fit(model, dm)``); None unless one such key."""
    built: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            call = node.value
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and call.args \
                    and (dotted_name(call.func) or "").rsplit(".", 1)[-1] == "instantiate" \
                    and isinstance(call.args[0], ast.Attribute) and isinstance(call.args[0].value, ast.Name):
                built.setdefault(targets[0].id, set()).add(call.args[0].attr)
    fitted: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit":
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "model"), None)
            if isinstance(arg, ast.Name):
                fitted |= built.get(arg.id, {"?"})
    return next(iter(fitted)) if len(fitted) == 1 and "?" not in fitted else None


def _has_optimizer_node(node: object) -> bool:
    if isinstance(node, dict):
        return any(k == "optimizer" or _has_optimizer_node(v) for k, v in node.items())
    if isinstance(node, list):
        return any(_has_optimizer_node(v) for v in node)
    return False


def model_optimizer(facts: _Facts) -> None:
    app = facts.composed.app
    cfg = facts.cfg
    if app.script is None or app.script.tree is None or app.script.source.path is None:
        return
    key = "model" if _instantiates_model(app.script.tree) else _fitted_key(app.script.tree)
    model = cfg.get(key) if isinstance(cfg, dict) and key is not None else None
    target = model.get("_target_") if isinstance(model, dict) else None
    if key is None or not isinstance(target, str) or _has_optimizer_node(cfg):
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
        "code", shown, opt.line, f"{key}._target_",
        f"{opt.name}(...) in {opt.owner}.configure_optimizers() ({shown}:{opt.line}) of the LightningModule "
        f"{target} that instantiate(cfg.{key}) builds ({facts.where((key, '_target_'))})"), "medium")
