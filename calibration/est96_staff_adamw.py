"""How many parameter-sized tensors a per-parameter AdamW step holds at once beyond its kept states (est96).

``preflight/estimate/terms_optim.optimizer_temporaries`` charges torch's for-loop AdamW two temporaries the size of
the largest parameter, and a hand-written loop the count its row states (``EstimateInput.optimizer_loop_temps``).
The CS336 assignment-2 rows step the staff ``cs336-basics/cs336_basics/optimizer.py`` that each assignment-2
repository ships; read at the rows' commits it exists in two versions (md5 51ed572f and dc9259d0: weight decay
before or after the update) whose step computes ``m_t``, ``v_t`` and ``p.data -= alpha_t * m_t / (torch.sqrt(v_t) +
eps)`` out of place and stores ``m_t`` / ``v_t`` in the state only after the update.

This records the step on the CPU with real (small) tensors under ``calibration.alloc_trace``'s dispatch-mode
recorder (every new storage an aten op returns, freed when its last tensor dies): two parameters, a 256 x 1024
matrix (the largest) and a 64 x 64 one, fp32 gradients set by hand, two steps (the first creates the states, the
second is the steady step the rows measure). The peak of the bytes alive during the second step, less those alive
when it starts, divided by the largest parameter's bytes, is the count. torch's own ``AdamW(foreach=False)`` is
recorded the same way as the check (the estimator's 2).

The staff file is read from a local clone or mirror (``git show COMMIT:path``) and imported from a temporary
module; nothing of it is stored here::

    python -m calibration.est96_staff_adamw --repo /work/.mirror/ShibukiZero+assignment2-systems/repo \\
        --commit 00f1480 --repo /work/.mirror/duoan+cs336-assignment2-systems/repo --commit e26922c
    # writes calibration/data/est96_staff_adamw.json

Needs torch (2.13.0+cpu was used). Calibration only; never the base install.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import types
from pathlib import Path
from typing import Any, Callable, Dict, List

OUT = Path(__file__).resolve().parent / "data" / "est96_staff_adamw.json"
PATH = "cs336-basics/cs336_basics/optimizer.py"
SHAPES = ((256, 1024), (64, 64))


def staff_optimizer(repo: str, commit: str) -> Any:
    """The staff AdamW class of ``repo`` at ``commit`` and the md5 of its file."""
    text = subprocess.run(["git", f"--git-dir={repo}", "show", f"{commit}:{PATH}"], check=True,
                          capture_output=True, text=True).stdout
    module = types.ModuleType("est96_staff_optimizer")
    exec(compile(text, f"{repo}@{commit}:{PATH}", "exec"), module.__dict__)   # calibration only
    return module.AdamW, hashlib.md5(text.encode()).hexdigest()[:8]


def step_peak(make_optimizer: Callable[[List[Any]], Any]) -> Dict[str, int]:
    """Bytes alive beyond the start of the second step at its peak, and the largest parameter's bytes."""
    import torch

    from calibration.alloc_trace import _recorder_cls

    torch.manual_seed(0)
    params = [torch.nn.Parameter(torch.randn(*shape)) for shape in SHAPES]
    opt = make_optimizer(params)
    rec = _recorder_cls()()
    marks = []
    with rec:
        for _ in range(2):
            for p in params:
                p.grad = None
            for p in params:   # the gradients: set outside the step, alive through it as in a training step
                p.grad = torch.randn_like(p)
            marks.append(len(rec.events))
            opt.step()
        marks.append(len(rec.events))
    sizes: Dict[int, int] = {}
    live = 0
    trace = []
    for kind, key, nbytes in rec.events:
        if kind == "a":
            sizes[key] = nbytes
            live += nbytes
        else:
            live -= sizes.get(key, 0)
        trace.append(live)
    start = trace[marks[1] - 1]
    peak = max(trace[marks[1]:marks[2]])
    largest = max(p.numel() * p.element_size() for p in params)
    return {"extra_bytes": peak - start, "largest_bytes": largest, "count": round((peak - start) / largest, 3)}


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", action="append", required=True, help="a git dir holding cs336-basics")
    ap.add_argument("--commit", action="append", required=True, help="the commit the row cites (one per --repo)")
    args = ap.parse_args(argv)
    import torch

    out: Dict[str, Any] = {"torch": torch.__version__, "shapes": [list(s) for s in SHAPES],
                           "torch_adamw_foreach_false": step_peak(
                               lambda ps: torch.optim.AdamW(ps, lr=1e-3, weight_decay=0.01, foreach=False)),
                           "staff": []}
    for repo, commit in zip(args.repo, args.commit):
        cls, md5 = staff_optimizer(repo, commit)
        res = step_peak(lambda ps, cls=cls: cls(ps, lr=1e-3, weight_decay=0.01))
        out["staff"].append({"repo": Path(repo).parent.name if repo.endswith("/repo") else repo, "commit": commit,
                             "md5": md5, **res})
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
