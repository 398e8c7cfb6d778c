"""PF351 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CLS = textwrap.dedent("""
    import torch
    from datasets import load_dataset
    from peft import LoraConfig, TaskType, get_peft_model
    from transformers import (AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding, Trainer,
                              TrainingArguments)

    name = "mistralai/Mistral-7B-v0.1"
    tokenizer = AutoTokenizer.from_pretrained(name)
    tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2, torch_dtype=torch.bfloat16)
    model.config.pad_token_id = tokenizer.pad_token_id

    config = LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"]{extra}){mark}
    model = get_peft_model(model, config){after}

    data = load_dataset("imdb").map(lambda b: tokenizer(b["text"], truncation=True, max_length=256), batched=True)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out", bf16=True),
                      train_dataset=data["train"], data_collator=DataCollatorWithPadding(tokenizer))
    trainer.train()
    model.save_pretrained("out/adapter")
""")

PF351_BAD = [
    # peft issue 876: no task_type, no modules_to_save on a sequence classifier
    _CLS.format(extra="", mark="  # error: PF351", after=""),
    # a task type for another head: PeftModelForCausalLM does not add the classifier either
    _CLS.format(extra=', task_type="CAUSAL_LM"', mark="  # error: PF351", after=""),
    # a token classifier in a custom loop, the config inline
    textwrap.dedent("""
    import torch
    from peft import IA3Config, get_peft_model
    from transformers import BertForTokenClassification


    def train(loader, epochs=3):
        net = BertForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)
        net = get_peft_model(net, IA3Config(target_modules=["key", "value", "output.dense"],  # error: PF351
                                            feedforward_modules=["output.dense"]))
        opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
        net.train()
        for batch in loader:
            loss = net(**batch).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
        return net
"""),
]

PF351_GOOD = [
    # the fix
    _CLS.format(extra=', task_type="SEQ_CLS"', mark="", after=""),
    # the enum, and the head named by hand without a task type
    _CLS.format(extra=", task_type=TaskType.SEQ_CLS", mark="", after=""),
    _CLS.format(extra=', modules_to_save=["score"]', mark="", after=""),
    # tricky-correct: the head switched back on after the wrap
    _CLS.format(extra="", mark="", after=textwrap.indent(textwrap.dedent("""
        for n, p in model.named_parameters():
            if "score" in n:
                p.requires_grad = True"""), "")),
    # tricky-correct: the task type set on the config after it is built
    _CLS.format(extra="", mark="", after="").replace(
        "model = get_peft_model(model, config)", 'config.task_type = "SEQ_CLS"\nmodel = get_peft_model(model, config)'),
    # tricky-correct: a causal LM (its head is the pretrained LM head)
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM


    def train(loader, epochs=1):
        net = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-410m")
        net = get_peft_model(net, LoraConfig(r=8, target_modules=["query_key_value"]))
        opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
        net.train()
        for batch in loader:
            loss = net(**batch).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
        return net
"""),
]
