"""PF155 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling
    from trl import SFTConfig, SFTTrainer


    def main():
        tok = AutoTokenizer.from_pretrained("Qwen/Qwen2-0.5B")
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B", attn_implementation="flash_attention_2")
        ds = load_dataset("json", data_files={{"train": "train.jsonl", "eval": "eval.jsonl"}})
        config = SFTConfig(
            output_dir="out",
            dataset_text_field="text",
            max_seq_length=2048,
            packing=True,
            {eval_packing}
            eval_strategy="steps",
            eval_steps=200,
            save_steps=200,
            load_best_model_at_end=True,
        )
        trainer = SFTTrainer(model=model, args=config, train_dataset=ds["train"], eval_dataset=ds["eval"],
                             tokenizer=tok{collator})
        trainer.train()


    if __name__ == "__main__":
        main()
    """)


def _req(version: str) -> str:
    return f"# --- requirements.txt\ntrl=={version}\ntransformers==4.43.4\n"


_OFF = "eval_packing=False,"

BAD = [
    # TRL issue 1907: KeyError 'eval_loss' at the first save
    _TRAIN.format(eval_packing=_OFF + "  # warning: PF155", collator="") + _req("0.9.6"),
    # a later release of the range
    _TRAIN.format(eval_packing=_OFF + "  # warning: PF155", collator="") + _req("0.12.2"),
]

GOOD = [
    # evaluation packed like training
    _TRAIN.format(eval_packing="", collator="") + _req("0.9.6"),
    # tricky: a language-modelling collator adds the labels to the unpacked batches
    _TRAIN.format(eval_packing=_OFF, collator=", data_collator=DataCollatorForLanguageModeling(tok, mlm=False)")
    + _req("0.9.6"),
    # trl 0.15 sets the collator whatever the packing
    _TRAIN.format(eval_packing=_OFF, collator="") + _req("0.15.2"),
    # trl not pinned
    _TRAIN.format(eval_packing=_OFF, collator="") + "# --- requirements.txt\ntrl>=0.9\n",
    # both unpacked: the collator is built for them
    _TRAIN.format(eval_packing=_OFF, collator="").replace("packing=True,", "packing=False,") + _req("0.9.6"),
]
