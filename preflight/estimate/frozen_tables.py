"""A full fine-tune whose vocabulary tables do not train: the input embedding and the LM head
with ``requires_grad`` False (``EstimateInput.frozen_embeddings``).

A parameter with ``requires_grad=False`` is no leaf autograd accumulates into: backward makes no
gradient for it (``torch.autograd`` builds ``AccumulateGrad`` nodes only for leaves that
require grad), an optimizer given it skips it (``p.grad is None``), and a torch optimizer built
over the other parameters never allocates its state. So a full fine-tune with frozen tables
(the lowmem_finetuning recipe: ``model.model.embed_tokens.weight.requires_grad = False``, the
tied head with it) holds gradients, optimizer states and step temporaries for the blocks only;
the head still passes the gradient of its input on (``mm``'s input gradient needs only the
weight), so the logits' gradient is unchanged. The tied-embedding transient at the end of
backward (``terms.tied_embedding_grad``: the head's and the embedding's gradients summed in
the ``AccumulateGrad`` input buffer) does not exist, and a step run inside backward
(``optimizer_in_backward``) holds at most the largest block matrix's gradient rather than the
table's.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate.inputs import EstimateInput, InputError


def check_frozen_embeddings(inp: EstimateInput) -> None:
    """InputError unless ``frozen_embeddings`` is a bool."""
    if not isinstance(inp.frozen_embeddings, bool):
        raise InputError(f"frozen embeddings must be true or false, got {inp.frozen_embeddings!r}")


def applies(inp: EstimateInput, full: bool) -> bool:
    """Frozen tables in a full fine-tune (with adapters the tables are frozen anyway)."""
    return bool(inp.frozen_embeddings) and full and inp.mode == "train"


def frozen_table_params(inp: EstimateInput, prm: Any, full: bool) -> int:
    """Elements that do not train: the input embedding and an untied LM head (``prm.lm_head``
    is 0 when tied)."""
    return int(prm.embeddings + prm.lm_head) if applies(inp, full) else 0


def largest_block_matrix(arch: Any) -> int:
    """The largest weight inside a block: an MLP matrix (hidden x intermediate) or a square
    attention projection (hidden x hidden)."""
    hidden = int(getattr(arch, "hidden_size", 0) or 0)
    inter = int(getattr(arch, "intermediate_size", 0) or 0)
    return max(hidden * inter, hidden * hidden)
