"""Counts what one litgpt transformer block saves for backward in a LoRA fine-tune, on CPU with
saved-tensor hooks, and writes ``calibration/data/litgpt_phi_lora_saved.json``.

The model is lit-gpt's own ``lit_gpt.lora.GPT`` at the commit the devset's litgpt rows record
(8641822, Oct 2023: ``finetune/lora.py`` with r=8, alpha=16, dropout=0.05, LoRA on query and
value), Phi-1.5's config, bf16 weights, ``lm_head_chunk_size=128`` as the script calls it. One
block's bytes are the difference between a 2-block and a 1-block model (tensors deduplicated
by storage; parameters excluded). The source is not committed: recreate it with
``git --git-dir=<litgpt mirror> archive 8641822 lit_gpt | tar -x -C DIR`` (the fetch tool's
snapshot of Lightning-AI/litgpt) and run ``python -m calibration.litgpt_saved DIR``.

What it showed (per token per block, bf16): the saved ``v`` is a view of the fused ``attn``
output (the whole q+k+v storage stays alive), ``zero_pad``'s ``index_copy`` saves its source
(the q and v adapters' output), and Phi's one shared LayerNorm saves its input once. On CPU
the LoRA dropout keeps a bf16 noise tensor where CUDA keeps a bool mask (2 bytes a channel
more): ``cpu_only`` below."""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any, Dict

OUT = Path(__file__).resolve().parent / "data" / "litgpt_phi_lora_saved.json"
TOKENS = 256


def block_bytes(src: str) -> Dict[str, Any]:
    sys.path.insert(0, src)
    import torch
    from lit_gpt.lora import GPT, Config, mark_only_lora_as_trainable

    def run(n_layer: int) -> collections.Counter:
        torch.manual_seed(0)
        cfg = Config.from_name("phi-1_5", n_layer=n_layer, r=8, alpha=16, dropout=0.05,
                               to_query=True, to_value=True)
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
                seen[ptr] = (tuple(t.shape), str(t.dtype).replace("torch.", ""), t.untyped_storage().nbytes())
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            model(ids, lm_head_chunk_size=128)
        return collections.Counter(seen.values())

    diff = run(2) - run(1)
    tensors = [{"shape": list(shape), "dtype": dt, "storage_bytes": nb, "count": n}
               for (shape, dt, nb), n in sorted(diff.items(), key=lambda kv: -kv[0][2] * kv[1])]
    total = sum(t["storage_bytes"] * t["count"] for t in tensors)
    return {"torch": torch.__version__, "tokens": TOKENS, "tensors": tensors,
            "per_token_bytes": total / TOKENS,
            # CPU's dropout keeps its bf16 noise (2048 x 2 bytes a token) where CUDA's
            # native_dropout keeps a bool mask (2048 x 1)
            "cpu_only_per_token_bytes": 2048 * (2 - 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", help="folder holding lit_gpt/ at commit 8641822")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    row = block_bytes(args.src)
    print(f"one Phi-1.5 block, LoRA q+v: {row['per_token_bytes']:,.0f} bytes per token saved (CPU)")
    args.out.write_text(json.dumps({"litgpt_commit": "8641822", "config": "phi-1_5, bf16, LoRA r=8 q+v, "
                                    "dropout 0.05, lm_head_chunk_size=128", "rows": [row]}, indent=1) + "\n",
                        encoding="utf-8")


if __name__ == "__main__":
    main()
