"""est61 (issues 15 and 17): two plan facts the estimator took only from flags, read from code.

- ``memory.keeps_outputs`` (adapters/kept_outputs.py): the loop's name for the forward's result
  lives into the next forward. Must-read shapes from real loops (dlrover ATorch
  ``fsdp_llama2.py``, abacaj/fine-tune-mistral ``train.py:433``, nanoGPT ``train.py``, the
  accelerate ``*_no_trainer.py`` examples, IDRIS ``FSDP_sAC.py:252``); twins that must read False
  (``del outputs``, rebound before the forward, ``loss = model(**batch).loss`` as llama-cookbook
  ``train_utils.py:152``, the transformers Trainer) or stay silent (eval-only loops, a forward in a
  helper, loops that disagree).
- ``precision.autocast`` (adapters/autocast_fact.py): FSDP ``MixedPrecisionPolicy`` with no
  autocast anywhere (IDRIS ``FSDP_sAC.py:136``) is False; an autocast context or a framework
  that autocasts is True; a conditional alias says nothing. The estimator keeps a loss on
  16-bit logits in 16 bits when it is False (``terms.autocast_on``).
- ``preflight estimate`` no longer prints "FSDP CPU offload ... (0.0 GiB)" without an offload.
"""

from __future__ import annotations

import textwrap

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import input_from_plan
from preflight.estimate.terms import autocast_on, hf_loss_backward_bytes, hf_loss_forward_bytes


def plan_of(tmp_path, code, name="train.py", extra=None):
    from preflight.audit import build_plan

    (tmp_path / name).write_text(textwrap.dedent(code), encoding="utf-8")
    for other, text in (extra or {}).items():
        (tmp_path / other).write_text(textwrap.dedent(text), encoding="utf-8")
    plan, project = build_plan([tmp_path / name], [], root=tmp_path, argv=(), strict=True)
    assert project.errors == []
    return plan


HEAD = """\
    import torch
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
"""

# dlrover atorch/examples/llama2/fsdp_llama2.py at 70df7d5 (the est60 diagnosis)
ATORCH = HEAD + """\
    for epoch in range(3):
        for step, batch in enumerate(dataloader):
            outputs = model(**batch)
            loss = outputs["loss"]
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""

# the accelerate no_trainer examples (run_clm_no_trainer.py)
ACCELERATE = HEAD + """\
    from accelerate import Accelerator
    accelerator = Accelerator()
    model, optimizer, dataloader = accelerator.prepare(model, optimizer, dataloader)
    for step, batch in enumerate(dataloader):
        with accelerator.accumulate(model):
            outputs = model(**batch)
            loss = outputs.loss
            total_loss += loss.detach().float()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""

# karpathy/nanoGPT train.py: the micro-step loop, the logits bound beside the loss
NANOGPT = """\
    import torch
    from model import GPT, GPTConfig
    model = GPT(GPTConfig())
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cuda")
    scaler = torch.cuda.amp.GradScaler(enabled=True)
    while True:
        for micro_step in range(gradient_accumulation_steps):
            with ctx:
                logits, loss = model(X, Y)
                loss = loss / gradient_accumulation_steps
            X, Y = get_batch("train")
            scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
"""

# idriscnrs/Democratizing-LLM-FT FSDP_sAC.py at 932e1bd (lines 136-143, 239-266)
IDRIS = """\
    import torch
    from torch.distributed.fsdp import fully_shard, MixedPrecisionPolicy
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype="bfloat16")
    fsdp_kwargs = {}
    fsdp_kwargs["mp_policy"] = MixedPrecisionPolicy(
                param_dtype=torch.bfloat16,
                reduce_dtype=torch.float32,
            )
    for layer in model.model.layers:
        fully_shard(layer.type(torch.float32), **fsdp_kwargs)
    fully_shard(model.type(torch.float32), **fsdp_kwargs)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(3):
        for i, (input_ids, attention_mask, labels) in enumerate(dataloader, start=1):
            logits: torch.Tensor = model(input_ids, attention_mask=attention_mask).logits
            bsz, seq_len, vocab_size = logits.shape
            loss: torch.Tensor = criterion(logits.view(bsz * seq_len, vocab_size), labels.view(bsz * seq_len))
            loss /= 4
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""


@pytest.mark.parametrize("code,line,names", [
    (ATORCH, 7, "`outputs`"),
    (ACCELERATE, 10, "`outputs`"),
    (NANOGPT, 9, "`logits`"),
    (IDRIS, 17, "`logits`"),
    # an alias of the logits outlives ``del outputs``
    (HEAD + """\
    for batch in dataloader:
        outputs = model(**batch)
        logits = outputs.logits
        del outputs
        loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), batch["labels"].view(-1))
        loss.backward()
        optimizer.step()
