"""est28: does the fragmentation the estimator charges at long context survive an out-of-memory
retry? A Llama-3.1-8B-shaped LoRA step (rank 32 on every projection, batch 1, checkpointing,
bf16 weights: the fake-tensor recorder has no 4-bit base) recorded on fake tensors
(``calibration/alloc_trace.py``) at one length and replayed through the simulator of torch
2.1's caching allocator (``calibration/caching_allocator.py``): the allocated and reserved
peaks, and the smallest capacity at which the replay does not run out of memory
(``fixed_length.min_capacity``: the allocator frees only wholly free segments before it gives up).

``--loss 4.47`` replaces transformers' causal-LM loss by the layout of transformers 4.47.0's
``ForCausalLMLoss`` (``logits.float()``, ``logits[..., :-1, :].contiguous()``, cross-entropy);
the recording's own transformers (5.x) pads the labels instead. At batch 1 both layouts give
the same events: the shifted slice is a view (``terms.shifted_logits_copy``).

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.long_context_min_capacity --seq-len 28454 --loss 4.47
"""

from __future__ import annotations

import argparse
import json
from typing import Any

LLAMA31_8B = dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                  num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072,
                  rms_norm_eps=1e-5, tie_word_embeddings=False, rope_theta=500000.0)


def loss_447(logits: Any, labels: Any, vocab_size: int, num_items_in_batch: Any = None,
             ignore_index: int = -100, **kwargs: Any) -> Any:
    """The tensor layout of transformers 4.47.0 ``loss/loss_utils.py`` ``ForCausalLMLoss``."""
    import torch.nn as nn

    logits = logits.float()
    shift_logits = logits[..., :-1, :].contiguous().view(-1, vocab_size)
    shift_labels = labels[..., 1:].contiguous().view(-1).to(shift_logits.device)
    reduction = "sum" if num_items_in_batch is not None else "mean"
    loss = nn.functional.cross_entropy(shift_logits, shift_labels, ignore_index=ignore_index, reduction=reduction)
    return loss / num_items_in_batch if reduction == "sum" else loss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seq-len", type=int, required=True)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--loss", choices=("recording", "4.47"), default="recording")
    args = ap.parse_args()
    if args.loss == "4.47":
        from transformers.loss import loss_utils

        loss_utils.LOSS_MAPPING["ForCausalLM"] = loss_447
    from calibration import fixed_length as F

    fields = dict(batch=args.batch, seq_len=args.seq_len, lora_r=32, lora_dropout=0.0,
                  lora_targets=[*F.ALL_PROJ, "o_proj"])
    name = f"llama31-8b-lora-r32-all-b{args.batch}-s{args.seq_len}-loss-{args.loss}"
    print(json.dumps(F.min_capacity(name, LLAMA31_8B, fields)))


if __name__ == "__main__":
    main()
