"""PF350-PF357 (branch det65) on shapes read in real code: what a user sees (code, line, the stated cause and
its evidence) on the bug shape, and silence on the correct shapes real projects use."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(code: str, src: str, name: str = "train.py") -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path(name), display=name, kind="python", raw=text.encode(), text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=(code,)))


def where(found: list[Finding]) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in found]


# diffusers' custom-diffusion / intel_opts textual-inversion shape: the class chosen into a name, the
# gradient read through the prepared model (rebuilt, not copied)
TEXTUAL_INVERSION = """\
import torch


def main(args, accelerator, text_encoder, loader, placeholder_id, n_tokens):
    optimizer_class = torch.optim.AdamW
    optimizer = optimizer_class(
        text_encoder.get_input_embeddings().parameters(),
        lr=args.lr,
        weight_decay=1e-2,
    )
    text_encoder_ = accelerator.prepare(text_encoder)
    for batch in loader:
        loss = text_encoder_(batch)[0].mean()
        accelerator.backward(loss)
        grads = text_encoder_.module.get_input_embeddings().weight.grad
        index_grads_to_zero = torch.arange(n_tokens) != placeholder_id
        grads.data[index_grads_to_zero, :] = grads.data[index_grads_to_zero, :].fill_(0)
        optimizer.step()
        optimizer.zero_grad()
{restore}"""


def test_pf354_decay_on_masked_embedding_rows_is_reported_on_the_optimizer_with_the_mask_as_evidence():
    found = check("PF354", TEXTUAL_INVERSION.format(restore=""))
    assert where(found) == [("PF354", 6)]
    assert "weight_decay=0.01" in found[0].message
    assert [e.line for e in found[0].evidence] == [17]


def test_pf354_rows_written_back_after_the_step_are_silent():
    restore = "        with torch.no_grad():\n            text_encoder_.module.get_input_embeddings().weight[index_grads_to_zero] = orig[index_grads_to_zero]\n"
    assert check("PF354", TEXTUAL_INVERSION.format(restore=restore)) == []


def test_pf352_a_half_precision_full_finetune_with_default_eps_names_the_load_as_evidence():
    # zphang/minimal-llama finetune_pp.py's shape: loaded in float16, layers moved by hand, default AdamW
    found = check("PF352", """\
        import torch
        import transformers

        model = transformers.LlamaForCausalLM.from_pretrained(path, torch_dtype=torch.float16)
        for layer, device in placements:
            layer.to(device)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
        for step in range(1000):
            loss = model(**next(batches)).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
    """)
    assert where(found) == [("PF352", 7)]
    assert "default eps=1e-8" in found[0].message
    assert [e.line for e in found[0].evidence] == [4]


def test_pf352_master_weights_in_float32_are_silent():
    # guided-diffusion's shape: the fp16 model, an optimizer over float32 master copies
    assert check("PF352", """\
        import torch

        model.convert_to_fp16()
        master_params = [p.detach().float().requires_grad_() for p in model.parameters()]
        opt = torch.optim.AdamW(master_params, lr=1e-4)
    """) == []


@pytest.mark.parametrize("template", [
    'tokenizer("\\n[/INST]\\n")["input_ids"][2:]',  # sliced after encoding with BOS: what real scripts do
    'tokenizer.encode(template, add_special_tokens=False)',
    'tokenizer(" <<").input_ids[1:]',
])
def test_pf350_real_template_encodings_that_drop_the_special_tokens_are_silent(template):
    src = f"""\
        from transformers import AutoTokenizer
        from trl import DataCollatorForCompletionOnlyLM

        tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
        collator = DataCollatorForCompletionOnlyLM(response_template={template}, tokenizer=tokenizer)
    """
    assert check("PF350", src) == []


def test_pf350_a_template_encoded_with_bos_is_an_error_on_the_encoding():
    found = check("PF350", """\
        from transformers import AutoTokenizer
        from trl import DataCollatorForCompletionOnlyLM

        tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
        ids = tokenizer.encode("Answer: [/INST]")
        collator = DataCollatorForCompletionOnlyLM(response_template=ids, tokenizer=tokenizer)
    """)
    assert where(found) == [("PF350", 5)]
    assert found[0].severity.name == "ERROR"


def test_pf351_names_the_head_class_and_the_wrap():
    found = check("PF351", """\
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForSequenceClassification, Trainer

        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
        config = LoraConfig()
        model = get_peft_model(model, config)
        Trainer(model=model, train_dataset=data).train()
    """)
    assert where(found) == [("PF351", 5)]
    assert "AutoModelForSequenceClassification" in found[0].message
    assert [e.line for e in found[0].evidence] == [4, 6]


def test_pf351_a_wrap_inside_a_helper_that_receives_the_model_is_silent():
    # the shape of real helpers (`def train_lora(model): ... get_peft_model(model, config)`): the model's
    # class is not known there, so nothing is claimed
    assert check("PF351", """\
        from peft import LoraConfig, get_peft_model


        def train_lora(model, trainer_cls, data):
            model = get_peft_model(model, LoraConfig(r=16, target_modules=["query", "value"]))
            trainer_cls(model=model, train_dataset=data).train()
    """) == []


def test_pf353_a_pretrained_checkpoint_loaded_with_its_settings_is_a_fine_tune():
    # state-spaces/s4 train.py's shape: pretrained path, config and strict passed, then fit
    assert check("PF353", """\
        import lightning as L

        model = SequenceModule.load_from_checkpoint(cfg.train.pretrained_model_path, config=cfg, strict=False)
        L.Trainer(max_epochs=10).fit(model)
    """) == []


def test_pf355_a_train_on_inputs_option_with_ignore_index_is_silent():
    # vigogne / alpaca-lora's shape
    assert check("PF355", """\
        IGNORE_INDEX = -100


        def process(example, tokenizer, train_on_inputs=False):
            prompt_ids = tokenizer(example["prompt"])["input_ids"]
            answer_ids = tokenizer.encode(example["answer"], add_special_tokens=False)
            input_ids = prompt_ids + answer_ids
            labels = list(input_ids)
            if not train_on_inputs:
                labels[:len(prompt_ids)] = [IGNORE_INDEX] * len(prompt_ids)
            return {"input_ids": input_ids, "labels": labels}
    """) == []


def test_pf356_is_silent_in_test_files_that_wrap_fresh_adapters_on_purpose():
    src = """\
        from peft import LoraConfig, get_peft_model


        def check_noop(base, x):
            model = get_peft_model(base, LoraConfig(target_modules=["lin0"]))
            model.save_pretrained("tmp")
            model.eval()
            return model.generate(x)
    """
    assert check("PF356", src, name="test_lora.py") == []
    assert where(check("PF356", src, name="eval_lora.py")) == [("PF356", 5)]


def test_pf357_reports_the_cast_line_of_the_trained_model_only():
    found = check("PF357", """\
        import torch
        from transformers import Trainer


        class DistillTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                self.teacher.to(torch.bfloat16)
                model.bfloat16()
                return model(**inputs).loss
    """)
    assert where(found) == [("PF357", 8)]
