"""est76: the optimizer step's temporaries follow the job's optimizer (plan ``optimizer.foreach``,
``adapters/optimizer_foreach.py``, ``preflight/estimate/terms_optim.optimizer_temporaries``).

torch.optim takes the multi-tensor (foreach) path by default on CUDA, holding fp32 lists the size of every
trained parameter; ``foreach=False`` loops one parameter at a time, ``fused=True`` runs a fused in-place
kernel; transformers' Adafactor and AdamW, bitsandbytes', apex's and DeepSpeed's fused optimizers never take
the foreach path. A script that says which writes the fact; a plain ``torch.optim.AdamW(params)`` writes
nothing and the estimator keeps the release default (foreach from torch 2.0)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import input_from_plan

HEAD = "import torch\nfrom transformers import AutoModelForCausalLM\n\n" \
       "model = AutoModelForCausalLM.from_pretrained('gpt2').cuda()\n"


def _script(line: str, imports: str = "") -> str:
    return HEAD + imports + line + "\n"


def test_foreach_false_is_read_with_its_line(cli, tmp_path):
    write(tmp_path, {"train.py": _script("opt = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=False)")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False
    assert got.source.path.endswith("train.py") and got.source.line == 5


def test_foreach_true_is_read(cli, tmp_path):
    write(tmp_path, {"train.py": _script("opt = torch.optim.AdamW(model.parameters(), foreach=True)")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is True and got.source.line == 5


def test_fused_true_means_no_foreach_path(cli, tmp_path):
    write(tmp_path, {"train.py": _script("opt = torch.optim.AdamW(model.parameters(), fused=True)")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False and "fused=True" in (got.source.detail or "")


def test_foreach_through_a_module_constant(cli, tmp_path):
    text = HEAD + "FOREACH = False\nopt = torch.optim.AdamW(model.parameters(), foreach=FOREACH)\n"
    write(tmp_path, {"train.py": text})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False and got.source.line == 5   # the constant's line


def test_transformers_adafactor_steps_one_parameter_at_a_time(cli, tmp_path):
    write(tmp_path, {"train.py": _script("opt = Adafactor(model.parameters(), lr=1e-3, relative_step=False)",
                                         "from transformers.optimization import Adafactor\n")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False and got.source.line == 6
    assert "Adafactor" in (got.source.detail or "")


def test_transformers_adamw_steps_one_parameter_at_a_time(cli, tmp_path):
    write(tmp_path, {"train.py": _script("opt = AdamW(model.parameters(), lr=1e-4)",
                                         "from transformers import AdamW\n")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False and got.source.line == 6


def test_bitsandbytes_optimizer_steps_one_parameter_at_a_time(cli, tmp_path):
    write(tmp_path, {"train.py": _script("opt = bnb.optim.AdamW8bit(model.parameters())",
                                         "import bitsandbytes as bnb\n")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False


def test_trainer_optim_adafactor(cli, tmp_path):
    text = ("from transformers import Trainer, TrainingArguments, AutoModelForCausalLM\n\n"
            "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "args = TrainingArguments(output_dir='o', optim='adafactor', per_device_train_batch_size=2)\n"
            "Trainer(model=model, args=args).train()\n")
    write(tmp_path, {"train.py": text})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.foreach")
    assert got is not None and got.value is False and "Adafactor" in (got.source.detail or "")


def test_twins_stay_unknown(cli, tmp_path):
    twins = {
        # torch's default: the release decides (foreach on CUDA from 2.0), nothing written
        "plain": _script("opt = torch.optim.AdamW(model.parameters(), lr=1e-4)"),
        # fused=False names no path either: foreach stays the default
        "fused-false": _script("opt = torch.optim.AdamW(model.parameters(), fused=False)"),
        # torch's own Adafactor (2.5+) takes the foreach path by default: not transformers'
        "torch-adafactor": _script("opt = torch.optim.Adafactor(model.parameters())"),
        # a project's own Adafactor (forgather's kind): its loop is not read, nothing claimed
        "own-adafactor": _script("opt = Adafactor(model.parameters())", "from myoptim import Adafactor\n"),
        # the Trainer's torch AdamW: the release default
        "trainer-torch": ("from transformers import Trainer, TrainingArguments, AutoModelForCausalLM\n\n"
                          "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
                          "args = TrainingArguments(output_dir='o', optim='adamw_torch')\n"
                          "Trainer(model=model, args=args).train()\n"),
    }
    for name, text in twins.items():
        root = tmp_path / name
        root.mkdir()
        write(root, {"train.py": text})
        assert fact(plan_of(cli, "train.py", cwd=root), "optimizer.foreach") is None, name


# ----------------------------------------------------------------------------- the estimator's term
ARCH = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
        "intermediate_size": 4096, "num_hidden_layers": 8, "num_attention_heads": 16,
        "num_key_value_heads": 16, "vocab_size": 32000, "max_position_embeddings": 512,
        "tie_word_embeddings": False, "hidden_act": "silu"}


def _inp(**kw) -> EstimateInput:
    base = dict(arch=from_hf_config(ARCH, name="m"), mode="train", precision="amp-bf16", micro_batch=2,
                seq_len=256, attention="sdpa", world_size=1, torch_version="2.4.0", optimizer="adafactor")
    base.update(kw)
    return EstimateInput(**base)


def _step_temps(est) -> float:
    return est.phases["optimizer"]["optimizer_temporaries"]


def test_per_parameter_adafactor_charges_the_largest_parameter_not_the_model():
    whole, single = estimate(_inp()), estimate(_inp(foreach=False))
    trainable = 8 * (4 * 1024 * 1024 + 3 * 1024 * 4096) + 2 * 32000 * 1024 + 17 * 1024   # norms: 17 x 1024
    assert _step_temps(whole) == trainable * 4                 # one fp32 list the size of every parameter
    assert _step_temps(single) == 2 * 32000 * 1024 * 4         # two temporaries of the largest (the head)
    assert single.peak_bytes < whole.peak_bytes


def test_the_plan_fact_reaches_the_estimate(cli, tmp_path):
    from preflight.plan import TrainingPlan

    write(tmp_path, {"train.py": _script("opt = Adafactor(model.parameters(), lr=1e-3, relative_step=False)",
                                         "from transformers.optimization import Adafactor\n")})
    plan = TrainingPlan.from_dict(plan_of(cli, "train.py", cwd=tmp_path))
    inp = input_from_plan(plan)
    assert inp.foreach is False and inp.sources["foreach"].startswith("train.py:6")
    assert input_from_plan(None).foreach is True       # unknown: the CUDA default
