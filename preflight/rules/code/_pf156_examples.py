"""PF156 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # neulab/prompt2model issue 87's shape: long reports summarised with t5-large, cut at 512 tokens
    textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    MAX_SOURCE_TOKENS = 2048
    tokenizer = AutoTokenizer.from_pretrained("t5-large")


    def preprocess(batch):
        inputs = tokenizer(["summarize: " + d for d in batch["report"]], truncation=True)  # warning: PF156
        labels = tokenizer(text_target=batch["summary"], max_length=256, truncation=True)
        inputs["labels"] = labels["input_ids"]
        return inputs


    data = data.map(preprocess, batched=True)
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-large")
"""),
    # a slow T5 tokenizer on self, the length a command-line default nobody passes on
    textwrap.dedent("""
    import argparse

    from transformers import T5ForConditionalGeneration, T5Tokenizer


    class QADataset:
        def __init__(self, rows):
            self.rows = rows
            self.tok = T5Tokenizer.from_pretrained("t5-base")

        def __getitem__(self, i):
            return self.tok.encode_plus(self.rows[i]["context"], truncation=True,  # warning: PF156
                                        return_tensors="pt")


    parser = argparse.ArgumentParser()
    parser.add_argument("--max_input_length", type=int, default=1024)
    args = parser.parse_args()
    model = T5ForConditionalGeneration.from_pretrained("t5-base")
"""),
]

GOOD_EXAMPLES = [
    # the fix: the length passed, and the tokenizer told its real maximum
    textwrap.dedent("""
    from transformers import AutoTokenizer

    MAX_SOURCE_TOKENS = 2048
    tokenizer = AutoTokenizer.from_pretrained("t5-large", model_max_length=MAX_SOURCE_TOKENS)


    def preprocess(batch):
        return tokenizer(batch["report"], max_length=MAX_SOURCE_TOKENS, truncation=True)
"""),
    # tricky-correct: no longer input length declared anywhere, 512 may be the intent
    textwrap.dedent("""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("t5-small")
    MAX_TARGET_LENGTH = 1024


    def preprocess(batch):
        return tokenizer(batch["text"], truncation=True)
"""),
    # tricky-correct: flan-t5 ships its own tokenizer config; the model_max_length raised after loading
    textwrap.dedent("""
    from transformers import AutoTokenizer

    MAX_INPUT_LENGTH = 1536
    flan = AutoTokenizer.from_pretrained("google/flan-t5-base")
    legacy = AutoTokenizer.from_pretrained("t5-base")
    legacy.model_max_length = MAX_INPUT_LENGTH


    def preprocess(batch):
        a = flan(batch["text"], truncation=True)
        b = legacy(batch["text"], truncation=True)
        return a, b
"""),
    # tricky-correct: the length handed on through a variable named like the declared one
    textwrap.dedent("""
    from transformers import T5TokenizerFast

    max_source_length = 1024
    tokenizer = T5TokenizerFast.from_pretrained("t5-base")


    def encode(texts, **kw):
        return tokenizer(texts, truncation=True, padding="max_length", max_length=max_source_length)
"""),
]
