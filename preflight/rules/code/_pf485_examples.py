"""PF485 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF485_BAD = [
    # transformers#34055 shape: Llama-3.1 multi-label classifier, pad = EOS on the tokenizer only
    textwrap.dedent("""
    import torch
    from transformers import AutoTokenizer, LlamaForSequenceClassification, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Meta-Llama-3.1-8B")
    tokenizer.pad_token = tokenizer.eos_token
    model = LlamaForSequenceClassification.from_pretrained(  # warning: PF485
        "meta-llama/Meta-Llama-3.1-8B", num_labels=6, torch_dtype=torch.bfloat16)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    # a reward model trained by hand, the pad id given to the tokenizer
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(name)
    tok.pad_token_id = tok.eos_token_id
    rm = AutoModelForSequenceClassification.from_pretrained(name, num_labels=1)  # warning: PF485
"""),
]

PF485_GOOD = [
    # the fix: the config gets the pad id too
    textwrap.dedent("""
    from transformers import AutoTokenizer, LlamaForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Meta-Llama-3.1-8B")
    tokenizer.pad_token = tokenizer.eos_token
    model = LlamaForSequenceClassification.from_pretrained("meta-llama/Meta-Llama-3.1-8B", num_labels=6)
    model.config.pad_token_id = tokenizer.pad_token_id
"""),
    # tricky-correct: the pad id passed to from_pretrained; and trl's RewardTrainer copies it itself
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-v0.1")
    tokenizer.pad_token = tokenizer.unk_token
    model = AutoModelForSequenceClassification.from_pretrained("mistralai/Mistral-7B-v0.1", num_labels=2,
                                                               pad_token_id=tokenizer.pad_token_id)
"""),
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    from trl import RewardConfig, RewardTrainer

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2-0.5B")
    tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForSequenceClassification.from_pretrained("Qwen/Qwen2-0.5B", num_labels=1)
    RewardTrainer(model=model, args=RewardConfig("out"), processing_class=tokenizer, train_dataset=ds).train()
"""),
    # tricky-correct: an encoder classifier (its config has a pad id); the pad token set on a config object
    textwrap.dedent("""
    from transformers import AutoTokenizer, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    tokenizer.pad_token = "[PAD]"
    model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=5)
"""),
    # tricky-correct (open-instruct open_instruct/rejection_sampling/rejection_sampling.py at e6c3044): the
    # reward model is scored through get_reward, which runs the backbone and `model.score` and finds each
    # row's last token from the pad id it is given; the model's own forward (config.pad_token_id) never runs
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding
    from open_instruct.model_utils import get_reward


    def score_shard(path, ds, batch_size):
        tokenizer = AutoTokenizer.from_pretrained(path, padding_side="right")
        tokenizer.add_special_tokens({"pad_token": "[PAD]"})
        model = AutoModelForSequenceClassification.from_pretrained(path, dtype=torch.bfloat16).cuda()
        model.eval()
        collator = DataCollatorWithPadding(tokenizer=tokenizer)
        scores = []
        with torch.no_grad():
            for i in range(0, len(ds), batch_size):
                input_ids = collator(ds[i : i + batch_size])["input_ids"].cuda()
                _, score, _ = get_reward(model, input_ids, tokenizer.pad_token_id, 0)
                scores.extend(score.tolist())
        return scores
"""),
]
