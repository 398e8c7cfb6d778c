"""est23: the cache of other batch lengths when the data's lengths are unknown
(``preflight/estimate/length_cache.py``), recomputed by hand from its parts: the step's transient
length-dependent bytes at the cap times the ratios of ``constants.LENGTH_SPREAD``, which are
re-derived here from ``calibration/data/length_spread.json`` (the allocator simulator's grid).
Also what the plan reads for it: ``group_by_length`` and ``expandable_segments``."""

from __future__ import annotations

import json
import statistics
import textwrap
from pathlib import Path

from preflight.audit import build_plan
from preflight.cli import main
from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import input_from_plan
from preflight.estimate.length_cache import LENGTH_TERMS

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "length_spread.json"
QWEN_7B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 32, "vocab_size": 151936, "max_position_embeddings": 8192,
           "rms_norm_eps": 1e-6, "tie_word_embeddings": False}


def _inp(**kw):
    base = dict(arch=from_hf_config(QWEN_7B, name="qwen-7b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=4096, grad_ckpt=True, attention="flash",
                lora_r=8, lora_targets=("q_proj", "k_proj", "v_proj"), torch_version="2.1.1",
                transformers_version="4.44.2", gpu_bf16=True)
    base.update(kw)
    return EstimateInput(**base)


def _step(est) -> float:
    return max(sum(v for t, v in terms.items() if t in LENGTH_TERMS) for terms in est.phases.values())


def test_the_ratios_are_the_simulated_grid():
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    assert len(doc["rows"]) == 64
    for (order, allocator), (low, median, high) in C.LENGTH_SPREAD.items():
        ratios = [r["ratio"] for r in doc["rows"] if r["order"] == order and r["allocator"] == allocator]
        assert len(ratios) == 16
        assert (low, median, high) == (round(min(ratios), 2), round(statistics.median(ratios), 2),
                                       round(max(ratios), 2)), (order, allocator)
    # grouping or expandable segments never hold more than shuffled batches on the native allocator
    assert max(C.LENGTH_SPREAD[k][1] for k in C.LENGTH_SPREAD) == C.LENGTH_SPREAD[("shuffled", "native")][1]


def test_the_term_by_hand_for_each_setting():
    fixed = estimate(_inp(padding="max_length"))
    step = _step(fixed)
    for grouped in (False, True):
        for expandable in (False, True):
            dyn = estimate(_inp(padding="dynamic", group_by_length=grouped,
                                expandable_segments=expandable))
            key = ("group_by_length" if grouped else "shuffled", "expandable" if expandable else "native")
            low, median, high = C.LENGTH_SPREAD[key]
            point = step * max(median, 0.0)
            assert abs(dyn.breakdown.get("length_cache", 0) - point) <= 1, key
            assert abs(dyn.peak_bytes - fixed.peak_bytes - point) <= 2, key
            _r_lo, r_point, r_hi = dyn.reclaimable
            # est39: shuffled batches on the native allocator keep a part the verdict counts
            k_point, k_high = ((max(C.LENGTH_CACHE_KEPT[1], 0.0), max(C.LENGTH_CACHE_KEPT[2], 0.0))
                               if key == ("shuffled", "native") else (0.0, 0.0))
            assert abs(r_point - step * (max(median, 0.0) - k_point)) <= 1, key
            assert abs(r_hi - step * (max(high, 0.0) - k_high)) <= 1, key
            # the interval: up by the highest run, down by the lowest (the longest batch may be
            # well under the cap when the data's lengths are unknown)
            # (at least: the facts the input leaves unknown widen both, each with its own step)
            assert dyn.interval_bytes[1] >= fixed.interval_bytes[1] + step * max(high, 0.0) - 3, key
            assert abs(dyn.interval_bytes[0] - max(0, fixed.interval_bytes[0] + step * min(low, 0.0))) <= 3, key
            assert dyn.tensor_peak() == fixed.tensor_peak()


def test_an_unknown_setting_takes_the_default_with_the_lower_bottom():
    fixed = estimate(_inp(padding="max_length"))
    step = _step(fixed)
    known = estimate(_inp(padding="dynamic", group_by_length=False, expandable_segments=False))
    unknown = estimate(_inp(padding="dynamic"))
    assert unknown.peak_bytes == known.peak_bytes
    bottom = min(v[0] for v in C.LENGTH_SPREAD.values())
    assert abs(unknown.interval_bytes[0] - max(0, fixed.interval_bytes[0] + step * bottom)) <= 3


def test_the_adapter_reads_group_by_length(tmp_path):
    code = """
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", group_by_length={})
    """
    for value, want in (("True", True), ("False", False)):
        script = tmp_path / f"train_{value}.py"
        script.write_text(textwrap.dedent(code.format(value)), encoding="utf-8")
        plan, _ = build_plan([script], [], root=tmp_path)
        fact = plan.resolve("data.group_by_length")
        assert fact is not None and fact.value is want
        assert input_from_plan(plan, {"seq_len": 8}).group_by_length is want
    silent = tmp_path / "train_none.py"
    silent.write_text(textwrap.dedent(code.replace(", group_by_length={}", "")), encoding="utf-8")
    assert build_plan([silent], [], root=tmp_path)[0].resolve("data.group_by_length") is None


def test_the_flags(capsys):
    args = ["estimate", "--model", "Qwen2.5-7B", "--seq-len", "4096", "--lora-r", "8", "--format", "json"]
    peaks = {}
    for extra in ((), ("--padding", "dynamic"), ("--padding", "dynamic", "--expandable-segments"),
                  ("--padding", "dynamic", "--group-by-length")):
        assert main([*args, *extra]) == 0
        peaks[extra] = json.loads(capsys.readouterr().out)["peak_bytes"]
    plain = peaks[()]
    dynamic = peaks[("--padding", "dynamic")]
    assert dynamic > plain * 1.05                      # the cache of other lengths (shuffled, native)
    for extra in (("--padding", "dynamic", "--expandable-segments"), ("--padding", "dynamic", "--group-by-length")):
        assert abs(peaks[extra] - plain) <= plain * 0.001, extra   # median ~0: no cache charged


def test_the_grid_brackets_est10s_known_dataset():
    """est10's one dataset (lengths spread under and over the cap, dropped above it) measured
    2.8; the grid's native shuffled runs of that kind (mean at or above the cap, 'delete') hold
    at least as much, within the grid's range, and cutting samples to the cap instead (most
    batches at the cap) holds less."""
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    native = [r for r in doc["rows"] if r["order"] == "shuffled" and r["allocator"] == "native"]
    dropped = [r["ratio"] for r in native if r["mean_to_cap"] >= 1 and r["truncation"] == "delete"]
    cut = [r["ratio"] for r in native if r["mean_to_cap"] >= 1 and r["truncation"] == "truncate"]
    low, _median, high = C.LENGTH_SPREAD[("shuffled", "native")]
    assert low <= C.LENGTH_CACHE_RATIO <= min(dropped) <= max(dropped) <= high
    assert max(cut) < min(dropped)


def test_the_adapter_reads_the_allocator_config_a_script_sets(tmp_path):
    code = """
        import os
        {}
        import torch
        from transformers import AutoModelForCausalLM
        model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    """
    cases = (('os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128,expandable_segments:True"', True),
             ("os.environ.setdefault('PYTORCH_CUDA_ALLOC_CONF', 'expandable_segments:False')", False))
    for i, (line, want) in enumerate(cases):
        script = tmp_path / f"train_{i}.py"
        script.write_text(textwrap.dedent(code.format(line)), encoding="utf-8")
        plan, _ = build_plan([script], [], root=tmp_path)
        fact = plan.resolve("memory.expandable_segments")
        assert fact is not None and fact.value is want, line
        assert fact.source.line == 3
        assert input_from_plan(plan, {"seq_len": 8}).expandable_segments is want
    # silent twins: another option only, another variable, a value not written in the script,
    # and a setting made after CUDA has started (the allocator read the variable already)
    for i, line in enumerate(('os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128"',
                              'os.environ["CUDA_LAUNCH_BLOCKING"] = "expandable_segments:True"',
                              'os.environ["PYTORCH_CUDA_ALLOC_CONF"] = os.getenv("CONF", "")',
                              'import torch; torch.cuda.ipc_collect(); '
                              'os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"')):
        script = tmp_path / f"silent_{i}.py"
        script.write_text(textwrap.dedent(code.format(line)), encoding="utf-8")
        assert build_plan([script], [], root=tmp_path)[0].resolve("memory.expandable_segments") is None, line


def test_the_launch_line_environment_sets_the_allocator(tmp_path):
    import shlex

    script = tmp_path / "train.py"
    script.write_text("import torch\nmodel = torch.nn.Linear(4, 4).cuda()\n", encoding="utf-8")
    for conf, want in (("expandable_segments:True", True), ("max_split_size_mb:64,expandable_segments:False", False)):
        argv = shlex.split(f"PYTORCH_CUDA_ALLOC_CONF={conf} torchrun --nproc_per_node 2 train.py")
        plan, _ = build_plan([script], [], root=tmp_path, argv=argv)
        fact = plan.resolve("memory.expandable_segments")
        assert fact is not None and fact.value is want, conf
        assert fact.source.key == "PYTORCH_CUDA_ALLOC_CONF"
    # silent twins: another allocator option only, another variable
    for prefix in ("PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:64", "CUDA_LAUNCH_BLOCKING=1"):
        argv = shlex.split(f"{prefix} torchrun --nproc_per_node 2 train.py")
        assert build_plan([script], [], root=tmp_path, argv=argv)[0].resolve("memory.expandable_segments") is None


def test_group_by_length_from_the_command_line(tmp_path):
    import shlex

    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        from transformers import HfArgumentParser, TrainingArguments, Trainer
        parser = HfArgumentParser((TrainingArguments,))
        (training_args,) = parser.parse_args_into_dataclasses()
        Trainer(model=None, args=training_args).train()
    """), encoding="utf-8")
    for flags, want in (("--group_by_length", True), ("--group_by_length False", False), ("", None)):
        argv = shlex.split(f"python train.py --output_dir o {flags}")
        fact = build_plan([script], [], root=tmp_path, argv=argv)[0].resolve("data.group_by_length")
        assert (fact.value if fact is not None else None) is want, flags


def test_a_launch_script_that_exports_the_allocator_config(cli, tmp_path):
    (tmp_path / "train.py").write_text("import torch\nmodel = torch.nn.Linear(4, 4).cuda()\n",
                                       encoding="utf-8")
    for i, (body, want) in enumerate((
            ("export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\ntorchrun --nproc_per_node 2 train.py\n", True),
            ("export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:False'\npython train.py\n", False),
            # silent twins: not exported (the launched process does not see it), another option
            ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\npython train.py\n", None),
            ("export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\npython train.py\n", None))):
        script = tmp_path / f"run_{i}.sh"
        script.write_text("#!/bin/bash\n" + body, encoding="utf-8")
        res = cli("audit", script.name, "--emit-plan", "json", cwd=tmp_path)
        assert res.code == 0, res.err
        facts = json.loads(res.out)["fields"].get("memory.expandable_segments")
        assert (facts[0]["value"] if facts else None) is want, body
