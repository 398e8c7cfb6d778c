"""``compile.loss_inside`` read from code for the two shapes est14 left unknown (issue 17,
docs/calibration.md "est15"):

- the transformers Trainer with ``torch_compile=True``: ``Trainer.compute_loss`` runs
  ``outputs = model(**inputs)`` with the labels, so the model's ``forward`` computes the loss
  inside the module accelerate compiled, unless a label smoother (``label_smoothing_factor``),
  a ``compute_loss_func`` or TRL's ``loss_type="dft"`` pops the labels first;
- a model that returns its own loss (nanoGPT: ``model = torch.compile(model)``, ``logits,
  loss = model(X, Y)``, ``GPT.forward`` ending in ``F.cross_entropy``), or a transformers model
  called with ``labels=``.

The estimate then charges the compiled loss (bf16 logits and a fp32 logsumexp per token),
recomputed by hand below.
"""

from __future__ import annotations

import textwrap

from preflight.estimate import estimate
from preflight.estimate.inputs import input_from_plan
from tests.test_estimate_heldout8_causes import TV, scratch_gpt2


def project_plan(tmp_path, files, entry="train.py"):
    from preflight.audit import build_plan

    for name, code in files.items():
        (tmp_path / name).write_text(textwrap.dedent(code), encoding="utf-8")
    plan, project = build_plan([tmp_path / entry], [], root=tmp_path, argv=(), strict=True)
    assert project.errors == []
    return plan


# ---------------------------------------------------------------- the HF Trainer, torch_compile

TRAINER = """\
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, torch_compile=True)
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    trainer.train()
"""


def test_must_fire_trainer_with_torch_compile(tmp_path):
    plan = project_plan(tmp_path, {"train.py": TRAINER})
    fact = plan.resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 5 and fact.confidence == "high"
    assert "compute_loss" in fact.source.detail
    assert input_from_plan(plan).compiled_loss is True


def test_must_fire_trainer_with_label_smoothing_zero(tmp_path):
    # tricky-correct: label_smoothing_factor=0.0 builds no label smoother (trainer.py: "if
    # self.args.label_smoothing_factor != 0")
    code = TRAINER.replace("torch_compile=True", "torch_compile=True, label_smoothing_factor=0.0")
    assert project_plan(tmp_path, {"train.py": code}).value("compile.loss_inside") is True


def test_must_fire_sft_trainer_default_loss(tmp_path):
    code = """\
        from trl import SFTConfig, SFTTrainer

        args = SFTConfig(output_dir="out", torch_compile=True, loss_type="nll")
        trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=ds)
        trainer.train()
    """
    fact = project_plan(tmp_path, {"train.py": code}).resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 4


def test_silent_trainer_without_compile(tmp_path):
    for code in (TRAINER.replace("torch_compile=True", "torch_compile=False"),
                 TRAINER.replace(", torch_compile=True", "")):
        plan = project_plan(tmp_path, {"train.py": code})
        assert plan.value("compile.enabled") is False
        assert plan.resolve("compile.loss_inside") is None


def test_silent_when_the_trainer_pops_the_labels(tmp_path):
    variants = (
        TRAINER.replace("torch_compile=True", "torch_compile=True, label_smoothing_factor=0.1"),
        TRAINER.replace("train_dataset=ds)", "train_dataset=ds, compute_loss_func=my_loss)"),
        TRAINER.replace("torch_compile=True", "torch_compile=True, use_liger_kernel=True"),
    )
    for code in variants:
        plan = project_plan(tmp_path, {"train.py": code})
        assert plan.value("compile.enabled") is True
        assert plan.resolve("compile.loss_inside") is None, code


def test_silent_sft_trainer_dft_loss(tmp_path):
    code = """\
        from trl import SFTConfig, SFTTrainer

        args = SFTConfig(output_dir="out", torch_compile=True, loss_type="dft")
        trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=ds)
        trainer.train()
    """
    assert project_plan(tmp_path, {"train.py": code}).resolve("compile.loss_inside") is None


def test_silent_trainer_subclass_overriding_compute_loss(tmp_path):
    code = """\
        import torch.nn.functional as F
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        class MyTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                labels = inputs.pop("labels")
                logits = model(**inputs).logits
                return F.cross_entropy(logits.flatten(0, 1), labels.flatten())

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(output_dir="out", torch_compile=True)
        trainer = MyTrainer(model=model, args=args, train_dataset=ds)
        trainer.train()
    """
    assert project_plan(tmp_path, {"train.py": code}).resolve("compile.loss_inside") is None


