"""Writes calibration/public/devset.json: the public measured peaks as transcribed by hand
from the sources named in SOURCES (URLs with pinned commits). Run: python calibration/public/build_devset.py

The rows live in devset_sources/, one module per source document: core.py holds the byte units,
``rows`` with ``add`` (one row) and the Hugging Face configs with ``model``; litgpt.py, hf_perf.py,
torchtune.py and peft.py the rows of each source. This file imports them in the order of MODULES
(the row order of devset.json), then adds SOURCES, the split and writes the file. A new source: a
module in devset_sources/ (``from .core import add, model``, ``S = "<source id>"``, its add(...)
calls), appended to MODULES, with its entry in SOURCES."""

import hashlib
import importlib
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from devset_sources.core import rows  # noqa: E402  (devset_sources/ is found through HERE)

#: the source modules of devset_sources/, in row order (each appends its rows through add when imported)
MODULES = ("litgpt", "hf_perf", "torchtune", "peft")
for _name in MODULES:
    importlib.import_module(f"devset_sources.{_name}")

SOURCES = {
    **{
        f"litgpt-resource-tables-{t}": {
            "url": "https://github.com/Lightning-AI/litgpt/blob/26857050fe3ff627cd714fe92f5838f51a3d5efa/tutorials/resource-tables.md#"
            + a,
            "versions": {
                "litgpt": "commit 8641822",
                "torch": "2.1.0+cu121",
                "bitsandbytes": "0.41.1",
            },
            "date": "2023-10-20",
        }
        for t, a in (
            ("lora-1gpu", "finetuning-with-lora-on-1-gpu"),
            ("lora-multigpu", "finetuning-with-lora-on-multiple-gpus"),
            ("generate", "single-gpu-inference"),
        )
    },
    "hf-perf-train-gpu-one": {
        "url": "https://huggingface.co/docs/transformers/v4.21.0/perf_train_gpu_one",
        "versions": {"transformers": "4.18-4.21", "torch": "<2.0 (not stated)"},
        "date": "2022",
    },
    "torchtune-readme": {
        "url": "https://github.com/pytorch/torchtune/blob/bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1/README.md#memory-and-training-speed",
        "versions": {"torch": "2.5-2.6 (README: tested with the latest stable)"},
        "date": "2024-2025",
    },
    "torchtune-readme-3b-levers": {
        "url": "https://github.com/pytorch/torchtune/blob/bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1/README.md#optimization-flags",
        "versions": {"torch": "2.5-2.6"},
        "date": "2024-2025",
    },
    "peft-readme": {
        "url": "https://github.com/huggingface/peft/blob/5de175184372bfc940d499d6723d4cef385b938e/README.md",
        "versions": {"peft": "0.1 (Dec 2022)", "torch": "1.13 (not stated)"},
        "date": "2022-12",
    },
    "peft-docs-deepspeed": {
        "url": "https://github.com/huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/docs/source/accelerate/deepspeed.md",
        "versions": {
            "bitsandbytes": ">=0.43.3",
            "accelerate": ">=1.0.1",
            "transformers": ">4.44.2",
            "trl": ">0.11.4",
            "peft": ">0.13.0",
        },
        "date": "2024",
    },
    "peft-docs-fsdp": {
        "url": "https://github.com/huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/docs/source/accelerate/fsdp.md",
        "versions": {
            "bitsandbytes": ">=0.43.3",
            "accelerate": ">=1.0.1",
            "transformers": ">4.44.2",
            "trl": ">0.11.4",
            "peft": ">0.13.0",
        },
        "date": "2024",
    },
    "peft-metamathqa": {
        "url": "https://github.com/huggingface/peft/tree/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/method_comparison/MetaMathQA/results",
        "versions": {"torch": "2.13.0+cu130", "transformers": "5.13.1", "peft": "0.19.2.dev0"},
        "date": "2026-07",
    },
}
for r in rows:
    # a job the source says was compiled: the estimator's interval allows for it
    if "torch.compile" in r.get("unmodelled", ()):
        r["setup"]["compiled"] = True
counts = Counter(r["source"] for r in rows)
order = sorted(counts, key=lambda k: (-counts[k], hashlib.sha256(k.encode()).hexdigest()))
half = {"held-out": 0, "fit": 0}
assign = {}
for k in order:
    side = "held-out" if half["held-out"] <= half["fit"] else "fit"
    assign[k] = side
    half[side] += counts[k]
for r in rows:
    r["split"] = assign[r["source"]]
doc = {
    "version": 1,
    "about": "Public measured GPU peak-memory rows for the estimator's out-of-sample check. Each row: the job as published (setup: EstimateInput field names plus model/hf_config, loss, task, zero_grad_keeps, torch_version, optimizer_in_backward, activation_offload), what was measured (max_memory_allocated, peak_memory_active, memory_reserved, nvidia-smi), the GPU, and 'outcome' (ran or oom). 'unmodelled' names what the job did that the estimator has no term for. Values transcribed from the sources by hand; assumptions are in 'notes'.",
    "split_rule": "By source (one published table = one source), decided before any estimate was computed: sources in descending row count (ties broken by sha256 of the source id) go one by one to the half with fewer rows so far, the held-out half first on a tie; every row of a source lands in the same half. Tables of one document (litgpt) share its conventions, so that document is not fully independent across halves. Constants may be fitted only on rows with split 'fit'.",
    "sources": SOURCES,
    "rows": rows,
}
with open(Path(__file__).resolve().parent / "devset.json", "w", encoding="utf-8") as out:
    json.dump(doc, out, indent=1)
print(len(rows))
print(Counter((r["source"], r["split"]) for r in rows))
print(Counter(r["split"] for r in rows))
