"""``preflight fit``: catalog models in-process (no network allowed), Hub models through the real
huggingface_hub client against the local Hub stand-in, in a subprocess with a socket guard."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Mapping

import pytest
from hubserver import HubServer
from test_hub import QUANT_CONFIGS, llama_tensors, public, quantize, shard

REPO = Path(__file__).resolve().parent.parent
HUBSERVER = str(Path(__file__).resolve().parent / "hubserver.py")
VERDICTS = {"fits", "tight", "likely-oom", "oom", "unknown"}
GIB = 1024 ** 3


@pytest.fixture
def no_network(monkeypatch):
    """Any connection or name lookup fails the test (catalog answers must stay local)."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")


# --------------------------------------------------------------------------- catalog models


def test_catalog_model_table_without_network(cli, no_network):
    r = cli("fit", "meta-llama/Meta-Llama-3-8B", "--gpu", "t4", "--gpu", "a100-80gb", "--gpu", "h200")
    assert r.code == 0, r.err
    assert "Model: Llama-3-8B (built-in catalog)" in r.out
    lines = r.out.splitlines()
    header = next(line for line in lines if line.startswith("Peak per GPU"))
    assert header.split()[-5:] == ["inference", "generation", "LoRA", "QLoRA", "full-AdamW"]
    # (a cell whose peak differs from the one-GPU row shows it in parentheses: on a T4, bf16
    # SDPA runs its math path)
    rows = {line.split()[0]: [w for w in line.split() if not w.startswith("(")][-5:]
            for line in lines if line.startswith(("T4", "A100", "H200"))}
    # 8B in bf16 (16 GB of weights) does not fit a 16 GB T4; QLoRA's estimate does (12.6 GiB),
    # but not its interval's top: on a T4 SDPA runs its math path, and the blocks the step frees
    # may stay reserved (up to STEP_CACHE_HI of its transient tensors), so it is tight. AdamW
    # in full needs 16 bytes per parameter (128 GB) plus temporaries: more than one A100-80GB
    # or H200.
    assert rows["T4-16GB"] == ["oom", "oom", "oom", "tight", "oom"]
    assert rows["A100-SXM-80GB"][:4] == ["fits"] * 4 and rows["A100-SXM-80GB"][4] == "oom"
    assert rows["H200-141GB"][4] == "oom"


def test_one_answer_lists_remediations_and_exits_1_when_it_does_not_fit(cli, no_network):
    r = cli("fit", "Llama-3-8B", "--mode", "full", "--gpu", "a100-80gb")
    assert r.code == 1
    assert "Target: A100-SXM-80GB" in r.out and ": oom" in r.out
    assert "Changes that reduce the peak" in r.out and "QLoRA" in r.out
    ok = cli("fit", "Llama-3-8B", "--mode", "qlora", "--gpu", "l4")
    assert ok.code == 0 and ": fits" in ok.out


def test_one_answer_json_follows_the_estimate_contract(cli, no_network):
    r = cli("fit", "Llama-3-8B", "--mode", "lora", "--gpu", "l4", "--format", "json")
    doc = json.loads(r.out)
    for key in ("version", "peak_bytes", "interval_bytes", "phase", "breakdown", "plan", "gpu",
                "verdict", "remediations"):
        assert key in doc
    assert doc["version"] == 1 and doc["verdict"] in VERDICTS
    lo, hi = doc["interval_bytes"]
    assert lo <= doc["peak_bytes"] <= hi
    assert doc["plan"]["lora_r"]["value"] == 16 and doc["plan"]["mode"]["value"] == "train"
    assert doc["fit"]["mode"] == "lora" and doc["fit"]["model"]["origin"] == "catalog"
    for rem in doc["remediations"]:
        assert {"changes", "saved_bytes", "new_peak_bytes", "fits"} <= set(rem)
    assert r.code == (1 if doc["verdict"] in ("oom", "likely-oom") else 0)


