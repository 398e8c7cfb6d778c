"""Bytes alive at the end of a T5 v1.1 (gated-gelu, untied head) training forward, fp32, measured on CPU with
torch's profiler (``profile_memory=True``: every allocation and free of the c10 allocator with its running total);
writes ``calibration/data/est80_t5_forward.json`` (est80, issue 17: held-out-38's nanoT5 row is under by 13.9%).

The model is transformers' ``T5ForConditionalGeneration`` built from google/t5-v1_1-base's dimensions (d_model 768,
12 heads of 64, d_ff 2048 gated-gelu, vocabulary 32128, 32 relative-position buckets, dropout 0) with 1 and 2 layers
per stack and eager attention (transformers 4.27's only T5 attention, the one nanoT5 ran; 5.x defaults to SDPA),
batch 2, 114 decoder tokens, and 512 encoder tokens (nanoT5's span-corruption lengths) and again 256 (at 512, 12
heads x 512 keys = 3 x d_ff, so a (batch, heads, L, L) tensor and three (tokens, d_ff) tensors have the same size; the
second length tells them apart). Per configuration it records the peak allocated during ``loss = model(input_ids,
labels=labels).loss`` above what was allocated before (the weights and the inputs) and what is still allocated once
the loss is returned (the saved activations, the loss path's tensors); the difference between the 2- and 1-layer
figures is one encoder plus one decoder layer. The estimator's figures for the same inputs are computed by the test
(``tests/test_est80_t5_gated_gelu.py``), not here.

Run: ``python -m calibration.est80_t5_forward [--out PATH]`` (needs torch and transformers; not run by the tests,
which read the committed JSON). torch's autograd keeps the same tensors on CPU and CUDA, so the counts carry to GPU
jobs; the caching allocator's reserve above them does not (not measured here).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Dict

from calibration.est79_loop_logits import _memory  # the profiler trace reading, shared

OUT = Path(__file__).resolve().parent / "data" / "est80_t5_forward.json"
BATCH, SEQ, TARGET = 2, 512, 114
CONFIG = dict(d_model=768, d_kv=64, d_ff=2048, num_heads=12, vocab_size=32128, feed_forward_proj="gated-gelu",
              tie_word_embeddings=False, relative_attention_num_buckets=32, dropout_rate=0.0,
              decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)


def measure(layers: int, seq: int) -> Dict[str, Any]:
    import torch
    from transformers import T5Config, T5ForConditionalGeneration

    torch.manual_seed(0)
    cfg = T5Config(num_layers=layers, num_decoder_layers=layers, attn_implementation="eager", **CONFIG)
    model = T5ForConditionalGeneration(cfg).train()
    ids = torch.randint(0, cfg.vocab_size, (BATCH, seq))
    labels = torch.randint(0, cfg.vocab_size, (BATCH, TARGET))
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        loss = model(input_ids=ids, labels=labels).loss
        marker = torch.empty(1)        # one 4-byte allocation: the running total at the loss
    base, totals = _memory(prof)
    del marker, loss
    end = totals[-1] - 4
    return {"layers_per_stack": layers, "peak_above_start": max(totals) - base,
            "alive_at_loss": end - base, "seq_len": seq, "tokens": BATCH * seq, "target_tokens": BATCH * TARGET}


def main(argv: Any = None) -> int:
    import torch
    import transformers

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    runs = [measure(n, seq) for seq in (SEQ, SEQ // 2) for n in (1, 2)]
    per_layer = {str(runs[i]["seq_len"]): {k: runs[i + 1][k] - runs[i][k] for k in ("peak_above_start", "alive_at_loss")}
                 for i in (0, 2)}
    out = {"about": __doc__.split("\n\n")[0], "torch": torch.__version__, "transformers": transformers.__version__,
           "batch": BATCH, "seq_len": SEQ, "target_len": TARGET, "config": CONFIG, "runs": runs,
           "one_encoder_plus_one_decoder_layer_by_seq_len": per_layer}
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