""", 6, "`logits`"),
])
def test_must_read_kept_outputs(tmp_path, code, line, names):
    plan = plan_of(tmp_path, code)
    fact = plan.resolve("memory.keeps_outputs")
    assert fact is not None and fact.value is True
    assert (fact.source.path, fact.source.line, fact.confidence) == ("train.py", line, "medium")
    assert names in (fact.source.detail or "")
    inp = input_from_plan(plan)
    assert inp.keeps_outputs is True and "train.py:" in inp.sources["keeps_outputs"]


@pytest.mark.parametrize("loop,line,why", [
    # the output deleted after backward
    ("""\
    for batch in dataloader:
        outputs = model(**batch)
        loss = outputs.loss
        loss.backward()
        optimizer.step()
        del outputs
""", 6, "deleted or bound again at line 10"),
    # rebound before the next forward
    ("""\
    outputs = None
    for batch in dataloader:
        outputs = None
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
""", 8, "deleted or bound again at line 7"),
    # llama-cookbook train_utils.py:152: the loss alone
    ("""\
    for step, batch in enumerate(dataloader):
        with autocast():
            loss = model(**batch).loss
        loss = loss / gradient_accumulation_steps
        loss.backward()
        optimizer.step()
""", 7, "binds the loss only"),
    # a model that returns its loss: the tensor back-propagated is all the loop binds
    ("""\
    for x, y in dataloader:
        loss = model(x, labels=y)
        loss.backward()
        optimizer.step()
""", 6, "the loss the model returns"),
])
def test_twins_read_not_kept(tmp_path, loop, line, why):
    fact = plan_of(tmp_path, HEAD + loop).resolve("memory.keeps_outputs")
    assert fact is not None and fact.value is False and fact.source.line == line
    assert why in (fact.source.detail or "")


@pytest.mark.parametrize("loop", [
    # eval-only: no backward
    """\
    model.eval()
    with torch.no_grad():
        for batch in dataloader:
            outputs = model(**batch)
            total += outputs.loss.item()
""",
    # the forward in a helper the loop calls: its locals die when it returns
    """\
    def train_step(batch):
        outputs = model(**batch)
        outputs.loss.backward()
        return outputs.loss.item()
    for batch in dataloader:
        loss = train_step(batch)
        optimizer.step()
""",
    # two training loops that disagree
    """\
    for batch in dataloader:
        outputs = model(**batch)
        outputs.loss.backward()
    for batch in dataloader:
        outputs = model(**batch)
        outputs.loss.backward()
        del outputs
""",
    # the forward under an ``if``: not read
    """\
    for batch in dataloader:
        if use_labels:
            outputs = model(**batch)
        else:
            outputs = model(batch["input_ids"])
        outputs.loss.backward()
""",
])
def test_silent(tmp_path, loop):
    assert plan_of(tmp_path, HEAD + loop).resolve("memory.keeps_outputs") is None


def test_trainer_job_does_not_keep_outputs(tmp_path):
    plan = plan_of(tmp_path, """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
        trainer = Trainer(model=model, args=args, train_dataset=ds)
        trainer.train()
    """)
    fact = plan.resolve("memory.keeps_outputs")
    assert fact is not None and fact.value is False and fact.source.line == 4
    assert "compute_loss" in (fact.source.detail or "")
    assert input_from_plan(plan).keeps_outputs is False


def test_loop_in_an_imported_module(tmp_path):
    """llama-cookbook's shape: the entry script calls ``train(...)`` of a local module."""
    plan = plan_of(tmp_path, """\
        from train_utils import train
        train(model, dataloader, optimizer)
    """, extra={"train_utils.py": """\
        def train(model, dataloader, optimizer):
            for batch in dataloader:
                outputs = model(**batch)
                loss = outputs.loss
                loss.backward()
                optimizer.step()
    """})
    fact = plan.resolve("memory.keeps_outputs")
    assert fact is not None and fact.value is True
    assert (fact.source.path, fact.source.line) == ("train_utils.py", 3)


# -- precision.autocast ------------------------------------------------------------------

def test_fsdp_mixed_precision_without_autocast_is_false(tmp_path):
    plan = plan_of(tmp_path, IDRIS)
    fact = plan.resolve("precision.autocast")
    assert fact is not None and fact.value is False
    assert (fact.source.path, fact.source.line) == ("train.py", 6)
    assert "MixedPrecisionPolicy(param_dtype=...)" in (fact.source.detail or "")
    assert input_from_plan(plan).autocast is False