# ------------------------------------------------------------ a model that returns its own loss

NANOGPT_MODEL = """\
    import torch.nn as nn
    from torch.nn import functional as F


    class GPT(nn.Module):
        def forward(self, idx, targets=None):
            x = self.transformer(idx)
            if targets is not None:
                logits = self.lm_head(x)
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
            else:
                logits = self.lm_head(x[:, [-1], :])
                loss = None
            return logits, loss
"""

NANOGPT_TRAIN = """\
    import torch
    from model import GPTConfig, GPT

    compile = True
    model = GPT(GPTConfig())
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    if compile:
        model = torch.compile(model)
    for X, Y in batches:
        logits, loss = model(X, Y)
        loss.backward()
        optimizer.step()
"""


def test_must_fire_nanogpt_model_returns_its_loss(tmp_path):
    # karpathy/nanoGPT 3adf61e: train.py:208 compiles, :300 logits, loss = model(X, Y);
    # model.py:187 F.cross_entropy in GPT.forward
    plan = project_plan(tmp_path, {"model.py": NANOGPT_MODEL, "train.py": NANOGPT_TRAIN})
    fact = plan.resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 10 and fact.confidence == "medium"
    assert "model.py:10" in fact.source.detail
    assert input_from_plan(plan).compiled_loss is True


def test_must_fire_class_in_the_same_file(tmp_path):
    code = """\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class GPT(nn.Module):
            def forward(self, idx, targets):
                logits = self.lm_head(self.blocks(idx))
                return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

        model = GPT()
        model = torch.compile(model)
        for X, Y in loader:
            logits, loss = model(X, targets=Y)
            loss.backward()
    """
    fact = project_plan(tmp_path, {"train.py": code}).resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 13


def test_must_fire_transformers_model_called_with_labels(tmp_path):
    code = """\
        import torch
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
        model = torch.compile(model)
        for batch in loader:
            out = model(input_ids=batch["input_ids"], labels=batch["input_ids"])
            out.loss.backward()
    """
    fact = project_plan(tmp_path, {"train.py": code}).resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 7


def test_silent_model_called_without_targets(tmp_path):
    # the same model called on the inputs alone returns logits; nothing says where a loss runs
    train = NANOGPT_TRAIN.replace("logits, loss = model(X, Y)\n        loss.backward()",
                                  "logits, _ = model(X)\n        logits.sum().backward()")
    plan = project_plan(tmp_path, {"model.py": NANOGPT_MODEL, "train.py": train})
    assert plan.value("compile.enabled") is True
    assert plan.resolve("compile.loss_inside") is None


def test_silent_model_whose_forward_has_no_loss(tmp_path):
    model = NANOGPT_MODEL.replace(
        "loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)",
        "loss = None")
    plan = project_plan(tmp_path, {"model.py": model, "train.py": NANOGPT_TRAIN})
    assert plan.resolve("compile.loss_inside") is None


def test_silent_without_compile(tmp_path):
    train = NANOGPT_TRAIN.replace("compile = True", "compile = False")
    plan = project_plan(tmp_path, {"model.py": NANOGPT_MODEL, "train.py": train})
    assert plan.resolve("compile.loss_inside") is None


def test_silent_when_a_loss_also_runs_outside(tmp_path):
    # both the model's own loss and a cross-entropy outside it: where the LM loss runs is
    # not read (unknown, estimated eager)
    train = NANOGPT_TRAIN.replace(
        "loss.backward()",
        "loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), Y.flatten())\n        loss.backward()")
    plan = project_plan(tmp_path, {"model.py": NANOGPT_MODEL, "train.py": train})
    assert plan.resolve("compile.loss_inside") is None


# ----------------------------------------------------------------- the term the fact switches on

def test_the_fact_charges_the_compiled_loss_recomputed_by_hand(tmp_path):
    plan = project_plan(tmp_path, {"model.py": NANOGPT_MODEL, "train.py": NANOGPT_TRAIN})
    said = input_from_plan(plan).compiled_loss
    est = estimate(scratch_gpt2(compiled=True, compiled_loss=said))
    # inductor's fused cross-entropy: the bf16 logits (2 B) and a fp32 logsumexp per token
    assert est.phases["forward"]["logits_loss"] == 2 * TV + 4 * 8 * 1024
    # unknown (before this change) charged the eager loss: bf16 logits, the flattened copy
    # and log_softmax's output (3 x 2 B)
    before = estimate(scratch_gpt2(compiled=True))
    assert before.phases["forward"]["logits_loss"] == 3 * 2 * TV
    assert est.peak_bytes < before.peak_bytes
