"""Counts the buffers (``register_buffer``) of a transformers model as a given transformers
release builds it, without weights: the model is built from its config on the meta device
and the bytes of every buffer summed (meta tensors carry shape and dtype, no storage).

Checks ``preflight/estimate/buffers.py`` (the per-layer causal-mask and rotary buffers of
GPT-NeoX before transformers 4.49 / 4.45) against the library's own modules. The wheels are
not committed: fetch one with ``pip download --no-deps transformers==X -d DIR``, unpack it
(``unzip -q DIR/transformers-X-py3-none-any.whl -d DIR/X``) and pass that folder::

    python -m calibration.buffers /tmp/est7/full4.42.0 [...] \\
        --out calibration/data/gpt_neox_buffers.json

Each folder is imported in its own subprocess (one transformers per interpreter). The
config is Pythia-410m's (EleutherAI/pythia-410m-deduped config.json); buffers do not depend
on the weights.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

PYTHIA_410M = {
    "architectures": ["GPTNeoXForCausalLM"], "attention_dropout": 0.0, "hidden_act": "gelu",
    "hidden_dropout": 0.0, "hidden_size": 1024, "intermediate_size": 4096,
    "max_position_embeddings": 2048, "model_type": "gpt_neox", "num_attention_heads": 16,
    "num_hidden_layers": 24, "rotary_emb_base": 10000, "rotary_pct": 0.25,
    "tie_word_embeddings": False, "use_parallel_residual": True, "vocab_size": 50304,
}

_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import importlib.util
# the wheel pins numpy/tokenizers/hub versions of its time; buffers need none of them: load its
# version checker first and make its checks no-ops (nothing else of the wheel is changed)
spec = importlib.util.spec_from_file_location(
    "transformers.utils.versions", sys.argv[1] + "/transformers/utils/versions.py")
versions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(versions)
versions.require_version = versions.require_version_core = lambda *a, **k: None
sys.modules["transformers.utils.versions"] = versions
import torch
import transformers
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM
cfg = json.loads(sys.argv[2])
cfg.pop("architectures", None); cfg.pop("model_type", None)
config = GPTNeoXConfig(**cfg)
torch.set_default_dtype(torch.float16)   # what from_pretrained(torch_dtype=float16) does
with torch.device("meta"):
    model = GPTNeoXForCausalLM(config)
by_name = {}
for name, buf in model.named_buffers():
    key = name.split(".")[-1]
    row = by_name.setdefault(key, {"count": 0, "bytes": 0, "dtype": str(buf.dtype), "shape": list(buf.shape)})
    row["count"] += 1
    row["bytes"] += buf.numel() * buf.element_size()
print(json.dumps({"transformers": transformers.__version__, "torch": torch.__version__,
                  "buffers": by_name, "total_bytes": sum(r["bytes"] for r in by_name.values())}))
"""


def count(folder: str) -> Dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", _CHILD, folder, json.dumps(PYTHIA_410M)],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"{folder}: {out.stderr.strip().splitlines()[-1] if out.stderr else out.returncode}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", help="unpacked transformers wheels")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = [count(f) for f in args.folders]
    for r in rows:
        print(f"transformers {r['transformers']}: {r['total_bytes']:,} bytes of buffers")
        for name, b in sorted(r["buffers"].items()):
            print(f"  {name:12s} x{b['count']:<3d} {b['dtype']:14s} {b['shape']} {b['bytes']:,}")
    if args.out:
        args.out.write_text(json.dumps({"config": "EleutherAI/pythia-410m-deduped", "model": PYTHIA_410M,
                                        "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
