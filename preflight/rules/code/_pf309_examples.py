"""PF309 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SFT = textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import DataCollatorForCompletionOnlyLM, SFTConfig, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("openai-community/gpt2-large")
    tokenizer.add_special_tokens({{"pad_token": "<|pad|>"}})
    model = AutoModelForCausalLM.from_pretrained("openai-community/gpt2-large")
    model.resize_token_embeddings(len(tokenizer))


    def formatting_func(batch):
        return [f"Question: {{q}}\\nAnswer: {{a}}{{tokenizer.eos_token}}" for q, a in zip(batch["q"], batch["a"])]


    response_template = {template}{mark}
    collator = DataCollatorForCompletionOnlyLM(response_template, tokenizer=tokenizer)
    trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out"), train_dataset=dataset,
                         formatting_func=formatting_func, data_collator=collator)
    trainer.train()
""")

PF309_BAD = [
    # TRL issue 1920: "Answer: " with a trailing space
    _SFT.format(template='"Answer: "', mark="  # error: PF309"),
    # the template written in the call, and an instruction template with a trailing space
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM


    def build_collator(tokenizer):
        return DataCollatorForCompletionOnlyLM(
            instruction_template="### Human: ",  # error: PF309
            response_template="### Assistant:",
            tokenizer=tokenizer,
        )
"""),
]

PF309_GOOD = [
    # the fix
    _SFT.format(template='"Answer:"', mark=""),
    # tricky-correct: a template ending in a newline (its own token in the text as well)
    _SFT.format(template='"### Response:\\n"', mark=""),
    # tricky-correct: token ids taken from the template in context
    _SFT.format(template='tokenizer.encode("\\nAnswer: ", add_special_tokens=False)[1:-1]', mark=""),
]
