"""Where the loss runs when a model is compiled (``compile.loss_inside``), read from code.

Two shapes put the loss inside the compiled region without compiling a loss function:

- **A model that computes its own loss from the targets it is called with.** nanoGPT's
  ``GPT.forward(idx, targets)`` ends with ``F.cross_entropy(logits..., targets...)`` and
  train.py runs ``model = torch.compile(model)`` then ``logits, loss = model(X, Y)``
  (karpathy/nanoGPT 3adf61e train.py:208,300, model.py:187): Dynamo traces ``forward``
  whole, the loss included. A transformers model called with ``labels=`` is the same case:
  its ``forward`` calls ``self.loss_function(logits, labels, ...)`` (transformers 5.24
  ``LlamaForCausalLM.forward``).
- **The transformers Trainer with ``torch_compile``** (see :func:`trainer_loss_inside`).

Both are plan facts with the line that says so; everything else stays unknown.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.module_params import local_file

from preflight.analysis.syntax import dotted_name
from preflight.sources import read_text_limited

#: keyword names a model takes its targets by (nanoGPT ``targets``, transformers ``labels``)
TARGET_KWARGS = ("targets", "target", "labels")
#: the Trainers whose ``compute_loss`` runs ``outputs = model(**inputs)`` with the labels in
#: ``inputs`` (transformers 5.24 trainer.py ``Trainer.compute_loss``; ``Seq2SeqTrainer``
#: keeps it; TRL's ``SFTTrainer.compute_loss`` calls ``super().compute_loss``)
MODEL_LOSS_TRAINERS = ("Trainer", "Seq2SeqTrainer", "SFTTrainer")


def _is_cross_entropy(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in ("cross_entropy", "CrossEntropyLoss")


def forward_loss_line(tree: ast.AST, class_name: str) -> Optional[int]:
    """Line of a cross-entropy call inside ``class_name.forward`` in ``tree`` (top-level classes)."""
    for node in getattr(tree, "body", []):
        if not (isinstance(node, ast.ClassDef) and node.name == class_name):
            continue
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "forward":
                for sub in ast.walk(item):
                    if isinstance(sub, ast.Call) and _is_cross_entropy(sub):
                        return sub.lineno
    return None


def called_with_targets(calls: list[Any], name: str) -> Optional[Any]:
    """The first call of ``name`` itself with targets: ``model(X, Y)`` (a second positional
    argument) or ``model(x, targets=y)`` / ``model(ids, labels=labels)``."""
    for site in calls:
        if site.name != name or not isinstance(site.call.func, ast.Name):
            continue
        if len(site.call.args) >= 2 or any(kw.arg in TARGET_KWARGS for kw in site.call.keywords):
            return site
    return None


def model_class_loss(idx: Any, calls: list[Any], model: str, root: Optional[Path]) -> Optional[tuple[str, str]]:
    """``(what, where)`` when ``model`` is built from a class whose ``forward`` computes a
    cross-entropy: a class of the script itself or of a local module under ``root``
    (``model = GPT(conf)`` / ``GPT.from_pretrained(...)`` with ``from model import GPT``), or a
    transformers model (its ``forward`` computes the loss from ``labels``). None otherwise."""
    for site in calls:
        if site.target != model:
            continue
        call = site.call
        while isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Call):
            call = call.func.value   # GPT(conf).to(device), from_pretrained(...).cuda()
        name = dotted_name(call.func)
        if name is None:
            continue
        written = name[: -len(".from_pretrained")] if name.endswith(".from_pretrained") else name
        qualified = idx.qualify(written) or written
        last = qualified.rsplit(".", 1)[-1]
        if qualified.startswith("transformers.") and ("For" in last or last.endswith("LMHeadModel")):
            return (f"{name}(...): a transformers model, whose forward computes the loss from labels",
                    f"line {site.line}")
        if written in idx.classes:
            line = forward_loss_line(idx.script.tree, written)
            if line is not None:
                return f"{written}.forward computes a cross-entropy", f"line {line}"
            continue
        if root is None or "." not in qualified or qualified.startswith(("torch.", "transformers.")):
            continue
        path = local_file(root, qualified)
        if path is None:
            continue
        try:
            tree = ast.parse(read_text_limited(path, errors="replace"))
        except (OSError, SyntaxError, ValueError):
            continue
        line = forward_loss_line(tree, qualified.rsplit(".", 1)[-1])
        if line is not None:
            try:
                shown = path.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                shown = path.name
            return f"{written}.forward computes a cross-entropy", f"{shown}:{line}"
    return None


def trainer_loss_inside(owner: Any, values: dict[str, Any]) -> Optional[str]:
    """Why the Trainer's compiled model computes the loss itself, or None when it may not.

    ``Trainer.compute_loss`` pops the labels (the model then returns logits only) when a
    ``label_smoother`` (``label_smoothing_factor`` != 0) or a ``compute_loss_func`` is set,
    and TRL's ``SFTTrainer`` sets a ``compute_loss_func`` for ``loss_type="dft"`` and patches
    the forward for ``"chunked_nll"``; otherwise ``outputs = model(**inputs)`` runs with the
    labels and the model's ``forward`` computes the loss, inside the module accelerate
    compiled (``Accelerator.prepare_model``: ``torch.compile(model, ...)`` for the
    ``TorchDynamoPlugin`` the Trainer builds from ``torch_compile``)."""
    if owner.last not in MODEL_LOSS_TRAINERS or owner.kwarg("compute_loss_func") is not None:
        return None
    smoothing = values.get("label_smoothing_factor")
    if smoothing is not None:
        try:
            if float(smoothing) != 0.0:
                return None
        except (TypeError, ValueError):
            return None   # a value not read: the label smoother may be on
    loss_type = values.get("loss_type")
    if loss_type is not None and loss_type != "nll":
        return None
    return (f"{owner.last}.compute_loss runs model(**inputs) with the labels; the model computes its loss "
            "inside the module torch_compile compiled")