def test_autocast_context_is_true(tmp_path):
    code = IDRIS.replace(
        "            logits: torch.Tensor = model(",
        "            with torch.autocast('cuda', dtype=torch.bfloat16):\n"
        "                logits: torch.Tensor = model(")
    fact = plan_of(tmp_path, code).resolve("precision.autocast")
    assert fact is not None and fact.value is True and fact.source.line == 17


def test_accelerate_mixed_precision_is_true(tmp_path):
    plan = plan_of(tmp_path, ACCELERATE.replace("Accelerator()", 'Accelerator(mixed_precision="bf16")'))
    precision = plan.resolve("precision.mode")
    assert precision is not None and precision.value == "amp_bf16"
    fact = plan.resolve("precision.autocast")
    assert fact is not None and fact.value is True and "accelerate" in (fact.source.detail or "")


@pytest.mark.parametrize("old,new", [
    # llama-cookbook train_utils.py:97,151: autocast only under fp16, bound conditionally, entered around the forward
    ("    for epoch in range(3):\n",
     "    autocast = torch.cuda.amp.autocast if use_fp16 else nullcontext\n    for epoch in range(3):\n"),
    ("            logits: torch.Tensor = model(",
     "            autocast = torch.cuda.amp.autocast if use_fp16 else nullcontext\n"
     "            with autocast():\n                logits: torch.Tensor = model("),
    # autocast only in an evaluation function (diffusers log_validation, LMFlow evaluator.py:204)
    ("    for epoch in range(3):\n",
     "    def evaluate(batch):\n        with torch.no_grad(), torch.autocast('cuda'):\n            return model(batch)\n"
     "    for epoch in range(3):\n"),
    # an enabled= expression
    ("    for epoch in range(3):\n",
     "    ctx = torch.autocast('cuda', enabled=args.amp)\n    for epoch in range(3):\n"),
    # no FSDP: DDP over a bf16 model says nothing about autocast
    ("fully_shard(model.type(torch.float32), **fsdp_kwargs)", "model = DDP(model)"),
])
def test_autocast_silent(tmp_path, old, new):
    code = IDRIS.replace(old, new)
    if "DDP(" in new:
        code = code.replace("        fully_shard(layer.type(torch.float32), **fsdp_kwargs)\n", "        pass\n")
    assert code != IDRIS
    assert plan_of(tmp_path, code).resolve("precision.autocast") is None


# -- the estimator reads them -----------------------------------------------------------------

QWEN_SMALL = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 1024,
              "intermediate_size": 2816, "num_hidden_layers": 8, "num_attention_heads": 16,
              "num_key_value_heads": 4, "vocab_size": 152064, "tie_word_embeddings": False}


def _fsdp_row(**changes):
    base = dict(arch=from_hf_config(QWEN_SMALL, name="qwen-small"), mode="train", precision="amp-bf16",
                optimizer="adamw", micro_batch=2, seq_len=4096, grad_ckpt=True, attention="sdpa",
                fsdp="full", fsdp_version=2, world_size=8, loss="standard", loss_in_logits_dtype=True,
                use_cache=False, torch_version="2.7", transformers_version="4.52.4")
    base.update(changes)
    return EstimateInput(**base)


def test_loss_bytes_without_autocast_recomputed():
    """CrossEntropyLoss on bf16 logits (batch 2: the script's shifted copy): logits 2 + copy 2 +
    log_softmax 2 = 6 bytes per token x vocabulary in forward, 3 x 2 in backward; under
    autocast the log_softmax output is fp32 and so is the upcast it reads: 2 + 2 + 4 + 4 = 12,
    and 12 in backward (three fp32 tensors)."""
    on, off = _fsdp_row(), _fsdp_row(autocast=False)
    arch = on.arch
    assert autocast_on(on) and not autocast_on(off) and autocast_on(_fsdp_row(autocast=True))
    assert hf_loss_forward_bytes(on, 2, arch) == 12 and hf_loss_forward_bytes(off, 2, arch) == 6
    assert hf_loss_backward_bytes(on, 2, arch) == 12 and hf_loss_backward_bytes(off, 2, arch) == 6
    # fp32 precision is never autocast, whatever the fact says
    assert not autocast_on(_fsdp_row(precision="fp32", autocast=True))


def test_estimate_drops_the_fp32_loss_copies():
    tokens_vocab = 2 * 4096 * 152064
    on, off = estimate(_fsdp_row()), estimate(_fsdp_row(autocast=False))
    assert estimate(_fsdp_row(autocast=True)).allocated_peak() == on.allocated_peak()
    saved = on.allocated_peak()[0] - off.allocated_peak()[0]
    # at least the backward's fp32 share (12 - 6 bytes), at most the forward's
    assert 6 * tokens_vocab * 0.99 <= saved <= 6 * tokens_vocab * 1.01


