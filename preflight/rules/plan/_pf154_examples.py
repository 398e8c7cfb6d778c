"""PF154 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_PREDICT = textwrap.dedent("""
    # --- predict.py
    from datasets import Dataset
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, Seq2SeqTrainer, Seq2SeqTrainingArguments

    name = "{model}"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModelForSeq2SeqLM.from_pretrained(name)

    prompts = Dataset.from_dict({{"text": ["summarize: first document", "summarize: second document"]}})
    prompts = prompts.map(lambda x: tok(x["text"], truncation=True, max_length=512), batched=True)
    prompts = prompts.remove_columns(["text"])

    args = Seq2SeqTrainingArguments("tmp", per_device_eval_batch_size=8, predict_with_generate=True,
                                    generation_max_length=64)
    trainer = Seq2SeqTrainer(model=model, args=args, tokenizer=tok)
    out = trainer.predict(prompts){mark}
    print(tok.batch_decode(out.predictions, skip_special_tokens=True))
    """)


def _req(version: str) -> str:
    return f"# --- requirements.txt\ntransformers=={version}\ntorch==1.12.1\n"


_MARK = "  # error: PF154"

BAD = [
    # transformers issue 19714: a T5 checkpoint on 4.21.2
    _PREDICT.format(model="google/t5-efficient-tiny", mark=_MARK) + _req("4.21.2"),
    # Flan-T5 on 4.23.1
    _PREDICT.format(model="google/flan-t5-base", mark=_MARK) + _req("4.23.1"),
]

GOOD = [
    # 4.24.0 runs the model only when the batch has labels
    _PREDICT.format(model="google/t5-efficient-tiny", mark="") + _req("4.24.0"),
    # tricky: BART derives its decoder inputs from input_ids, so the forward pass runs without labels
    _PREDICT.format(model="facebook/bart-base", mark="") + _req("4.21.2"),
    # tricky: the prompts carry labels (targets tokenized with text_target)
    _PREDICT.format(model="google/t5-efficient-tiny", mark="").replace(
        'tok(x["text"], truncation=True, max_length=512)',
        'tok(x["text"], text_target=x["text"], truncation=True, max_length=512)') + _req("4.21.2"),
    # transformers not pinned
    _PREDICT.format(model="google/t5-efficient-tiny", mark="") + "# --- requirements.txt\ntransformers>=4.20\n",
]
