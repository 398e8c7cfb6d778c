"""PF1020 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# TRL issue 989: Llama-2 chat, "[/INST]" after a newline in the formatting function
_INST = textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainingArguments
    from trl import DataCollatorForCompletionOnlyLM, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained({ckpt})
    tokenizer.pad_token = tokenizer.unk_token
    model = AutoModelForCausalLM.from_pretrained({ckpt})


    def format(sample):
        system_prompt = "<s>[INST] <<SYS>>\\nSelect the correct option.\\n<</SYS>>\\n\\n"
        sample["text"] = system_prompt + sample["prompt"] + {answer}
        return sample


    ds = load_dataset("csv", data_files="sciq.csv", split="train").map(format)
    collator = DataCollatorForCompletionOnlyLM(response_template={template}, tokenizer=tokenizer){mark}
    trainer = SFTTrainer(model=model, train_dataset=ds, dataset_text_field="text", data_collator=collator,
                         args=TrainingArguments("out", per_device_train_batch_size=2))
    trainer.train()
""")

_GLUED = 'f"\\n[/INST] {sample[\'response\']} </s>"'
_SPACED = 'f" [/INST] {sample[\'response\']} </s>"'

PF1020_BAD = [
    _INST.format(ckpt='"meta-llama/Llama-2-7b-chat-hf"', answer=_GLUED, template='"[/INST]"',
                 mark="  # error: PF1020"),
    # TRL issue 619: LlamaTokenizer, "### Response:\n" after a blank line in the examples
    textwrap.dedent("""
    from transformers import LlamaForCausalLM, LlamaTokenizer
    from trl import DataCollatorForCompletionOnlyLM

    tokenizer = LlamaTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    tokenizer.pad_token_id = 0
    response_template = "### Response:\\n"
    data_collator = DataCollatorForCompletionOnlyLM(response_template, tokenizer=tokenizer, mlm=False)  # error: PF1020

    text1 = "\\n\\n### Instructions:\\nHello all this should be masked\\n\\n### Response:\\nI have not been masked."
    text2 = "\\n\\n### Instructions:\\nA longer text that is masked too.\\n\\n### Response:\\nI have not been masked."
    batch = data_collator([tokenizer(text1), tokenizer(text2)])
"""),
    # TRL issue 1183: a T5 SentencePiece tokenizer (rinna), "### 回答:" right after "<NL>"
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainingArguments
    from trl import DataCollatorForCompletionOnlyLM, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("rinna/japanese-gpt-neox-3.6b", use_fast=False)
    model = AutoModelForCausalLM.from_pretrained("rinna/japanese-gpt-neox-3.6b")


    def fmt(batch):
        return [f"### 指示:<NL>{i}<NL><NL>### 回答:{o}" for i, o in zip(batch["instruction"], batch["output"])]


    collator = DataCollatorForCompletionOnlyLM(
        "### 回答:",  # error: PF1020
        tokenizer=tokenizer,
    )
    trainer = SFTTrainer(model, train_dataset=ds, formatting_func=fmt, data_collator=collator,
                         args=TrainingArguments("out"))
"""),
    # a template that starts with a newline (Mistral): encoded alone it begins with a lone word-start piece
    textwrap.dedent("""
    from transformers import AutoTokenizer
    from trl import DataCollatorForCompletionOnlyLM

    tok = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-v0.1")
    collator = DataCollatorForCompletionOnlyLM("\\n### Assistant:", tokenizer=tok)  # error: PF1020
"""),
]

PF1020_GOOD = [
    # the fix TRL documents: the template's ids taken in context
    _INST.format(ckpt='"meta-llama/Llama-2-7b-chat-hf"', answer=_GLUED,
                 template='tokenizer.encode("\\n[/INST]", add_special_tokens=False)[2:]', mark=""),
    # tricky-correct: the same Llama-2 template, but the examples put it after a space (its first word keeps `▁`)
    _INST.format(ckpt='"meta-llama/Llama-2-7b-chat-hf"', answer=_SPACED, template='"[/INST]"', mark=""),
    # tricky-correct: a byte-level BPE tokenizer (Llama 3) has no word-start piece; the template after a newline
    # tokenizes the same alone and in context
    _INST.format(ckpt='"meta-llama/Meta-Llama-3-8B-Instruct"', answer=_GLUED, template='"[/INST]"', mark=""),
    # tricky-correct: the checkpoint comes from the command line: the tokenizer family is unknown
    textwrap.dedent("""
    import sys

    from transformers import AutoTokenizer
    from trl import DataCollatorForCompletionOnlyLM

    tokenizer = AutoTokenizer.from_pretrained(sys.argv[1])
    text = "### Question: {q}\\n### Answer: {a}"
    collator = DataCollatorForCompletionOnlyLM("### Answer:", tokenizer=tokenizer)
"""),
    # tricky-correct: Llama-2, but the examples' text is not in the file: nothing shows where the template falls
    textwrap.dedent("""
    from transformers import AutoTokenizer
    from trl import DataCollatorForCompletionOnlyLM

    tokenizer = AutoTokenizer.from_pretrained("NousResearch/Llama-2-7b-hf")
    collator = DataCollatorForCompletionOnlyLM("### Answer:", tokenizer=tokenizer)
"""),
]
