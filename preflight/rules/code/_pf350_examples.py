"""PF350 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SFT = textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import DataCollatorForCompletionOnlyLM, SFTConfig, SFTTrainer

    name = {model!r}
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModelForCausalLM.from_pretrained(name)
    dataset = load_dataset("json", data_files="qa.jsonl", split="train")

    response_ids = {ids}{mark}
    collator = DataCollatorForCompletionOnlyLM(response_ids, tokenizer=tokenizer)
    trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out", dataset_text_field="text"),
                         train_dataset=dataset, data_collator=collator)
    trainer.train()
""")

PF350_BAD = [
    # transformers issue 27733: the template's ids start with Llama's <s>
    _SFT.format(model="mistralai/Mistral-7B-v0.1", ids='tokenizer.encode("### Answer:")', mark="  # error: PF350"),
    # both templates encoded in the call, with the tokenizer's __call__
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM


    def build_collator(tok):
        return DataCollatorForCompletionOnlyLM(
            instruction_template=tok("[INST]")["input_ids"],  # error: PF350
            response_template=tok("[/INST]").input_ids,  # error: PF350
            tokenizer=tok,
        )
"""),
    # add_special_tokens=True said out loud
    _SFT.format(model="meta-llama/Llama-2-7b-hf", ids='tokenizer.encode("Answer:", add_special_tokens=True)',
                mark="  # error: PF350"),
]

PF350_GOOD = [
    # the fix
    _SFT.format(model="meta-llama/Llama-2-7b-hf", ids='tokenizer.encode("### Answer:", add_special_tokens=False)',
                mark=""),
    # tricky-correct: ids of the template in context, the leading ones dropped (TRL's documentation)
    _SFT.format(model="meta-llama/Llama-2-7b-hf", ids='tokenizer.encode("\\n### Answer:")[3:]', mark=""),
    # tricky-correct: GPT-2's tokenizer adds no BOS, so encode() gives the template's own ids
    _SFT.format(model="openai-community/gpt2", ids='tokenizer.encode(" ### Answer:")', mark=""),
    # tricky-correct: the template as a string (the collator encodes it without special tokens)
    _SFT.format(model="meta-llama/Llama-2-7b-hf", ids='"### Answer:"', mark=""),
]
