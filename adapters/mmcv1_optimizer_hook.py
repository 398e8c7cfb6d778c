"""MMCV 1.x: an ``optimizer_config`` dict that names no accumulating hook steps the optimizer every iteration.

MMCV 1.x's runner turns the config's ``optimizer_config`` into its optimizer hook
(open-mmlab/mmcv 1.x ``mmcv/runner/base_runner.py`` ``register_optimizer_hook``:
``optimizer_config.setdefault('type', 'OptimizerHook')`` then ``build_from_cfg(optimizer_config, HOOKS)``),
and ``OptimizerHook.after_train_iter`` zeroes the gradients, runs ``loss.backward()`` and
``optimizer.step()`` once per iteration (``mmcv/runner/hooks/optimizer.py``); ``Fp16OptimizerHook`` does the
same under a loss scale. Only ``GradientCumulativeOptimizerHook(cumulative_iters=N)`` (or a project's
``DistOptimizerHook(update_interval=N)``, Swin's) steps every N iterations, and
:mod:`preflight.adapters.mmengine_config` reads those. Real configs of the default shape:

* open-mmlab/mmsegmentation 0.x ``configs/_base_/schedules/schedule_160k_adamw.py``: ``optimizer_config = dict()``,
  copied by NVlabs/SegFormer @ 08c5998 ``local_configs/_base_/schedules/schedule_160k_adamw.py:3`` (which vendors
  mmseg 0.x, ``mmseg/apis/train.py:90`` ``runner.register_training_hooks(cfg.lr_config, cfg.optimizer_config, ...)``);
* open-mmlab/mmdetection 2.x ``configs/_base_/schedules/schedule_1x.py``: ``optimizer_config = dict(grad_clip=None)``;
* cxxgtxy/QARepVGG ``segmentation/configs/_base_/schedules/schedule_160k_lr.py`` and jfzhuang/IFR
  ``IFR/configs/_base_/schedules/schedule_sup.py``: ``optimizer_config = dict()`` over an ``IterBasedRunner``.

Claimed (``batch.grad_accum`` 1, medium) only when the config and all its bases were read, the dict's ``type``
is absent, ``OptimizerHook`` or ``Fp16OptimizerHook``, and every Python file of the project was read and shows
MMCV's runner registering the hook (``register_training_hooks``/``register_optimizer_hook`` called, or an
OpenMMLab 1.x train API imported that the project does not define itself: ``train_detector``,
``train_segmentor``, ``train_model``) while none
overrides ``register_optimizer_hook`` (a project runner may default to its own hook: a mean-teacher
``MeanTeacherOptimizerHook``), names ``cumulative_iters``/``update_interval`` or an accumulation setting (``accum_steps``,
``grad_accum``...), or runs
``backward()`` inside a model's ``train_step`` (a GAN-style step that updates by itself). Nothing is imported
or run.
"""

from __future__ import annotations

import re
from typing import Any, Optional

_STEPPING = (None, "OptimizerHook", "Fp16OptimizerHook")
_REGISTERS = re.compile(r"\bregister_(?:training_hooks|optimizer_hook)\s*\(")
_TRAIN_API = re.compile(r"\bimport\b[^\n]*\btrain_(?:detector|segmentor|model)\b")
_DEFINES_API = re.compile(r"\bdef\s+train_(?:detector|segmentor|model)\b")
# cocoEval.accumulate() (mmdet's COCO metric) is no gradient accumulation: only its settings' spellings count
_OTHERWISE = re.compile(r"def\s+register_optimizer_hook\b|cumulative_iters|update_interval|accumulative_counts|"
                        r"accum\w*_(?:steps|iters?|counts?|interval)\b|grad\w*_accum", re.IGNORECASE)


def _steps_in_train_step(text: str) -> bool:
    """A ``def train_step`` in a file that also calls ``.backward(`` (read as the step updating itself)."""
    return "def train_step" in text and ".backward(" in text


def every_iteration(values: dict, project: Any, unknown: Any) -> Optional[str]:
    """Why the MMCV 1.x optimizer hook steps every iteration (a detail), or None when that is not shown."""
    if "<unread base>" in values or "optim_wrapper" in values:
        return None
    hook = values.get("optimizer_config")
    if not isinstance(hook, dict) or not isinstance(values.get("data"), dict) \
            or not isinstance(values.get("optimizer"), dict):
        return None
    kind = hook.get("type")
    if kind is unknown or kind not in _STEPPING or any(k in hook for k in ("cumulative_iters", "update_interval")):
        return None
    from preflight.adapters.config_key_families import _MAX_BYTES as LIMIT
    from preflight.adapters.config_key_families import _MAX_FILES as FILES
    from preflight.adapters.config_key_families import code_text

    code = code_text(project)
    if len(code) >= FILES or sum(len(t) for _, t in code) >= LIMIT:
        return None  # not every file read: what the project's runner does is not shown
    # the train API of an installed OpenMMLab 1.x package registers it; a vendored copy must show it
    installed = not any(_DEFINES_API.search(t) for _, t in code) and any(_TRAIN_API.search(t) for _, t in code)
    if not installed and not any(_REGISTERS.search(t) for _, t in code):
        return None
    if any(_OTHERWISE.search(t) or _steps_in_train_step(t) for _, t in code):
        return None
    shown = kind or "OptimizerHook (MMCV's default type)"
    return (f"optimizer_config is {shown}: MMCV 1.x's optimizer hook runs backward and optimizer.step() every "
            f"iteration (no cumulative_iters), and no Python file of the project ({len(code)} read) accumulates")
