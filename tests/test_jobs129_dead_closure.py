"""A tokenizer length read only by closures the script never calls (adapters/cliargs_dead_reads.py, used by
adapters/pytorch_features.py and adapters/cliargs.py), in the shape of bupticybee/FastLoRAChat @ the
benchmark's commit ``finetune_fastchat.py:270,379-420,464-478`` (``tokenize`` with ``max_length=cutoff_len``
called only by ``generate_and_tokenize_prompt``, whose one use sits in a string literal); twin: the same
closures mapped over the data state the length."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import fire
    import transformers
    from datasets import load_dataset


    def train(base_model: str = "huggyllama/llama-7b", data_path: str = "d.json", cutoff_len: int = 256):
        print(f"cutoff_len: {{cutoff_len}}")
        tokenizer = transformers.AutoTokenizer.from_pretrained(base_model)
        model = transformers.AutoModelForCausalLM.from_pretrained(base_model)

        def tokenize(prompt):
            return tokenizer(prompt, truncation=True, max_length=cutoff_len, padding=False)

        def generate_and_tokenize_prompt(point):
            return tokenize(point["text"])

        data = load_dataset("json", data_files=data_path)
        {use}
        trainer = transformers.Trainer(model=model, train_dataset=train_data,
                                       args=transformers.TrainingArguments(output_dir="o"))
        trainer.train()


    if __name__ == "__main__":
        fire.Fire(train)
"""

DEAD = '''train_data = data["train"]
        """
        train_data = data["train"].map(generate_and_tokenize_prompt)
        """'''
LIVE = 'train_data = data["train"].map(generate_and_tokenize_prompt)'


def test_length_of_a_closure_never_called_is_not_the_training_length(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT.format(use=DEAD)})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "data.seq_len")
    assert got is None or got.value != 256


def test_length_of_a_mapped_closure_is_stated(cli, tmp_path):
    """Twin: the closure is mapped over the training data."""
    write(tmp_path, {"train.py": SCRIPT.format(use=LIVE)})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "data.seq_len")
    assert got is not None and got.value == 256


def test_decorated_closure_is_never_called_dead(cli, tmp_path):
    """Twin: a decorator may register the closure (``@register``), so its tokenizer length still counts."""
    script = SCRIPT.format(use='train_data = data["train"].map(REG["f"])').replace(
        "        def generate_and_tokenize_prompt(point):",
        "        @register\n        def generate_and_tokenize_prompt(point):").replace(
        "import fire\n", "import fire\n    REG = {}\n\n\n    def register(f):\n        REG['f'] = f\n        return f\n")
    write(tmp_path, {"train.py": script})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "data.seq_len")
    assert got is not None and got.value == 256
