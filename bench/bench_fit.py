"""Wall time of ``preflight fit`` on a model the catalog lacks, from a warm Hugging Face cache.

A local Hub stand-in (``tests/hubserver.py``, 127.0.0.1) serves a sharded 13B Llama-shaped
model under an id no catalog has. One run fills a fresh ``HF_HOME``; then the full CLI
(``python -m preflight fit ...``, a new process each time: interpreter start-up, imports,
cache look-up, the estimates for five jobs x the default GPUs, the table) is timed from that
warm cache three ways: Hub up, ``HF_HUB_OFFLINE=1``, and the Hub down (closed port). Prints
the median and best of N runs each; the target is < 2 s.

    .venv/bin/python bench/bench_fit.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from hubserver import HubServer  # noqa: E402

MODEL_ID = "bench-org/llama-like-13b-not-in-any-catalog"
CONFIG: Dict[str, Any] = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 5120,
    "intermediate_size": 13824, "num_attention_heads": 40, "num_key_value_heads": 40,
    "num_hidden_layers": 40, "vocab_size": 32000, "max_position_embeddings": 4096,
    "rms_norm_eps": 1e-05, "tie_word_embeddings": False, "torch_dtype": "float16",
}


def tensors() -> dict:
    h, inter, vocab = CONFIG["hidden_size"], CONFIG["intermediate_size"], CONFIG["vocab_size"]
    t = {"model.embed_tokens.weight": ("F16", [vocab, h]), "lm_head.weight": ("F16", [vocab, h]),
         "model.norm.weight": ("F16", [h])}
    for i in range(CONFIG["num_hidden_layers"]):
        p = f"model.layers.{i}."
        for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
            t[p + f"self_attn.{name}.weight"] = ("F16", [h, h])
        t[p + "mlp.gate_proj.weight"] = ("F16", [inter, h])
        t[p + "mlp.up_proj.weight"] = ("F16", [inter, h])
        t[p + "mlp.down_proj.weight"] = ("F16", [h, inter])
        t[p + "input_layernorm.weight"] = ("F16", [h])
        t[p + "post_attention_layernorm.weight"] = ("F16", [h])
    return t


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_fit(env: dict) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "preflight", "fit", MODEL_ID], env=env, cwd=str(REPO),
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"fit failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    items = list(tensors().items())
    shards = [dict(items[i:i + 100]) for i in range(0, len(items), 100)]
    with tempfile.TemporaryDirectory() as home, HubServer() as hub:
        hub.add_model(MODEL_ID, CONFIG, shards=shards)
        env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
        env.update(HF_ENDPOINT=hub.url, HF_HOME=home, NO_COLOR="1")
        cold = run_fit(env)
        warm_requests = len(hub.requests)
        cases = {
            "warm cache, Hub up": env,
            "warm cache, HF_HUB_OFFLINE=1": dict(env, HF_HUB_OFFLINE="1"),
            "warm cache, Hub down": dict(env, HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}"),
        }
        print(f"preflight fit {MODEL_ID}  ({len(shards)} safetensors shards, {len(items)} tensors)")
        print(f"  cold cache (local Hub stand-in, {warm_requests} requests): {cold:.2f} s")
        for label, case_env in cases.items():
            times = [run_fit(case_env) for _ in range(args.runs)]
            print(f"  {label:<30} median {statistics.median(times):.2f} s, best {min(times):.2f} s "
                  f"({args.runs} runs)")
        extra = len(hub.requests) - warm_requests
        print(f"  requests to the Hub after the cache was warm: {extra}")
        baseline = [run_python_startup() for _ in range(3)]
        print(f"  (python -c pass on this machine: {min(baseline):.2f} s)")


def run_python_startup() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
