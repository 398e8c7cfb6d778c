"""est91: a PEFT-prepared bitsandbytes base trained without autocast computes its blocks in fp32.

The derivation has no fitted constant: it is a dtype (fp32, 4 bytes) read in the libraries' source, cited in
:data:`SOURCES` (library, tag, commit, file, line, the line). The chain:

1. PEFT's ``prepare_model_for_kbit_training`` (``prepare_model_for_int8_training`` before) casts every fp16 / bf16
   parameter that is not quantized to fp32: the embeddings, the norms, the LM head.
2. transformers' ``LlamaRMSNorm`` returns ``self.weight * hidden_states.to(input_dtype)``: an fp32 weight times the
   fp32 residual stream (the embedding's output) is fp32, so every 8-bit / 4-bit linear reads an fp32 input.
3. bitsandbytes returns its output in its input's dtype: ``MatMul8bitLt.forward`` ``output = output.to(A.dtype)``
   (the igemmlt path of Turing and later) or ``F.linear(A_wo_outliers, state.CB.to(A.dtype))`` (before Turing);
   ``Linear4bit.forward`` ``out = out.to(inp_dtype)``, and from 0.41.0 ``set_compute_type`` makes an fp32 input the
   4-bit layer's compute dtype.
4. So q, k, v, the attention's scores and softmax, the attention output, the MLP's gate / up / activation / product
   are fp32 (4 bytes), where the estimator took the loaded dtype's 2 bytes. Autocast (``amp-*``) changes that (the
   matmuls run in 16 bits: est56's ``kbit_fp32_stream``), and so does DeepSpeed's fp16 / bf16 engine, which casts
   the upcast parameters back (``terms_sharded.deepspeed_casts_params``).

The script prints, for every training row of the public splits with a PEFT-prepared bitsandbytes base, the
estimate with the term (the estimator as it is) and without it (``kbit_fp32_compute`` forced off), and writes both
with the sources to ``calibration/data/est91_kbit_fp32.json``. No GPU, no measurement of its own: the measured
figures are the rows' own labels.

Usage::

    .venv/bin/python calibration/est91_kbit_fp32.py [--out calibration/data/est91_kbit_fp32.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import public_accuracy as pa  # noqa: E402

SOURCES: List[Dict[str, Any]] = [
    {"library": "peft", "tag": "v0.4.0", "file": "src/peft/utils/other.py", "line": 81,
     "text": "param.data = param.data.to(torch.float32)",
     "note": "prepare_model_for_kbit_training, for every param of dtype float16 or bfloat16 (line 80)"},
    {"library": "peft", "tag": "v0.10.0", "file": "src/peft/utils/other.py", "line": 109,
     "text": "param.data = param.data.to(torch.float32)", "note": "the same, unless GPTQ / AQLM (line 103)"},
    {"library": "peft", "tag": "v0.17.0", "file": "src/peft/utils/other.py", "line": 156,
     "text": "param.data = param.data.to(torch.float32)", "note": "the same"},
    {"library": "transformers", "tag": "LlamaRMSNorm (every 4.x release)", "file": "models/llama/modeling_llama.py",
     "text": "return self.weight * hidden_states.to(input_dtype)",
     "note": "an fp32 weight times an fp32 stream: the norm output every projection reads is fp32"},
    {"library": "bitsandbytes", "tag": "0.37.0", "file": "bitsandbytes/autograd/_functions.py", "line": 381,
     "text": "output = output.to(A.dtype)", "note": "MatMul8bitLt.forward, igemmlt path; line 390 the pre-Turing "
                                                    "path F.linear(A_wo_outliers, state.CB.to(A.dtype))"},
    {"library": "bitsandbytes", "tag": "0.39.1", "commit": "4395d68cf6beda911c1c3e5633debf15652e2902",
     "file": "bitsandbytes/autograd/_functions.py", "line": 404, "text": "output = output.to(A.dtype)"},
    {"library": "bitsandbytes", "tag": "0.41.0", "commit": "a06a0f6a08cb23754b110359a109e069fa97ce9e",
     "file": "bitsandbytes/autograd/_functions.py", "line": 405, "text": "output = output.to(A.dtype)",
     "note": "line 414 the pre-Turing path (a V100: supports_igemmlt is False below compute capability 7.5)"},
    {"library": "bitsandbytes", "tag": "0.44.1", "file": "bitsandbytes/autograd/_functions.py", "line": 399,
     "text": "output = output.to(A.dtype)"},
    {"library": "bitsandbytes", "tag": "0.45.0", "commit": "64d382da786ad2dd51337496f35a6b516a695352",
     "file": "bitsandbytes/autograd/_functions.py", "line": 373,
     "text": "output = F.int8_mm_dequant(out32, SCA, state.SCB, bias=bias).to(A.dtype)"},
    {"library": "bitsandbytes", "tag": "0.39.1", "file": "bitsandbytes/nn/modules.py", "line": 221,
     "text": "out = out.to(inp_dtype)", "note": "Linear4bit.forward (line 216 x = x.to(self.compute_dtype))"},
    {"library": "bitsandbytes", "tag": "0.41.0", "file": "bitsandbytes/nn/modules.py", "line": 212,
     "text": "if x.dtype in [torch.float32, torch.bfloat16]:",
     "note": "Linear4bit.set_compute_type: self.compute_dtype = x.dtype (line 215); line 250 out = out.to(inp_dtype);"
             " the same in 0.43.1 (411-415, 470), 0.44.1 (437-441, 486), 0.45.0 (436-440)"},
]


def _rows() -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    seen = set()
    files = [("fit/held-out", pa.DEVSET), *pa.SPLIT_FILES.items()]
    for name, path in files:
        if str(path) in seen:
            continue
        seen.add(str(path))
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        for row in (data["rows"] if isinstance(data, dict) else data):
            s = row["setup"]
            if s.get("quant") and s.get("kbit_prepared") and s.get("mode", "train") == "train":
                out.append(dict(row, _split=name))
    return out


def _score(row: Dict[str, Any]) -> Dict[str, Any]:
    res = pa.evaluate(row)
    return {"estimate_gib": None if res.estimate is None else round(res.estimate / 2 ** 30, 3),
            "error": None if res.error is None else round(res.error, 4), "verdict": res.verdict}


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "calibration" / "data" / "est91_kbit_fp32.json"))
    args = ap.parse_args(argv)
    from preflight.estimate import quant_autocast as QA
    table = []
    for row in _rows():
        with_term = _score(row)
        with mock.patch.object(QA, "kbit_fp32_compute", lambda inp: False):
            without = _score(row)
        s = row["setup"]
        table.append({"split": row["_split"], "id": row["id"], "precision": s.get("precision"),
                      "quant": s.get("quant"), "zero_stage": s.get("zero_stage", 0),
                      "measured_gib": round((row.get("peak_bytes") or 0) / 2 ** 30, 3),
                      "term_applies": bool(QA.kbit_fp32_compute(pa.estimate_input(s, None)[0])),
                      "without_term": without, "with_term": with_term})
    for t in table:
        e0, e1 = t["without_term"]["error"], t["with_term"]["error"]
        print(f"{t['split']:12s} {t['precision']!s:9s} {t['quant']:5s} applies={t['term_applies']!s:5s} "
              f"{'' if e0 is None else f'{e0 * 100:+6.1f}%':>8s} -> {'' if e1 is None else f'{e1 * 100:+6.1f}%':>8s}  "
              f"{t['id'][:90]}")
    Path(args.out).write_text(json.dumps({"about": __doc__.split("\n\n")[0], "sources": SOURCES, "rows": table},
                                         indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
