"""Step-cache replays at long contexts with a 128k vocabulary (est53): does the reserve per byte of
transient that adapters on the MLP projections show at 512-4,096 tokens with Llama-2's 32k vocabulary
(``calibration/data/fixed_length.json``: 0.787-1.209) hold for Llama-3.1-8B's shapes at 8,192 and
16,384 tokens? The same recording and replay as ``calibration/fixed_length.py`` (``record_case``).

Result (``calibration/data/step_cache_long_context.json``): no. Rank-32 LoRA on every projection holds
0.317 (8,192 tokens) and 0.323 (16,384) per byte of transient, q/v-only rank 8 holds 0.280: the
constant the estimator charges (``constants.STEP_CACHE_RATIO`` 0.3485). In bytes per token, hidden unit
and layer the excess is 3.72, 3.79 and 3.29.

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.step_cache_long_context [--out calibration/data/step_cache_long_context.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from calibration.fixed_length import ALL_PROJ

LLAMA31_8B = dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                  num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072,
                  rms_norm_eps=1e-5, rope_theta=500000.0, tie_word_embeddings=False)
CASES: List[Tuple[str, Dict[str, Any], Dict[str, Any]]] = [
    ("llama31-8b-lora-r32-all-b1-s8192", LLAMA31_8B,
     dict(batch=1, seq_len=8192, lora_r=32, lora_dropout=0.05, lora_targets=ALL_PROJ)),
    ("llama31-8b-lora-r8-qv-b1-s8192", LLAMA31_8B,
     dict(batch=1, seq_len=8192, lora_r=8, lora_dropout=0.05, lora_targets=["q_proj", "v_proj"])),
    ("llama31-8b-lora-r32-all-b1-s16384", LLAMA31_8B,
     dict(batch=1, seq_len=16384, lora_r=32, lora_dropout=0.05, lora_targets=ALL_PROJ)),
]


def main(argv: Optional[List[str]] = None) -> int:
    from calibration.fixed_length import record_case

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    runs = []
    for name, config, fields in CASES:
        runs.append(record_case(name, config, fields))
        print(json.dumps(runs[-1]), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "runs": runs}, indent=1),
                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
