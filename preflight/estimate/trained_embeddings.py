"""Embedding tables that train beside LoRA adapters (``EstimateInput.trained_embeddings``).

A LoRA job trains only its adapters unless one of two things puts the vocabulary tables
(input embeddings and an untied LM head) back into training:

- ``"copy"``: PEFT's ``LoraConfig(modules_to_save=["embed_tokens", "lm_head"])``. peft's
  ``ModulesToSaveWrapper`` (``peft/utils/other.py``) keeps ``original_module`` frozen and
  trains ``modules_to_save[adapter] = copy.deepcopy(original_module)``: a second stored copy
  of each table, plus its gradient and optimizer states. A tied head is wrapped apart from the
  embedding, so its copy is a second trained table (both names listed is assumed).
- ``"resized"``: ``model.resize_token_embeddings(...)`` called after the adapter was attached,
  with transformers before 4.35. ``_get_resized_embeddings`` / ``_get_resized_lm_head`` build a
  new ``nn.Embedding`` / ``nn.Linear``, whose weight requires grad by default, and before
  huggingface/transformers#26865 (merged 2023-10-17, first released in 4.35.0) nothing copied
  the old table's ``requires_grad``: the frozen tables come back trainable, with no second copy.
  artidoro/qlora at 0fc40da adds a pad token this way after ``get_peft_model`` (``train()`` calls
  ``get_accelerate_model`` then ``smart_tokenizer_and_embedding_resize``); its maintainers froze
  the tables again in 5111741 ("Temporary bug fix #214") and pointed issue #193's memory question
  at #214.
- ``"embedding"`` (est36): the input embedding trains in place beside the adapters, the LM head
  stays frozen. LongLoRA's ``supervised-fine-tune.py`` / ``fine-tune.py`` run, after
  ``get_peft_model``, ``[p.requires_grad_() for n, p in model.named_parameters() if any([k in n
  for k in training_args.trainable_params.split(",")])]`` with the default ``trainable_params``
  ``"embed,norm"``: ``model.embed_tokens.weight`` (and the norms, too small to count) train,
  ``lm_head.weight`` does not match. No copy, and no version condition.

What training a table adds (per table of ``n`` elements stored in ``b`` bytes): its gradient
(``n x b``, the parameter's dtype); the optimizer's states: torch's AdamW keeps
``zeros_like(param)`` (2 x n x b), bitsandbytes' 32-bit optimizers fp32 states whatever the
parameter's dtype (``Optimizer2State.init_state``: ``dtype=torch.float32`` for ``optim_bits``
32, 2 x 4 x n), the 8-bit ones two uint8 states plus the fp32 absmax
(``C.ADAM8BIT_BYTES_PER_PARAM``); a paged optimizer puts the states of a table (far above
``C.PAGED_STATE_MIN_ELEMENTS``) in CUDA managed memory (``terms.paged_state_bytes``). DDP's
gradient buckets follow the gradients where the training step charges them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from preflight.estimate import constants as C

#: the values of ``EstimateInput.trained_embeddings`` (and plan ``peft.trained_embeddings``)
MODES = ("copy", "resized", "embedding")

#: transformers release from which ``resize_token_embeddings`` keeps ``requires_grad``
KEEPS_REQUIRES_GRAD = (4, 35)

#: bitsandbytes' 32-bit optimizers (fp32 states for 16-bit parameters)
BNB_32BIT = ("paged-adamw",)


@dataclass(frozen=True)
class TrainedTables:
    """What training the vocabulary tables adds to a LoRA step (bytes, elements)."""

    params: int = 0            # trainable elements (input embeddings + untied LM head)
    copy: float = 0.0          # the trained copy PEFT keeps beside the frozen original
    grads: float = 0.0
    states: float = 0.0        # every optimizer state byte (managed ones included)
    managed: float = 0.0       # the part a paged optimizer keeps in CUDA managed memory


def resize_keeps_frozen(transformers_version: Optional[str]) -> Optional[bool]:
    """Whether ``resize_token_embeddings`` keeps a frozen table frozen (transformers >= 4.35);
    None when the version is unknown."""
    m = re.match(r"\s*(\d+)\.(\d+)", str(transformers_version or ""))
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2))) >= KEEPS_REQUIRES_GRAD


def applies(inp: Any) -> bool:
    """The job trains its vocabulary tables beside LoRA adapters (see the module's doc)."""
    mode = getattr(inp, "trained_embeddings", None)
    if mode is not None and mode not in MODES:
        from preflight.estimate.inputs import InputError

        raise InputError(f"unknown trained embeddings {mode!r} (expected {', '.join(MODES)})")
    if not (inp.mode == "train" and inp.lora and mode in MODES):
        return False
    if mode == "resized":
        return resize_keeps_frozen(inp.transformers_version) is False
    return True


def trained_tables(inp: Any, prm: Any, table_bytes: float) -> TrainedTables:
    """The tables' copy, gradients and optimizer states (``table_bytes``: bytes per element of
    the tables as the model stores them)."""
    if not applies(inp):
        return TrainedTables()
    tables = [t for t in (int(prm.embeddings), int(prm.lm_head)) if t > 0]
    if inp.trained_embeddings == "embedding":
        tables = [int(prm.embeddings)] if int(prm.embeddings) > 0 else []
    if inp.trained_embeddings == "copy" and len(tables) == 1:
        # a tied head: PEFT wraps embed_tokens and lm_head apart, each with its own trained
        # deep copy, so two tables train where the model stores one
        tables = tables * 2
    n = sum(tables)
    if n <= 0:
        return TrainedTables()
    opt = inp.optimizer
    if opt in ("adamw-8bit", "paged-adamw-8bit"):
        per = C.ADAM8BIT_BYTES_PER_PARAM
    elif opt == "adamw-4bit":
        per = C.ADAM4BIT_BYTES_PER_PARAM
    elif opt in BNB_32BIT:
        per = 2 * 4.0
    elif opt in ("adamw", "adamw-fused"):
        per = 2 * table_bytes
    elif opt in ("lion", "sgd-momentum"):
        per = table_bytes
    elif opt == "sgd":
        per = 0.0
    else:
        per = 2 * table_bytes
    paged = 0.0
    if opt.startswith("paged"):
        paged_per = 2.0 if opt == "paged-adamw-8bit" else per
        paged = paged_per * sum(t for t in tables if t >= C.PAGED_STATE_MIN_ELEMENTS)
    copy = n * table_bytes if inp.trained_embeddings == "copy" else 0.0
    return TrainedTables(params=n, copy=copy, grads=n * table_bytes, states=n * per,
                         managed=paged)


def table_notes(inp: Any, tables: TrainedTables) -> list[str]:
    """The estimate's notes for a job whose tables train (or whose version is unknown)."""
    mode = getattr(inp, "trained_embeddings", None)
    if mode == "resized" and inp.lora and resize_keeps_frozen(inp.transformers_version) is None:
        return ["resize_token_embeddings after the adapter: before transformers 4.35 the resized "
                "embeddings and LM head train (their requires_grad is not kept); the version is "
                "unknown, so they are estimated frozen (pass --transformers-version)"]
    if not tables.params:
        return []
    if mode == "embedding":
        gib = (tables.grads + tables.states) / 1024 ** 3
        return [f"the input embedding trains beside the adapters ({tables.params / 1e6:.0f}M parameters, "
                f"requires_grad_() on it, LongLoRA's trainable_params 'embed,norm'): {gib:.2f} GiB of "
                "gradients and optimizer states before sharding"]
    how = ("PEFT modules_to_save trains a copy of" if mode == "copy"
           else "resize_token_embeddings (transformers < 4.35) left trainable")
    gib = (tables.copy + tables.grads + tables.states) / 1024 ** 3
    return [f"{how} the embeddings and LM head ({tables.params / 1e6:.0f}M parameters): "
            f"{gib:.2f} GiB of copies, gradients and optimizer states"
            + (" (the paged states in managed memory)" if tables.managed else "")]