def test_table_json_cells_agree_with_the_estimates(cli, no_network):
    r = cli("fit", "Qwen2.5-0.5B", "--gpu", "t4", "--gpu", "g4dn.12xlarge", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    assert doc["modes"] == ["infer", "generate", "lora", "qlora", "full"]
    assert [t["name"] for t in doc["targets"]] == ["T4-16GB", "g4dn.12xlarge"]
    assert len(doc["cells"]) == 10
    for cell in doc["cells"]:
        assert cell["verdict"] in VERDICTS
        single = doc["estimates"][cell["mode"]]["peak_bytes"]
        if cell["target"] == "T4-16GB" and single is not None:
            # a T4 has no bf16 kernels: bf16 SDPA takes the math path, never less memory; its
            # context is smaller than the unknown GPU's (40 SMs x 1024 threads, est30)
            from preflight.estimate import constants as C
            from preflight.estimate.gpu_facts import lazy_context

            smaller_context = C.CUDA_CONTEXT_BYTES - lazy_context(40 * 1024)[0]
            assert cell["peak_bytes"] + smaller_context >= single
    # A 4-GPU instance splits inference weights over its GPUs: less per GPU than one GPU.
    infer = {c["target"]: c["peak_bytes"] for c in doc["cells"] if c["mode"] == "infer"}
    assert infer["g4dn.12xlarge"] < infer["T4-16GB"]
    # ... and a full fine-tune shards over them (ZeRO-3): less per GPU too.
    full = {c["target"]: c["peak_bytes"] for c in doc["cells"] if c["mode"] == "full"}
    assert full["g4dn.12xlarge"] < full["T4-16GB"]


def test_cheapest_lists_what_fits_cheapest_first(cli, no_network):
    r = cli("fit", "Llama-3-8B", "--mode", "qlora", "--cheapest", "--format", "json")
    assert r.code == 0
    (entry,) = json.loads(r.out)["cheapest"]
    prices = [i["hourly_usd"] for i in entry["instances"]]
    assert prices and prices == sorted(prices)
    assert all(i["verdict"] in ("fits", "tight") for i in entry["instances"] + entry["gpus"])
    memories = [g["memory_bytes"] for g in entry["gpus"]]
    assert memories == sorted(memories)
    assert min(memories) >= entry["peak_bytes"] * 0.9
    text = cli("fit", "Llama-3-8B", "--mode", "qlora", "--cheapest")
    assert "instances, cheapest first:" in text.out


def test_cheapest_among_the_given_targets(cli, no_network):
    r = cli("fit", "Llama-3-8B", "--mode", "lora", "--cheapest", "--gpu", "t4", "--gpu", "l40s",
            "--gpu", "g4dn.xlarge", "--format", "json")
    (entry,) = json.loads(r.out)["cheapest"]
    assert [g["name"] for g in entry["gpus"]] == ["L40S-48GB"]   # a 16 GB T4 is too small for bf16 LoRA
    assert entry["instances"] == []                              # g4dn.xlarge is one T4
    assert r.code == 0


def test_cheapest_exits_1_when_nothing_fits(cli, no_network):
    r = cli("fit", "Llama-3.1-405B", "--mode", "full", "--cheapest")
    assert r.code == 1
    assert "nothing in the catalog fits" in r.out


def test_vision_model_has_no_generation(cli, no_network):
    r = cli("fit", "google/vit-base-patch16-224", "--gpu", "t4", "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    gen = next(c for c in doc["cells"] if c["mode"] == "generate")
    assert gen["peak_bytes"] is None and "does not generate" in gen["note"]


@pytest.mark.parametrize("args, message", [
    (["--gpu", "no-such-gpu"], "unknown GPU or instance"),
    (["--context", "512", "--new-tokens", "512"], "--new-tokens"),
    (["--batch-size", "0"], "--batch-size"),
])
def test_usage_errors_exit_2_with_one_line(cli, no_network, args, message):
    r = cli("fit", "Llama-3-8B", *args)
    assert r.code == 2
    assert message in r.err and len(r.err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- Hub models


@pytest.fixture
def hub():
    with HubServer() as server:
        yield server


@pytest.fixture
def hf_env(tmp_path, hub) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HF_", "HUGGINGFACE_")) and k != "TRANSFORMERS_OFFLINE"}
    env.update(HF_ENDPOINT=hub.url, HF_HOME=str(tmp_path / "hf-home"), HF_HUB_DISABLE_TELEMETRY="1",
               HUBSERVER_BLOCKED_LOG=str(tmp_path / "blocked.log"), NO_COLOR="1", PYTHONPATH=str(REPO))
    env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
    return env


def fit(env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, HUBSERVER, "fit", *args], env=dict(env), cwd=str(REPO),
                          capture_output=True, text=True, timeout=120)
    blocked = Path(env["HUBSERVER_BLOCKED_LOG"])
    assert not blocked.exists(), f"a connection outside 127.0.0.1 was attempted: {blocked.read_text()}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_hub_model_table_uses_exact_safetensors_counts(hub, hf_env):
    m = public("mistralai/Mixtral-8x7B-v0.1")
    hub.add_model("someone/mixtral-finetune", m.config, shards=shard(llama_tensors(m.config), 4))
    p = fit(hf_env, "someone/mixtral-finetune", "--gpu", "h100", "--gpu", "mi300x")
    assert p.returncode == 0, p.stderr
    assert "Model: someone/mixtral-finetune @ main (commit" in p.stdout
    assert "46.70B parameters (exact, from the safetensors headers), 12.88B active per token" in p.stdout
    verdicts = ("fits", "tight", "likely-oom", "oom")
    rows = {line.split()[0]: [t for t in line.split() if t in verdicts] for line in p.stdout.splitlines()
            if line.startswith(("H100", "MI300X"))}
    assert rows["H100-SXM-80GB"][0] == "oom"        # 93 GB of bf16 weights
    assert rows["MI300X-192GB"][0] == "fits"
    # a target's own peak is shown where it differs from one unknown GPU's: what a job holds outside
    # the allocator depends on the GPU (an H100's 132 SMs), not on an AMD GPU's (not modelled)
    lines = {line.split()[0]: line for line in p.stdout.splitlines() if line.startswith(("H100", "MI300X"))}
    assert "oom (90.1)" in lines["H100-SXM-80GB"]
    assert "(" not in lines["MI300X-192GB"].split("GiB)")[1]


def test_offline_from_a_warm_cache_equals_online(hub, hf_env):
    m = public("Qwen/Qwen1.5-MoE-A2.7B")
    hub.add_model("someone/qwen-moe", m.config, shards=shard(llama_tensors(m.config), 2))
    online = fit(hf_env, "someone/qwen-moe", "--gpu", "l4", "--format", "json")
    asked = len(hub.requests)
    offline = fit(dict(hf_env, HF_HUB_OFFLINE="1"), "someone/qwen-moe", "--gpu", "l4", "--format", "json")
    flag = fit(hf_env, "someone/qwen-moe", "--gpu", "l4", "--format", "json", "--offline")
    down = fit(dict(hf_env, HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}"), "someone/qwen-moe",
               "--gpu", "l4", "--format", "json")
    assert len(hub.requests) == asked
    docs = [json.loads(p.stdout) for p in (online, offline, flag, down)]
    assert docs[0]["model"]["hub"]["from_cache"] is False
    assert all(d["model"]["hub"]["from_cache"] is True for d in docs[1:])
    for d in docs:
        d["model"]["hub"].pop("from_cache")
    assert docs[0] == docs[1] == docs[2] == docs[3]
    assert docs[0]["model"]["params_total"] == m.published


def test_prequantized_checkpoint_is_estimated_quantized(hub, hf_env):
    base = public("meta-llama/Llama-2-7b-hf")
    hub.add_model("someone/llama-2-7b-plain", base.config, shards=shard(llama_tensors(base.config, "F16"), 2))
    hub.add_model("someone/llama-2-7b-gptq", dict(base.config, quantization_config=QUANT_CONFIGS["gptq"]),
                  shards=shard(quantize(llama_tensors(base.config, "F16"), "gptq"), 2))
    runs = fit_batch(hf_env, ["someone/llama-2-7b-plain", "--gpu", "t4", "--format", "json"],
                     ["someone/llama-2-7b-gptq", "--gpu", "t4", "--format", "json"],
                     ["someone/llama-2-7b-gptq", "--gpu", "t4"])  # one subprocess, not three
    assert all("Traceback" not in run["err"] for run in runs), runs
    plain, gptq = (json.loads(run["out"]) for run in runs[:2])
    assert gptq["model"]["params_total"] == plain["model"]["params_total"] == base.published
    assert gptq["model"]["quantized"] == "4bit"
    assert gptq["estimates"]["infer"]["peak_bytes"] < 0.5 * plain["estimates"]["infer"]["peak_bytes"]
    full = [c for c in gptq["cells"] if c["mode"] == "full"]
    assert full[0]["peak_bytes"] is None and "pre-quantized" in full[0]["note"]
    text = runs[2]["out"]
    assert "pre-quantized 4bit" in text and "gptq" in text


def fit_batch(env: Mapping[str, str], *command_lines: List[str]) -> List[dict]:
    """Several ``preflight fit`` runs in one subprocess (same environment)."""
    spec = json.dumps([["fit", *argv] for argv in command_lines])
    proc = subprocess.run([sys.executable, HUBSERVER, "--cli-batch", spec], env=dict(env), cwd=str(REPO),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    blocked = Path(env["HUBSERVER_BLOCKED_LOG"])
    assert not blocked.exists(), f"a connection outside 127.0.0.1 was attempted: {blocked.read_text()}"
    return json.loads(proc.stdout)


def assert_one_error_line(result: dict, code: int, words: str) -> None:
    assert result["code"] == code, result
    assert result["out"] == ""
    assert result["err"].startswith("preflight: error: ") and words in result["err"], result["err"]
    assert len(result["err"].strip().splitlines()) == 1 and "Traceback" not in result["err"]


def test_hub_failures_give_one_message_and_a_documented_exit_code(hub, hf_env):
    cfg = public("Qwen/Qwen2.5-0.5B").config
    hub.add_model("org/gated", cfg, tensors=llama_tensors(cfg), gated=True)
    hub.add_model("org/open", cfg, tensors=llama_tensors(cfg))
    hub.add_model("org/exotic", {"model_type": "brand_new_arch", "hidden_size": 8})
    cases = [
        (["org/missing"], 3, "no such model"),
        (["org/gated"], 3, "is gated"),
        (["org/../etc"], 2, "is not a Hugging Face model id"),
        (["org/open", "--revision", "nope"], 3, "revision 'nope' does not exist"),
        (["org/exotic"], 3, "not supported"),
        (["org/open", "--offline"], 3, "not in the Hugging Face cache"),
    ]
    for result, (_, code, words) in zip(fit_batch(hf_env, *[c[0] for c in cases]), cases):
        assert_one_error_line(result, code, words)
    (down,) = fit_batch(dict(hf_env, HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}"), ["org/open"])
    assert_one_error_line(down, 3, "cannot reach")


def test_token_canary_never_appears_in_output(hub, hf_env):
    canary = "hf_CANARY_fit_never_print_91b2"
    cfg = public("Qwen/Qwen2.5-0.5B").config
    hub.add_model("org/private", cfg, tensors=llama_tensors(cfg), private=True)
    denied = fit(dict(hf_env, HF_TOKEN=canary), "org/private", "--format", "json")
    assert denied.returncode == 3
    assert canary not in denied.stdout + denied.stderr
    hub.token = canary  # now the canary is the token that can read it
    allowed = fit(dict(hf_env, HF_TOKEN=canary), "org/private", "--format", "json")
    assert allowed.returncode == 0, allowed.stderr
    assert canary not in allowed.stdout + allowed.stderr
    assert json.loads(allowed.stdout)["model"]["params_total"] == 494_032_768


def test_revision_flag_pins_a_commit_even_for_a_catalog_id(hub, hf_env):
    """--revision always reads the Hub (the catalog describes main only)."""
    cfg = dict(public("Qwen/Qwen2.5-0.5B").config, num_hidden_layers=4)
    commit = hub.add_model("Qwen/Qwen2.5-0.5B", cfg, tensors=llama_tensors(cfg))
    p = fit(hf_env, "Qwen/Qwen2.5-0.5B", "--revision", commit, "--format", "json")
    doc = json.loads(p.stdout)
    assert doc["model"]["origin"] == "hub" and doc["model"]["hub"]["commit"] == commit
    assert doc["model"]["params_total"] < 494_032_768
    catalog = json.loads(fit(hf_env, "Qwen/Qwen2.5-0.5B", "--format", "json").stdout)
    assert catalog["model"]["origin"] == "catalog"


def test_estimate_online_reads_the_hub_through_preflight_hub(hub, hf_env):
    """The estimator's --online path resolves Hub ids with preflight.hub (cache first)."""
    m = public("Qwen/Qwen1.5-MoE-A2.7B")
    hub.add_model("someone/moe-for-estimate", m.config, shards=shard(llama_tensors(m.config), 2))
    args = ["estimate", "--model", "someone/moe-for-estimate", "--seq-len", "512", "--format", "json"]

    def batch(*command_lines: List[str]) -> List[dict]:
        proc = subprocess.run([sys.executable, HUBSERVER, "--cli-batch", json.dumps(command_lines)],
                              env=dict(hf_env), cwd=str(REPO), capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    (not_asked,) = batch(args)
    assert not_asked["code"] == 3 and not_asked["err"].startswith("preflight: ")
    assert hub.requests == []   # no network unless asked
    (online,) = batch([*args, "--online"])
    doc = json.loads(online["out"])
    assert (doc["model"]["params_total"], doc["model"]["params_source"]) == (m.published, "safetensors")
    # Once cached, the Hub id answers without --online, from the cache: no request at all.
    asked = len(hub.requests)
    (cached,) = batch(args)
    assert json.loads(cached["out"])["model"]["params_total"] == m.published
    assert len(hub.requests) == asked


def test_lengths_beyond_the_model_positions_are_noted(cli, no_network):
    r = cli("fit", "GPT-2", "--gpu", "t4", "--context", "8192", "--format", "json")
    notes = {c["mode"]: c["note"] for c in json.loads(r.out)["cells"]}
    assert "--context 8192 is beyond the model's 1024 positions" in notes["generate"]
    assert notes["infer"] is None  # the default --seq-len is capped at the 1024 positions (issue 20)
    given = cli("fit", "GPT-2", "--gpu", "t4", "--seq-len", "2048", "--format", "json")
    notes = {c["mode"]: c["note"] for c in json.loads(given.out)["cells"]}
    assert "--seq-len 2048 is beyond" in notes["infer"]  # a value the user gave is kept, and noted
    ok = cli("fit", "GPT-2", "--gpu", "t4", "--seq-len", "1024", "--context", "1024", "--format", "json")
    assert all(c["note"] is None for c in json.loads(ok.out)["cells"])
