"""``preflight estimate``: flags, the plan built from a script and configs, the JSON contract,
exit codes, the estimate inside ``audit``, and no torch / no network."""

from __future__ import annotations

import json
import textwrap

import pytest
from conftest import run_subprocess, write

from preflight import hardware
from preflight.estimate import EstimateInput, estimate, resolve_architecture, verdict

TRAIN = """\
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("meta-llama/Meta-Llama-3-8B")
tokenizer = AutoTokenizer.from_pretrained("meta-llama/Meta-Llama-3-8B")
args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True,
                         gradient_checkpointing=True, deepspeed="ds.json")


def encode(batch):
    return tokenizer(batch["text"], max_length=2048, padding="max_length", truncation=True)


Trainer(model=model, args=args).train()
"""
DS = '{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 3, ' \
     '"offload_optimizer": {"device": "cpu"}}, "bf16": {"enabled": "auto"}}'


def _json(result) -> dict:
    return json.loads(result.out)


def test_full_finetune_7b_json_contract_and_exit_1(cli):
    r = cli("estimate", "--model", "llama-2-7b", "--seq-len", "2048", "--batch-size", "1",
            "--gpu", "a100-80gb", "--format", "json")
    assert r.code == 1, r.err
    doc = _json(r)
    assert doc["version"] == 1
    assert {"peak_bytes", "interval_bytes", "phase", "breakdown", "plan", "gpu", "verdict",
            "remediations"} <= set(doc)
    assert doc["verdict"] == "oom"
    lo, hi = doc["interval_bytes"]
    assert lo <= doc["peak_bytes"] <= hi
    assert doc["peak_bytes"] == sum(doc["breakdown"].values())
    params = doc["model"]["params_total"]
    assert params == resolve_architecture("llama-2-7b").params_total
    assert doc["model"]["params_source"] == "catalog"
    b = doc["breakdown"]
    assert (b["weights"] + b["gradients"] + b["optimizer_states"]) == 16 * params
    assert doc["gpu"]["memory_bytes"] == hardware.find("a100-80gb").memory_bytes
    assert doc["plan"]["seq_len"] == {"value": 2048, "source": "cli"}
    assert doc["plan"]["optimizer"]["source"] == "default"
    rem = doc["remediations"]
    assert rem and {"changes", "saved_bytes", "new_peak_bytes", "fits"} <= set(rem[0])
    assert any(x["fits"] for x in rem)
    for x in rem:
        assert x["new_peak_bytes"] == doc["peak_bytes"] - x["saved_bytes"]


def test_qlora_8b_fits_a_24gb_card_exit_0(cli):
    r = cli("estimate", "--model", "meta-llama/Meta-Llama-3-8B", "--seq-len", "2048",
            "--batch-size", "1", "--precision", "bf16", "--quant", "4bit", "--lora-r", "16",
            "--gpu", "rtx-4090", "--grad-ckpt")
    assert r.code == 0, r.out + r.err
    assert "Peak per GPU:" in r.out and ": fits" in r.out
    assert "gradient checkpointing" in r.out  # the QLoRA recipes' default
    # without checkpointing bitsandbytes' 4-bit matmuls keep every input: close to 24 GB
    tight = cli("estimate", "--model", "meta-llama/Meta-Llama-3-8B", "--seq-len", "2048",
                "--batch-size", "1", "--precision", "bf16", "--quant", "4bit", "--lora-r", "16",
                "--gpu", "rtx-4090")
    assert ": fits" not in tight.out and "enable gradient checkpointing" in tight.out


def test_plan_from_script_and_deepspeed_config(cli, tmp_path):
    write(tmp_path / "train.py", TRAIN)
    write(tmp_path / "ds.json", DS)
    r = cli("estimate", "train.py", "--config", "ds.json", "--gpu", "p4d.24xlarge", "--format", "json")
    doc = _json(r)
    plan = doc["plan"]
    assert plan["model"]["value"] == "Llama-3-8B"
    assert plan["micro_batch"] == {"value": 4, "source": "train.py:5"}
    assert plan["seq_len"]["value"] == 2048 and plan["seq_len"]["source"].startswith("train.py:")
    assert plan["zero_stage"]["value"] == 3 and plan["offload_optimizer"]["value"] == "cpu"
    assert plan["grad_ckpt"]["value"] is True
    # an 8-GPU instance: the world size comes from it
    assert plan["world_size"] == {"value": 8, "source": "instance p4d.24xlarge (8 GPUs)"}
    assert doc["gpu"]["count"] == 8 and doc["gpu"]["instance"] == "p4d.24xlarge"
    assert "optimizer_states" not in doc["phases"]["optimizer"]  # offloaded to the CPU
    assert r.code == (1 if doc["verdict"] in ("oom", "likely-oom") else 0)


