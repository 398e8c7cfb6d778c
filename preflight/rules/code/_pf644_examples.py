"""PF644 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_LOOP = textwrap.dedent("""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM


    def get_xy_batch(dataset, indices, device):
        data = torch.tensor(dataset[indices]["tokens"], dtype=torch.long)
    {xy}
        return X.to(device), Y.to(device)


    def run_training(config, train_ds):
        model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(config.model_config_name)).to("cuda")
        optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate)
        model.train()
        for it in range(config.max_iters):
            indices = torch.randint(0, len(train_ds), (config.batch_size,)).tolist()
            X, Y = get_xy_batch(train_ds, indices, "cuda")
            loss = model(input_ids=X, labels=Y).loss{pin}
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
""")

PF644_BAD = [
    # held-out-30 (delphi PR 134): X = tokens[:, :-1], Y = tokens[:, 1:] from a helper, labels shifted again
    _LOOP.format(xy="    X = data[:, :-1]\n    Y = data[:, 1:]", pin="  # error: PF644"),
]

PF644_GOOD = [
    # the fix: the same sequence as inputs and labels
    _LOOP.format(xy="    X = data\n    Y = data", pin=""),
    # tricky-correct: a nanoGPT-style model of the file computes its loss from pre-shifted targets
    _LOOP.format(xy="    X = data[:, :-1]\n    Y = data[:, 1:]", pin="").replace(
        "AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(config.model_config_name))",
        "GPT(GPTConfig())").replace("model(input_ids=X, labels=Y).loss", "model(X, targets=Y)[1]"),
]
