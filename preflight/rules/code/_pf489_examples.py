"""PF489 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF489_BAD = [
    # transformers#12583 shape: a tokenizer trained with the tokenizers library, given to the MLM collator
    textwrap.dedent("""
    from tokenizers import Tokenizer
    from transformers import AutoConfig, AutoModelForMaskedLM, DataCollatorForLanguageModeling

    tokenizer = Tokenizer.from_file("my-tokenizer.json")
    config = AutoConfig.from_pretrained("bert-base-cased", vocab_size=tokenizer.get_vocab_size())
    model = AutoModelForMaskedLM.from_config(config)
    collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=True)  # error: PF489
"""),
    # a ByteLevelBPETokenizer given to the Trainer
    textwrap.dedent("""
    import tokenizers
    from transformers import Trainer


    def main(model, ds):
        tok = tokenizers.ByteLevelBPETokenizer("vocab.json", "merges.txt")
        Trainer(model=model, train_dataset=ds, tokenizer=tok).train()  # error: PF489
"""),
]

PF489_GOOD = [
    # the fix: wrapped in PreTrainedTokenizerFast
    textwrap.dedent("""
    from tokenizers import Tokenizer
    from transformers import DataCollatorForLanguageModeling, PreTrainedTokenizerFast

    raw = Tokenizer.from_file("my-tokenizer.json")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="[PAD]", mask_token="[MASK]")
    collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=True)
"""),
    # tricky-correct: the name is re-bound to the wrapper; a transformers tokenizer class of a similar name
    textwrap.dedent("""
    from tokenizers import Tokenizer
    from transformers import BertTokenizer, DataCollatorForLanguageModeling, PreTrainedTokenizerFast

    tokenizer = Tokenizer.from_file("tok.json")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tokenizer, mask_token="[MASK]", pad_token="[PAD]")
    collator = DataCollatorForLanguageModeling(tokenizer)
    bert_tok = BertTokenizer.from_pretrained("bert-base-uncased")
    collator2 = DataCollatorForLanguageModeling(bert_tok)
"""),
]