def test_missing_sequence_length_exits_3_and_names_it(cli):
    r = cli("estimate", "--model", "llama-2-7b", "--gpu", "a100-80gb")
    assert r.code == 3
    assert "data.seq_len (--seq-len)" in r.out
    assert cli("estimate", "--model", "llama-2-7b", "--allow-unknown").code == 0
    doc = _json(cli("estimate", "--model", "llama-2-7b", "--format", "json"))
    assert doc["verdict"] == "unknown" and doc["peak_bytes"] is None
    assert doc["missing"] == ["data.seq_len (--seq-len)"]


def test_hub_id_outside_the_catalog_needs_params_or_online(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    r = cli("estimate", "--model", "someone/unknown-model-xyz", "--seq-len", "512")
    assert r.code == 3
    assert "not in the catalog; pass --params or --online" in r.err
    r = cli("estimate", "--model", "no-such-model", "--seq-len", "512")
    assert r.code == 3 and "not in the catalog" in r.err


def test_params_alone_guesses_a_shape(cli):
    r = cli("estimate", "--params", "7B", "--seq-len", "1024", "--format", "json")
    assert r.code == 0
    doc = _json(r)
    assert doc["model"]["params_total"] == 7_000_000_000
    assert any("guessed" in n for n in doc["notes"])


@pytest.mark.parametrize("args, message", [
    (["--params", "seven"], "cannot read a parameter count"),
    (["--gpu", "no-such-gpu"], "unknown GPU or instance"),
    (["--batch-size", "0"], "--batch-size must be at least 1"),
])
def test_bad_flags_exit_2(cli, args, message):
    r = cli("estimate", "--model", "llama-2-7b", "--seq-len", "128", *args)
    assert r.code == 2
    assert message in r.err


def test_strict_turns_tight_into_exit_1(cli):
    """Find a sequence length whose verdict is 'tight' on an A100 40GB, then check both exits."""
    arch = resolve_architecture("llama-2-7b")
    gpu = hardware.find("a100-40gb")
    tight = None
    for seq in range(256, 16384, 64):
        inp = EstimateInput(arch=arch, precision="bf16", lora_r=16, seq_len=seq, micro_batch=4)
        if verdict(estimate(inp), gpu) == "tight":
            tight = seq
            break
    assert tight is not None
    args = ("estimate", "--model", "llama-2-7b", "--precision", "bf16", "--lora-r", "16",
            "--batch-size", "4", "--seq-len", str(tight), "--gpu", "a100-40gb")
    assert cli(*args).code == 0
    assert cli(*args, "--strict").code == 1


def test_generation_70b_32k_context(cli):
    r = cli("estimate", "--model", "llama-3-70b", "--mode", "generate", "--precision", "bf16",
            "--seq-len", "31744", "--max-new-tokens", "1024", "--gpu", "h100-80gb", "--format", "json",
            "--transformers-version", "4.46")
    doc = _json(r)
    assert r.code == 1 and doc["verdict"] == "oom"
    assert doc["phases"]["decode"]["kv_cache"] == 80 * 2 * 8 * 128 * 32768 * 2
    assert any(x["fits"] and "4 bits" in x["changes"][0] for x in doc["remediations"])
    # before 4.45 the first step's logits cover all 31,744 prompt positions: 24 GB more
    r = cli("estimate", "--model", "llama-3-70b", "--mode", "generate", "--precision", "bf16",
            "--seq-len", "31744", "--max-new-tokens", "1024", "--gpu", "h100-80gb", "--format", "json",
            "--transformers-version", "4.44")
    assert _json(r)["phases"]["head"]["logits_loss"] == 31744 * 128256 * (2 + 4)


def test_audit_shows_the_estimate_when_the_plan_allows_one(cli, tmp_path):
    write(tmp_path / "train.py", TRAIN)
    write(tmp_path / "ds.json", DS)
    r = cli("audit", "train.py", "--config", "ds.json", "--gpu", "a100-80gb", "--no-cache")
    assert "Memory estimate:" in r.out and "on A100-SXM-80GB:" in r.out
    doc = json.loads(cli("audit", "train.py", "--config", "ds.json", "--gpu", "a100-80gb",
                         "--no-cache", "--format", "json").out)
    assert doc["estimate"]["version"] == 1 and doc["estimate"]["gpu"]["name"] == "A100-SXM-80GB"
    write(tmp_path / "bare.py", "import torch\nmodel = torch.nn.Linear(2, 2)\n")
    r = cli("audit", "bare.py", "--no-cache")
    assert "Memory estimate:" not in r.out


POISON = """
import os
open(os.environ["PREFLIGHT_CANARY"], "a").write(__name__ + "\\n")
raise ImportError("preflight must not import " + __name__)
"""
SOCKET_GUARD = """
import os, socket
def _deny(*args, **kwargs):
    open(os.environ["PREFLIGHT_CANARY"], "a").write("network\\n")
    raise OSError("network access attempted")
socket.socket.connect = _deny
socket.create_connection = _deny
socket.getaddrinfo = _deny
"""


def test_estimate_imports_no_framework_and_touches_no_network(tmp_path):
    poison = tmp_path / "poison"
    frameworks = ("torch", "transformers", "lightning", "accelerate", "deepspeed", "peft",
                  "bitsandbytes")
    for name in frameworks:
        write(poison / name / "__init__.py", POISON)
    write(poison / "sitecustomize.py", SOCKET_GUARD)
    proj = tmp_path / "proj"
    write(proj / "train.py", TRAIN)
    write(proj / "ds.json", DS)
    canary = tmp_path / "canary.txt"
    script = textwrap.dedent(f"""
        import sys
        from preflight.cli import main
        runs = [
            ["estimate", "--model", "llama-3-8b", "--seq-len", "2048", "--gpu", "rtx-4090"],
            ["estimate", "--model", "llama-2-7b", "--seq-len", "2048", "--format", "json",
             "--gpu", "a100-80gb"],
            ["estimate", "train.py", "--config", "ds.json", "--gpu", "p4d.24xlarge"],
            ["estimate", "--params", "70B", "--mode", "generate", "--seq-len", "4096"],
            ["estimate", "--model", "org/not-in-catalog", "--seq-len", "128"],
            ["audit", "train.py", "--config", "ds.json", "--gpu", "a100-80gb", "--no-cache"],
        ]
        for args in runs:
            code = main(args)
            assert code in (0, 1, 3), (args, code)
        bad = [m for m in {frameworks!r} if m in sys.modules]
        assert not bad, bad
        print("ok")
    """)
    proc = run_subprocess("-c", script, cwd=proj,
                          env={"PYTHONPATH": str(poison), "PREFLIGHT_CANARY": str(canary),
                               "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("ok")
    assert not canary.exists(), canary.read_text()


def test_audit_reports_pf801_when_the_target_gpu_cannot_hold_the_job(cli, tmp_path):
    from preflight.rules.plan.pf801_does_not_fit import PF801_BAD

    files = PF801_BAD[0].split("# --- ")
    for chunk in files[1:]:
        name, _, text = chunk.partition("\n")
        write(tmp_path / name.strip(), text)
    r = cli("audit", "train.py", "--no-cache", "--format", "json")
    doc = json.loads(r.out)
    found = [f for f in doc["findings"] if f["code"] == "PF801"]
    assert r.code == 1 and len(found) == 1
    assert found[0]["path"] == "train.py" and found[0]["line"] == 3   # the from_pretrained line
    assert "A100-SXM-80GB" in found[0]["message"] and ": oom" in found[0]["message"]
    # --gpu beats target-gpu of the settings
    r = cli("audit", "train.py", "--no-cache", "--format", "json", "--gpu", "mi300x")
    assert not [f for f in json.loads(r.out)["findings"] if f["code"] == "PF801"]
