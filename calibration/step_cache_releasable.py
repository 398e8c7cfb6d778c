"""What of the step cache the allocator gives back before an out-of-memory error, at long contexts with a
128k vocabulary (est55): ``calibration/fixed_length.py``'s ``min_capacity`` (the smallest capacity, to
16 MiB, at which the replayed job completes; ``release_cached_blocks`` frees only wholly free segments)
for est53's logits-dominated Llama-3.1-8B replays (``calibration/step_cache_long_context.py``'s cases).

The question it answers: could the verdict leave out part of ``fragmentation`` (``STEP_CACHE_RATIO`` x
the step's transient length-dependent tensors) as it leaves out ``length_cache``? held-out-13's one false
OOM (Liger-Kernel's HF example, Llama-3-8B FSDP b48 x 512: 1.2 GiB over the card, with 12.3 GiB of
step cache charged over 35.2 GiB of logits) would need about a tenth of it released.

Result (``calibration/data/step_cache_releasable.json``): q/v rank 8 at 8,192 tokens gives back 0.000 of
its excess, every projection rank 32 0.121 (8,192) and 0.061 (16,384); with ``fixed_length.json``'s three
(0.031, 0.652, 0.000) the median is 0.046, under the tenth: the verdict keeps ``fragmentation``
(docs/calibration.md, "est55").

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.step_cache_releasable [--out calibration/data/step_cache_releasable.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    from calibration.fixed_length import min_capacity
    from calibration.step_cache_long_context import CASES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    runs = []
    for name, config, fields in CASES:
        runs.append(min_capacity(name, config, fields))
        print(json.dumps(runs[-1]), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "runs": runs}, indent=1) + "\n",
                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
