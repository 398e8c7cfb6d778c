"""What torchtune's recipes did before 0.3: the training loop and the compile scope by version.

Two recipe changes first released in torchtune 0.3.0 (both absent from v0.2.1, read in
pytorch/torchtune's history):

- PR #1235 ("[memory Improvement] delete logits before bwd", 8a98fbaa3, 2024-07-28) added
  ``del logits`` ("free logits otherwise it peaks backward memory") before ``loss.backward()``.
  Before it the recipes' loop (``full_finetune_distributed.py`` at 0217d44, May 2024) reads::

      logits = self._model(input_ids)
      # Shift so that tokens < n predict n
      logits = logits[..., :-1, :].contiguous()
      ...
      loss = self._loss_fn(logits, labels)
      loss.backward()

  The model returns fp32 logits (``TransformerDecoder``: ``output = self.output(h).float()``)
  and the loop-level name ``logits`` keeps their shifted fp32 copy alive through the whole
  backward and, rebound only when the next forward returns, through the next forward: the
  loop keeps its outputs (``held_outputs.py``), 4 bytes per token and vocabulary entry.
- PR #1512 ("compile utils and version-gating", c169bcddd, 2024-09-07) added
  ``training.compile_loss(self._loss_fn)`` beside the model's compile. Before it the recipes
  compiled the model only (``lora_finetune_single_device.py`` at 0217d44:
  ``model = utils.wrap_compile(model)``) and the cross-entropy ran eagerly on the fp32 logits.

Unknown version: the current recipes (loss compiled with the model, logits deleted).
A device check on an H200 (``calibration/fsdp_full_peaks.py``,
``calibration/data/est46_fsdp_full_peaks_h200.json``) ran that loop (the shifted logits held
through backward) under FSDP1 and its backward peak is where this term puts it.
"""

from __future__ import annotations

import re
from typing import Any, Optional

#: torchtune's first release with both changes above
TORCHTUNE_LOOP_CHANGES = (0, 3)


def torchtune_minor(inp: Any) -> Optional[tuple[int, int]]:
    """(major, minor) of the job's torchtune when it runs torchtune's models and says which."""
    if getattr(inp, "model_impl", None) != "torchtune":
        return None
    m = re.match(r"\s*v?(\d+)\.(\d+)", str(getattr(inp, "torchtune_version", None) or ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def old_recipes(inp: Any) -> bool:
    """torchtune older than 0.3: loop-level fp32 logits, the model compiled alone."""
    version = torchtune_minor(inp)
    return version is not None and version < TORCHTUNE_LOOP_CHANGES


def loop_logits_bytes(inp: Any, tv: float) -> float:
    """Bytes of the logits a torchtune recipe before 0.3 keeps at loop level (``tv``: logit
    tokens x vocabulary; the shifted fp32 copy), 0 otherwise or when the job states whether
    its loop keeps its outputs (``keeps_outputs``)."""
    if (getattr(inp, "mode", None) != "train" or not old_recipes(inp)
            or "keeps_outputs" in (getattr(inp, "sources", None) or {})):
        return 0.0
    return tv * 4.0
