"""Counts what one lit-gpt StableLM block saves for backward in a LoRA fine-tune, on CPU with
saved-tensor hooks, and writes ``calibration/data/litgpt_stablelm_lora_saved.json``.

lit-gpt 8641822's ``lit_gpt.lora.GPT`` with ``stablelm-base-alpha-3b``'s config (parallel
residual, two LayerNorms, fused ``attn``), bf16 weights, LoRA r=8 on query and value as
``finetune/lora.py`` sets it, ``lm_head_chunk_size=128``; one block's bytes are the difference
between a 2-block and a 1-block model (tensors deduplicated by storage; parameters excluded).
The source is not committed: ``git --git-dir=<litgpt mirror> archive 8641822 lit_gpt | tar -x
-C DIR`` and run ``python -m calibration.litgpt_stablelm_saved DIR [--write]``.

What it showed (per token per block): the LoRA adapters of q and v and zero_pad's source are
saved although StableLM's transformers config names one fused ``query_key_value`` (the
estimator matched q_proj/v_proj against that name and charged nothing); x is saved once for
both LayerNorms. On CPU the LoRA dropout keeps a bf16 noise tensor (CUDA: a bool mask)."""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any, Dict

OUT = Path(__file__).resolve().parent / "data" / "litgpt_stablelm_lora_saved.json"
TOKENS = 256


def block_bytes(src: str) -> Dict[str, Any]:
    sys.path.insert(0, src)
    import torch
    from lit_gpt.lora import GPT, Config, mark_only_lora_as_trainable

    def run(n_layer: int) -> collections.Counter:
        torch.manual_seed(0)
        cfg = Config.from_name("stablelm-base-alpha-3b", n_layer=n_layer, r=8, alpha=16,
                               dropout=0.05, to_query=True, to_value=True)
        torch.set_default_dtype(torch.bfloat16)
        model = GPT(cfg)
        torch.set_default_dtype(torch.float32)
        mark_only_lora_as_trainable(model)
        model.max_seq_length = TOKENS
        ids = torch.randint(0, cfg.padded_vocab_size, (1, TOKENS))
        params = {p.untyped_storage().data_ptr() for p in model.parameters()}
        seen: Dict[int, tuple] = {}

        def pack(t: Any) -> Any:
            ptr = t.untyped_storage().data_ptr()
            if ptr not in params and ptr not in seen:
                seen[ptr] = (tuple(t.shape), str(t.dtype).replace("torch.", ""),
                             t.untyped_storage().nbytes())
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            model(ids, lm_head_chunk_size=128)
        return collections.Counter(seen.values())

    diff = run(2) - run(1)
    tensors = [{"shape": list(shape), "dtype": dt, "storage_bytes": nb, "count": n}
               for (shape, dt, nb), n in sorted(diff.items(), key=lambda kv: -kv[0][2])]
    total = sum(t["storage_bytes"] * t["count"] for t in tensors)
    return {"model": "stablelm-base-alpha-3b", "litgpt": "8641822", "torch": torch.__version__,
            "tokens": TOKENS, "per_token_per_block": total / TOKENS, "tensors": tensors}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    out = block_bytes(args.src)
    print(json.dumps(out, indent=1))
    if args.write:
        OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
