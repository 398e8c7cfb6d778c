"""PF487 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF487_BAD = [
    # peft#120 shape: a LoRA loop on a from_pretrained model, a generate() check, never model.train()
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-neo-125M").cuda()
    model = get_peft_model(model, LoraConfig(r=16, lora_dropout=0.05, task_type="CAUSAL_LM"))
    with torch.no_grad():
        print(model.generate(input_ids=torch.LongTensor([[0, 1, 2]]).cuda(), max_new_tokens=20))
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=2e-4)
    for epoch in range(3):
        for batch in loader:
            outputs = model(**batch)  # warning: PF487
            outputs.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # peft scripts/train_memory.py at 5d602fd (rewritten short): the loop is inside the script's own
    # `train(...)` function (a call of that name is not a mode setter: its body is this file), and
    # `prepare_model_for_kbit_training` turns gradient checkpointing on, which eval mode skips
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig


    def train(model_id, path_config, max_steps):
        model = AutoModelForCausalLM.from_pretrained(model_id, quantization_config=BitsAndBytesConfig(load_in_8bit=True))
        model = prepare_model_for_kbit_training(model)
        model = get_peft_model(model, LoraConfig.from_pretrained(path_config))
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        for i in range(max_steps):
            optimizer.zero_grad()
            outputs = model(**batches[i])  # warning: PF487
            outputs.loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        print(eval("1 + 1"))
        train(model_id=args.model_id, path_config=args.path_config, max_steps=50)
"""),
]

PF487_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model.train()
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky-correct: the Trainer sets the mode; an explicit eval() is a choice (PF111 judges it)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, train_dataset=ds).train()
"""),
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM

    policy = AutoModelForCausalLM.from_pretrained("gpt2")
    policy.eval()  # dropout off on purpose (RL fine-tuning)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
    for batch in loader:
        policy(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky-correct: a model built from a config (train mode by default)
    textwrap.dedent("""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained("gpt2"))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky-correct: a model family without dropout (Qwen2) and no LoRA dropout or checkpointing: eval mode
    # changes nothing the loop relies on
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B", torch_dtype=torch.float32).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky-correct (trl tests/test_activation_offloading.py at f2cd577): one test method loads a Qwen2
    # LoRA model and runs a single backward; another binds `model` to a plain nn.Module (train mode by
    # default) and trains it in a loop: the loop's `model` is not the from_pretrained one
    textwrap.dedent("""
    import torch
    from torch import nn
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM


    class TestOffloading:
        def test_peft(self):
            model = AutoModelForCausalLM.from_pretrained("tiny-Qwen2ForCausalLM").to("cuda")
            model = get_peft_model(model, LoraConfig(lora_dropout=0.1, task_type="CAUSAL_LM"))
            inp = torch.randint(0, 100, (2, 10), device="cuda")
            model(inp, labels=inp).loss.backward()

        def test_unused_branch(self):
            class TwoBranches(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.used = nn.Linear(8, 8)
                    self.unused = nn.Linear(8, 8)

                def forward(self, x):
                    return self.used(x).sum(), self.unused(x).sum()

            model = TwoBranches().to("cuda")
            inp = torch.randn(4, 8, device="cuda")
            for _ in range(3):
                model.zero_grad(set_to_none=True)
                loss, _ = model(inp)
                loss.backward()
"""),
    # the fix of the script above: its own train() sets the mode
    textwrap.dedent("""
    import torch
    from peft import prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig


    def train(model_id, max_steps):
        model = AutoModelForCausalLM.from_pretrained(model_id, quantization_config=BitsAndBytesConfig(load_in_8bit=True))
        model = prepare_model_for_kbit_training(model)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model.train()
        for i in range(max_steps):
            optimizer.zero_grad()
            model(**batches[i]).loss.backward()
            optimizer.step()


    train(model_id=args.model_id, max_steps=50)
"""),
    # tricky-correct: k-bit preparation told not to checkpoint, and nothing else that eval mode switches off
    # (the model id is not a literal)
    textwrap.dedent("""
    import torch
    from peft import prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(args.model_id, load_in_8bit=True)
    model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky-correct: an imported `fit` whose body preflight does not see may set the mode
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification
    from mytools import fit

    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    fit(model, loader, optimizer)
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
]
