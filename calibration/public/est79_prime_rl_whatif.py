"""What-if for held-out-37's three prime-rl SFT rows (est79; IN-SAMPLE for held-out-37): the estimate with the row as
committed, with the loop's kept output stated (``keeps_outputs``: prime-rl's ``out`` stays bound through backward),
and with the kept logits in fp32 as prime-rl's ``cast_float_and_contiguous`` makes them (written here, for the
what-if only, as transformers before 4.46, whose loss path has the same bytes: fp32 logits returned, no further
upcast, 8 bytes per token x vocab in forward, 12 + 4 kept at the start of backward; calibration/est79_loop_logits.py
measures prime-rl's path at 8 and 16). Scored as ``bench/public_accuracy.py`` scores rows; changes no row.

Usage::

    .venv/bin/python calibration/public/est79_prime_rl_whatif.py
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GIB = 2 ** 30
VARIANTS = (("as committed", {}), ("keeps_outputs", {"keeps_outputs": True}),
            ("keeps_outputs + fp32 kept logits", {"keeps_outputs": True, "transformers_version": "4.45"}))


def main() -> int:
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import estimate

    rows = [r for r in json.loads((REPO / "calibration/public/heldout37.json").read_text(encoding="utf-8"))["rows"]
            if r["source"].startswith("prime-rl") and r.get("peak_bytes")]
    for name, change in VARIANTS:
        errs = []
        for row in rows:
            r = copy.deepcopy(row)
            r["setup"].update(change)
            res = pa.evaluate(r)
            inp, _ = pa.estimate_input(r["setup"], hardware.find(r["gpu"]))
            est = estimate(inp)
            terms = est.phases[est.phase or ""]
            errs.append(res.error)
            shown = ", ".join(f"{t} {b / GIB:.2f}" for t, b in sorted(terms.items(), key=lambda kv: -kv[1])
                              if b >= GIB / 10)
            print(f"{name:34s} {row['id'].split('/')[1][-22:]:22s} measured {row['peak_bytes'] / GIB:6.2f} "
                  f"estimated {res.estimate / GIB:6.2f} ({res.error:+.1%})  {est.phase}: {shown}")
        print(f"{name:34s} mean |error| {sum(abs(e) for e in errs) / len(errs):.1%}, "
              f"signed {sum(errs) / len(errs):+.1%}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
