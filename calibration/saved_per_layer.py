"""Bytes autograd saves per layer and token, and what the returned cache adds, for a
transformers decoder as a given transformers release builds it (CPU, random weights).

Runs one training forward of the wheel's own model (1 and 2 layers, ``attn_implementation``
as asked, 16-bit weights as ``from_pretrained(torch_dtype=float16)`` makes them) under
``torch.autograd.graph.saved_tensors_hooks`` and sums the distinct storages saved that are
not parameters; the per-layer figure is the 2-layer total minus the 1-layer one. It also
reports the bytes of the returned ``past_key_values`` and the part of it autograd does not
save. Used to check ``preflight/estimate/activations.py`` and ``held_outputs.py`` on the
held-out-4 models (docs/calibration.md, held-out-4, est7's round).

CPU caveats: SDPA's CPU kernel returns its output in (batch, heads, seq, dim) layout, so the
``transpose(1, 2).contiguous()`` before the output projection is a copy on CPU (2 bytes x
hidden per token) where CUDA's memory-efficient and flash kernels already return that layout.

The wheels are not committed: ``pip download --no-deps transformers==X -d DIR`` and unzip::

    python -m calibration.saved_per_layer /tmp/est7/full4.42.0 gpt_neox sdpa \\
        /tmp/est7/full4.48.0 opt sdpa --out calibration/data/saved_per_layer.json

(the wheel pins numpy/tokenizers of its time: its version checks are made no-ops, as in
``calibration/buffers.py``; ``requests`` must be importable).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

CONFIGS = {
    # EleutherAI/pythia-410m-deduped
    "gpt_neox": ("GPTNeoXConfig", "GPTNeoXForCausalLM", dict(
        hidden_size=1024, intermediate_size=4096, num_attention_heads=16, vocab_size=50304,
        rotary_pct=0.25, max_position_embeddings=2048, use_parallel_residual=True,
        attention_dropout=0.0, hidden_dropout=0.0)),
    # facebook/opt-350m with dropout 0 (the residual dropout masks are counted by hand)
    "opt": ("OPTConfig", "OPTForCausalLM", dict(
        hidden_size=1024, ffn_dim=4096, num_attention_heads=16, vocab_size=50272,
        max_position_embeddings=2048, word_embed_proj_dim=512, do_layer_norm_before=False,
        activation_function="relu", dropout=0.0, attention_dropout=0.0, activation_dropout=0.0)),
}

_CHILD = r"""
import importlib.util, json, sys
folder, conf_cls, model_cls, kwargs, layers, attn, tokens = sys.argv[1:8]
sys.path.insert(0, folder)
spec = importlib.util.spec_from_file_location("transformers.utils.versions",
                                              folder + "/transformers/utils/versions.py")
versions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(versions)
versions.require_version = versions.require_version_core = lambda *a, **k: None
sys.modules["transformers.utils.versions"] = versions
import torch
import transformers
cfg = getattr(transformers, conf_cls)(num_hidden_layers=int(layers), **json.loads(kwargs))
cfg._attn_implementation = attn
torch.manual_seed(0)
torch.set_default_dtype(torch.float16)
model = getattr(transformers, model_cls)(cfg)
model.train()
n = int(tokens)
ids = torch.randint(0, cfg.vocab_size - 1, (1, n))
seen = {}
def pack(t):
    seen[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    out = model(input_ids=ids, attention_mask=torch.ones(1, n, dtype=torch.long))
params = {p.untyped_storage().data_ptr() for p in model.parameters()}
saved = sum(b for k, b in seen.items() if k not in params)
cache = {}
for layer in (out.past_key_values or ()):
    for t in layer:
        cache[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
print(json.dumps({"transformers": transformers.__version__, "torch": torch.__version__,
                  "saved": saved, "cache": sum(cache.values()),
                  "cache_unsaved": sum(b for k, b in cache.items() if k not in seen),
                  "logits": out.logits.numel() * out.logits.element_size()}))
"""


def measure(folder: str, model_type: str, attn: str, tokens: int) -> Dict[str, Any]:
    conf_cls, model_cls, kwargs = CONFIGS[model_type]
    runs = []
    for layers in (1, 2):
        proc = subprocess.run([sys.executable, "-c", _CHILD, folder, conf_cls, model_cls,
                               json.dumps(kwargs), str(layers), attn, str(tokens)],
                              capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            tail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode
            raise SystemExit(f"{folder} {model_type}: {tail}")
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    one, two = runs
    return {"model_type": model_type, "attention": attn, "tokens": tokens,
            "transformers": one["transformers"], "torch": one["torch"],
            "saved_per_layer_token": (two["saved"] - one["saved"]) / tokens,
            "cache_per_layer_token": (two["cache"] - one["cache"]) / tokens,
            "cache_unsaved_per_layer_token": (two["cache_unsaved"] - one["cache_unsaved"]) / tokens,
            "logits_per_token": one["logits"] / tokens, "one_layer": one, "two_layers": two}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("triples", nargs="+", help="FOLDER MODEL_TYPE ATTENTION, repeated")
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if len(args.triples) % 3:
        raise SystemExit("give FOLDER MODEL_TYPE ATTENTION triples")
    rows = [measure(*args.triples[i:i + 3], args.tokens) for i in range(0, len(args.triples), 3)]
    for r in rows:
        print(f"transformers {r['transformers']} {r['model_type']} {r['attention']}: saved "
              f"{r['saved_per_layer_token']:,.0f} B per layer and token; cache "
              f"{r['cache_per_layer_token']:,.0f} (unsaved {r['cache_unsaved_per_layer_token']:,.0f})")
    if args.out:
        args.out.write_text(json.dumps({"rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
