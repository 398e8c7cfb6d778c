"""PF367 examples: bad ones pin their finding's line, good ones stay silent.

Rebuilt (det74) from the shapes of public reports: huggingface/transformers#27517 (a causal LM trained
on unshifted labels copies its input), NVIDIA/Model-Optimizer#1343 (a hand-written loss on
``logits.view(-1, V)`` against ``labels.view(-1)``), microsoft/TransformerCompression#98 (fine-tuning
without shifting the labels).
"""

from __future__ import annotations

import textwrap

PF367_BAD = [
    # a custom loss on a causal LM's logits against a copy of its input ids
    textwrap.dedent("""
    import torch
    from torch.nn import CrossEntropyLoss
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loss_fct = CrossEntropyLoss(ignore_index=-100)


    def train(loader):
        for batch in loader:
            input_ids = batch["input_ids"].cuda()
            labels = input_ids.clone()
            logits = model(input_ids=input_ids, attention_mask=batch["attention_mask"].cuda()).logits
            loss = loss_fct(logits.view(-1, logits.size(-1)), labels.view(-1))  # error: PF367
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the functional loss on the first output, the ids unpacked from the loader
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from transformers import LlamaForCausalLM

    lm = LlamaForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", torch_dtype=torch.bfloat16)
    lm.train()
    opt = torch.optim.AdamW(lm.parameters(), lr=2e-5)
    for ids, mask in [(torch.ones(2, 8, dtype=torch.long), torch.ones(2, 8))]:
        outputs = lm(ids, attention_mask=mask)
        logits = outputs[0]
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), ids.reshape(-1))  # error: PF367
        loss.backward()
        opt.step()
        opt.zero_grad()
"""),
]

PF367_GOOD = [
    # the fix: shift both sides; or the model's own loss
    textwrap.dedent("""
    import torch
    from torch.nn import CrossEntropyLoss
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loss_fct = CrossEntropyLoss(ignore_index=-100)


    def train(loader):
        for batch in loader:
            input_ids = batch["input_ids"].cuda()
            labels = input_ids.clone()
            logits = model(input_ids=input_ids).logits
            shift_logits = logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = loss_fct(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
            loss.backward()
            model(input_ids=input_ids, labels=labels).loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: the shift made before the model (inputs and targets sliced apart); a masked LM and a
    # seq2seq model score the same positions without a shift
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, T5ForConditionalGeneration

    lm = AutoModelForCausalLM.from_pretrained("gpt2")
    mlm = AutoModelForMaskedLM.from_pretrained("bert-base-uncased")
    t5 = T5ForConditionalGeneration.from_pretrained("t5-small")
    lm.train()
    mlm.train()
    t5.train()
    params = list(lm.parameters()) + list(mlm.parameters()) + list(t5.parameters())
    opt = torch.optim.AdamW(params, lr=1e-5)
    for ids in [torch.ones(2, 8, dtype=torch.long)]:
        inputs, targets = ids[:, :-1], ids[:, 1:]
        logits = lm(inputs).logits
        F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1)).backward()
        mlm_logits = mlm(ids).logits
        F.cross_entropy(mlm_logits.view(-1, mlm_logits.size(-1)), ids.view(-1)).backward()
        dec = t5(input_ids=ids, decoder_input_ids=ids).logits
        F.cross_entropy(dec.view(-1, dec.size(-1)), ids.view(-1)).backward()
        opt.step()
        opt.zero_grad()
"""),
]
