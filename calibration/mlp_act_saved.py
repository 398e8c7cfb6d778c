"""Tensors a GPT-2 MLP keeps for backward, by ``activation_function`` (CPU, random weights).

Builds transformers' own ``GPT2MLP`` (``c_fc`` -> ``ACT2FN[config.activation_function]`` ->
``c_proj`` -> dropout with p = 0) for each activation name, runs one training forward under
``torch.autograd.graph.saved_tensors_hooks`` and sums the distinct storages saved that are not
parameters and not the MLP's own input (``c_fc``'s saved input is counted by the estimator's
caller). The figure is in units of one MLP-width tensor (tokens x 4 x hidden x element size):
what ``preflight/estimate/activations._mlp`` charges per token and element (constants
``PLAIN_MLP_SAVED``, ``PY_GELU_MLP_SAVED``, ``MLP_ACT_SAVED``). Also with ``c_proj`` frozen
(its input, the activation's output, is then not saved by it).

Run with the installed transformers and torch (the dev environment)::

    python -m calibration.mlp_act_saved --out calibration/data/mlp_act_saved.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

ACTS = ("gelu", "gelu_pytorch_tanh", "gelu_new", "gelu_fast", "gelu_python", "gelu_python_tanh",
        "gelu_accurate", "quick_gelu", "relu", "silu", "swish")


def measure(act: str, dtype_name: str, proj_trains: bool = True, tokens: int = 64,
            hidden: int = 32) -> dict[str, Any]:
    import torch
    from transformers import GPT2Config
    from transformers.models.gpt2.modeling_gpt2 import GPT2MLP

    dtype = getattr(torch, dtype_name)
    cfg = GPT2Config(n_embd=hidden, activation_function=act, resid_pdrop=0.0)
    mlp = GPT2MLP(4 * hidden, cfg).to(dtype)
    if not proj_trains:
        mlp.c_proj.weight.requires_grad_(False)
        mlp.c_proj.bias.requires_grad_(False)
    x = torch.randn(1, tokens, hidden, dtype=dtype, requires_grad=True)
    params = {p.untyped_storage().data_ptr() for p in mlp.parameters()}
    seen: dict[int, int] = {}

    def pack(t: Any) -> Any:
        ptr = t.untyped_storage().data_ptr()
        if ptr not in params and ptr != x.untyped_storage().data_ptr():
            seen[ptr] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        mlp(x).sum()
    unit = tokens * 4 * hidden * torch.empty((), dtype=dtype).element_size()
    return {"act": act, "dtype": dtype_name, "proj_trains": proj_trains,
            "saved_bytes": sum(seen.values()), "mlp_width_units": sum(seen.values()) / unit}


def main() -> None:
    import torch
    import transformers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [measure(a, d, p) for a in ACTS for d in ("float32", "bfloat16") for p in (True, False)]
    for r in rows:
        print(f"{r['act']:20s} {r['dtype']:9s} proj_trains={r['proj_trains']!s:5s} "
              f"{r['mlp_width_units']:.3f}")
    if args.out:
        args.out.write_text(json.dumps({"transformers": transformers.__version__,
                                        "torch": torch.__version__, "rows": rows}, indent=1) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
