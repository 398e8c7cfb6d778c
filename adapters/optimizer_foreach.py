"""Whether the job's optimizer steps over the whole parameter list at once (plan ``optimizer.foreach``).

The estimator charges the optimizer step's temporaries by the path the step takes
(``preflight.estimate.terms_optim.optimizer_temporaries``): torch's multi-tensor (foreach) path holds
fp32 lists the size of every trained parameter (``sqrt(exp_avg_sq)``), a per-parameter loop only two
tensors the size of the largest parameter, a fused in-place kernel none. What each implementation does,
read at a pinned release:

- ``torch.optim.*``: ``foreach=None`` and ``fused=None`` (the defaults) take the foreach path when every
  parameter is a CUDA tensor (pytorch/pytorch @ 002d2f0b ``torch/optim/optimizer.py``
  ``_default_to_fused_or_foreach``: ``foreach = not fused and all(p.device.type in
  foreach_supported_devices ...)``; its ``_fused_doc``: "If the user specifies False for foreach but nothing
  for fused ... we will run the for-loop implementation", "True for fused but nothing for foreach, we will
  run the fused implementation"). The default also depends on the release (for-loop before 2.0), which the
  estimator already follows; so a call that names neither keyword writes nothing here.
- transformers' ``Adafactor`` and ``AdamW`` (v4.46.0 ``transformers/optimization.py:831-832`` and
  ``:621-622``: ``for group in self.param_groups: for p in group["params"]:``, each parameter updated on
  its own, ``update = (grad**2) + eps`` at ``:877`` the size of that parameter); the Trainer's
  ``optim="adafactor"`` / ``"adamw_hf"`` build those classes (``transformers/trainer.py:1262-1268``) and
  ``"adamw_torch_fused"`` passes ``fused=True`` (``:1275-1276``).
- bitsandbytes' optimizers (``bitsandbytes/optim/optimizer.py`` ``Optimizer8bit.step``: ``for pindex, p in
  enumerate(group["params"]): ... self.update_step(group, p, gindex, pindex)``, in-place CUDA kernels per
  parameter), paged ones included.
- apex's and DeepSpeed's fused optimizers (``apex/optimizers/fused_adam.py``,
  ``deepspeed/ops/adam/fused_adam.py``: ``multi_tensor_applier(self.multi_tensor_adam, ..., [g, p, m, v],
  ...)`` updates the lists in place) and DeepSpeed's ``DeepSpeedCPUAdam`` (the step runs on the CPU).
- lion-pytorch's ``Lion`` (0.2.2 ``lion_pytorch/lion_pytorch.py:71-72``: ``for p in filter(lambda p:
  exists(p.grad), group['params'])``).
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Resolved
from preflight.plan import FIELDS

_TRANSFORMERS = ("transformers v4.46.0 optimization.py:831-832 (Adafactor.step) / :621-622 (AdamW.step): "
                 "one parameter at a time")
_BNB = "bitsandbytes Optimizer8bit.step: update_step per parameter, in-place kernels"
_FUSED = "multi_tensor_applier updates the parameter lists in place: no list-sized temporaries"
_LION = "lion-pytorch 0.2.2 lion_pytorch.py:71-72: one parameter at a time"


def class_step_path(qualified: str) -> Optional[str]:
    """Why the optimizer class ``qualified`` (a dotted import path) never takes the foreach path,
    or None when the class says nothing (torch.optim: the keywords and the release decide)."""
    parts = qualified.split(".")
    head, last = parts[0], parts[-1]
    if head == "transformers" and last in ("Adafactor", "AdamW"):
        return f"transformers' {last}: {_TRANSFORMERS}"
    if head == "bitsandbytes":
        return f"bitsandbytes {last}: {_BNB}"
    if head in ("apex", "deepspeed") and last.startswith("Fused"):
        return f"{head} {last}: {_FUSED}"
    if head == "deepspeed" and last == "DeepSpeedCPUAdam":
        return "DeepSpeedCPUAdam: the step runs on the CPU"
    if head == "lion_pytorch" and last == "Lion":
        return f"lion-pytorch Lion: {_LION}"
    return None


def trainer_optim_step_path(name: object) -> Optional[str]:
    """Why a transformers Trainer ``optim`` value never takes the foreach path, or None."""
    if not isinstance(name, str):
        return None
    key = name.lower()
    if key == "adafactor":
        return f"optim='adafactor' builds transformers' Adafactor (trainer.py:1262-1263): {_TRANSFORMERS}"
    if key == "adamw_hf":
        return f"optim='adamw_hf' builds transformers' AdamW (trainer.py:1265-1268): {_TRANSFORMERS}"
    if key == "adamw_torch_fused":
        return "optim='adamw_torch_fused' passes fused=True (trainer.py:1275-1276): the fused in-place kernel"
    if key.startswith(("adamw_bnb", "adamw_8bit", "paged_adam", "lion_", "paged_lion")):
        return f"optim={name!r} builds a bitsandbytes optimizer: {_BNB}"
    return None


def write_step_path(p: Any, site: Any, qualified: str, conf: str) -> None:
    """Write ``optimizer.foreach`` for the optimizer built at ``site`` (a raw-PyTorch pass ``p``):
    ``fused=True`` or ``foreach=False`` -> False, ``foreach=True`` -> True, from the call; else False
    when the class never takes the foreach path; else nothing (the release default)."""
    if "optimizer.foreach" not in FIELDS:
        return
    fused = p.value(site.kwarg("fused"))
    if fused is not None and fused.value is True:
        p.put("optimizer.foreach", Resolved(False, fused.kind, fused.line, fused.key, fused.detail), site,
              f"{site.label}(fused=True): the fused kernel, no foreach temporaries", conf)
        if "optimizer.fused" in FIELDS:   # est77: the fused kernel, not the for-loop
            p.put("optimizer.fused", fused, site, f"{site.label}(fused=True): one in-place kernel", conf)
        return
    foreach = p.value(site.kwarg("foreach"))
    if foreach is not None and isinstance(foreach.value, bool):
        p.put("optimizer.foreach", foreach, site, f"{site.label}(foreach=...)", conf)
        return
    why = class_step_path(qualified)
    if why is not None:
        p.add("optimizer.foreach", False, p.src(site.call, f"{site.label}(...): {why}"), conf)