def test_keeps_outputs_fact_reaches_the_estimate(tmp_path):
    plan = plan_of(tmp_path, ATORCH)
    arch = from_hf_config(SMALL, name="small-llama")
    kept = input_from_plan(plan, {"seq_len": 512, "micro_batch": 2}, arch=arch)
    dropped = input_from_plan(plan, {"seq_len": 512, "micro_batch": 2, "keeps_outputs": False}, arch=arch)
    assert kept.keeps_outputs and not dropped.keeps_outputs
    held = estimate(kept).phases["forward"].get("held_outputs", 0.0)
    assert held >= 2 * 512 * 32000 * 2  # the previous step's logits at least (16-bit)
    assert estimate(dropped).phases["forward"].get("held_outputs", 0.0) < held


# -- FSDP without offload: no "FSDP CPU offload" line ------------------------------------------

SMALL = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816,
         "num_hidden_layers": 16, "num_attention_heads": 16, "num_key_value_heads": 16,
         "vocab_size": 32000, "tie_word_embeddings": False}


def _fsdp(**changes):
    base = dict(arch=from_hf_config(SMALL, name="small-llama"), precision="bf16", micro_batch=2,
                seq_len=512, grad_ckpt=True, fsdp="full", world_size=4, torch_version="2.5")
    base.update(changes)
    return EstimateInput(**base)


def test_no_offload_note_without_offload():
    est = estimate(_fsdp())
    assert "stream_cache" in est.phases["forward"]  # the post-backward pool of sharded gradients
    assert not any("CPU offload" in n for n in est.notes)
    assert any(n.startswith("FSDP: the sharded gradients") for n in est.notes)
    offloaded = estimate(_fsdp(offload_params="cpu", offload_optimizer="cpu"))
    line = [n for n in offloaded.notes if n.startswith("FSDP CPU offload")]
    assert len(line) == 1 and "(0.0 GiB" not in line[0]
    assert not any(n.startswith("FSDP: the sharded gradients") for n in offloaded.notes)


def test_cli_prints_no_offload_line(tmp_path, capsys):
    from preflight.cli import main

    plan_dir = tmp_path
    (plan_dir / "train.py").write_text(textwrap.dedent(ATORCH), encoding="utf-8")
    main(["estimate", str(plan_dir / "train.py"), "--fsdp", "full", "--world-size", "8",
          "--precision", "bf16", "--seq-len", "1024", "--batch-size", "2", "--gpu", "a100-80gb"])
    out = capsys.readouterr().out
    assert "FSDP CPU offload" not in out


def test_autocast_not_written_beside_fp32(tmp_path):
    """PatchTST exp/exp_main.py:146-147: the autocast is taken only ``if self.args.use_amp``, whose
    argparse default is False: the plan reads fp32, and no autocast fact is written."""
    plan = plan_of(tmp_path, """\
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--use_amp", action="store_true", default=False)
        args = parser.parse_args()
        model = Net().cuda()
        optimizer = torch.optim.Adam(model.parameters())
        for x, y in loader:
            optimizer.zero_grad()
            if args.use_amp:
                with torch.cuda.amp.autocast():
                    outputs = model(x)
            else:
                outputs = model(x)
            loss = criterion(outputs, y)
            loss.backward()
            optimizer.step()
    """)
    precision = plan.resolve("precision.mode")
    assert precision is None or not str(precision.value).startswith("amp_")
    assert plan.resolve("precision.autocast") is None


def test_autocast_site_is_the_training_forward():
    """F5-TTS ``src/f5_tts/model/trainer.py:413``: ``with torch.inference_mode(), self.accelerator.autocast():``
    around sampling inside the function that trains is not the training forward's autocast."""
    import ast

    from preflight.adapters.autocast_fact import _autocast_site

    code = textwrap.dedent("""\
        def train(model, loader, optimizer):
            for batch in loader:
                loss = model(**batch).loss
                loss.backward()
                with torch.inference_mode(), torch.autocast("cuda"):
                    sample = model.generate(batch["input_ids"][:1])
    """)
    assert _autocast_site(ast.parse(code)) is None
    forward = code.replace("        loss = model(**batch).loss\n",
                           "        with torch.autocast('cuda', dtype=torch.bfloat16):\n"
                           "            loss = model(**batch).loss\n")
    assert forward != code
    site = _autocast_site(ast.parse(forward))
    assert site is not None and site.lineno == 3
