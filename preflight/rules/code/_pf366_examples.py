"""PF366 examples: bad ones pin their finding's line, good ones stay silent.

Rebuilt (det74) from the shapes of public reports: rungjoo/CoMPM#2 (a RoBERTa classifier fed a padded
batch without its mask), huggingface/transformers#3481 (a padded language-modelling batch passed without
``attention_mask``), showlab/ShowUI#78 (the mask never reaches the model during training).
"""

from __future__ import annotations

import textwrap

PF366_BAD = [
    # an encoder classifier trained on a padded batch: only the ids reach the model
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("roberta-base")
    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=7).cuda()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)


    def train_epoch(batches):
        for texts, labels in batches:
            batch = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
            out = model(batch["input_ids"].cuda(), labels=labels.cuda())  # warning: PF366
            out.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # a seq2seq model: padded to max_length, the ids passed by keyword, the mask dropped
    textwrap.dedent("""
    import torch
    from transformers import AutoTokenizer, T5ForConditionalGeneration

    tok = AutoTokenizer.from_pretrained("t5-small")
    t5 = T5ForConditionalGeneration.from_pretrained("t5-small")
    t5.train()
    opt = torch.optim.AdamW(t5.parameters(), lr=3e-4)
    for sources, targets in [(["summarize: a b c", "summarize: d"], ["a", "d"])]:
        src = tok(sources, padding="max_length", max_length=64, truncation=True, return_tensors="pt")
        tgt = tok(targets, padding="max_length", max_length=16, truncation=True, return_tensors="pt")
        labels = tgt.input_ids.clone()
        labels[labels == tok.pad_token_id] = -100
        loss = t5(input_ids=src.input_ids, labels=labels).loss  # warning: PF366
        loss.backward()
        opt.step()
        opt.zero_grad()
"""),
    # a decoder-only model padded on the left during fine-tuning: every real token attends to the pads
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("gpt2", padding_side="left")
    tokenizer.pad_token = tokenizer.eos_token
    lm = AutoModelForCausalLM.from_pretrained("gpt2")
    lm.train()
    optimizer = torch.optim.AdamW(lm.parameters(), lr=1e-5)


    def step(texts):
        enc = tokenizer(texts, padding=True, return_tensors="pt")
        labels = enc.input_ids.masked_fill(enc.attention_mask == 0, -100)
        loss = lm(enc.input_ids, labels=labels).loss  # warning: PF366
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # the ids moved to the device under their own name, the mask left behind (an embedding model evaluated
    # on a padded batch)
    textwrap.dedent("""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    encoder = AutoModel.from_pretrained("bert-base-uncased").to("cuda")
    encoder.eval()


    @torch.no_grad()
    def embed(texts):
        enc = tokenizer(texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
        input_ids = enc.input_ids.to("cuda")
        mask = enc.attention_mask.to("cuda")
        hidden = encoder(input_ids).last_hidden_state  # warning: PF366
        return (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
"""),
    # an NLI model scoring sentence pairs padded to max_length, the encoding moved with `.to(device)` and
    # the tokenizer and model held on `self` (a shape found in public code, rebuilt)
    textwrap.dedent("""
    import torch


    class Entailment:
        def __init__(self):
            self.device = "cuda"
            self.load()

        def load(self):
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
            self.tokenizer = AutoTokenizer.from_pretrained("some/deberta-mnli")
            self.nli_model = AutoModelForSequenceClassification.from_pretrained("some/deberta-mnli").to(self.device)

        @torch.no_grad()
        def score(self, premises, hypotheses):
            inputs = self.tokenizer(premises, hypotheses, return_tensors="pt", truncation=True,
                                    padding="max_length", max_length=40).to(self.device)
            output = self.nli_model(inputs["input_ids"])  # warning: PF366
            return torch.softmax(output["logits"], -1)
"""),
]

PF366_GOOD = [
    # the fixes: the mask passed by keyword, or the encoding unpacked
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("roberta-base")
    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=7).cuda()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)


    def train_epoch(batches):
        for texts, labels in batches:
            batch = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
            out = model(batch["input_ids"].cuda(), attention_mask=batch["attention_mask"].cuda(),
                        labels=labels.cuda())
            out.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            batch = tokenizer(texts, padding="longest", return_tensors="pt").to("cuda")
            model(**batch, labels=labels.cuda()).loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: a decoder-only model with the default right padding (no real token attends to a
    # later pad, the pad labels are -100); an unpadded single text; padding chosen at run time; a
    # re-encoding without padding replaces the padded one
    textwrap.dedent("""
    import torch
    from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token
    lm = AutoModelForCausalLM.from_pretrained("gpt2")
    lm.train()
    encoder = AutoModel.from_pretrained("bert-base-uncased")
    optimizer = torch.optim.AdamW(lm.parameters(), lr=1e-5)


    def step(texts, one_text, args):
        enc = tokenizer(texts, padding=True, return_tensors="pt")
        labels = enc.input_ids.masked_fill(enc.attention_mask == 0, -100)
        lm(enc.input_ids, labels=labels).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        single = tokenizer(one_text, return_tensors="pt")
        with torch.no_grad():
            hidden = encoder(single["input_ids"]).last_hidden_state
            chosen = tokenizer(texts, padding=args.padding, return_tensors="pt")
            encoder(chosen["input_ids"])
            enc = tokenizer(one_text, return_tensors="pt")
            encoder(enc["input_ids"])
        return hidden
"""),
    # the twin of the name shape: the mask goes with the ids
    textwrap.dedent("""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    encoder = AutoModel.from_pretrained("bert-base-uncased").to("cuda")
    encoder.eval()


    @torch.no_grad()
    def embed(texts):
        enc = tokenizer(texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
        input_ids = enc.input_ids.to("cuda")
        mask = enc.attention_mask.to("cuda")
        hidden = encoder(input_ids, attention_mask=mask).last_hidden_state
        return (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
"""),
    # tricky-correct: a diffusion pipeline's frozen text encoders, prompts padded to max_length and run
    # without a mask on purpose (the denoiser was trained on those embeddings)
    textwrap.dedent("""
    import torch
    from transformers import CLIPTextModel, CLIPTokenizer, T5EncoderModel, T5Tokenizer

    clip_tok = CLIPTokenizer.from_pretrained("runwayml/stable-diffusion-v1-5", subfolder="tokenizer")
    clip = CLIPTextModel.from_pretrained("runwayml/stable-diffusion-v1-5", subfolder="text_encoder").to("cuda")
    t5_tok = T5Tokenizer.from_pretrained("THUDM/CogVideoX-2b", subfolder="tokenizer")
    t5 = T5EncoderModel.from_pretrained("THUDM/CogVideoX-2b", subfolder="text_encoder").to("cuda")


    @torch.no_grad()
    def encode_prompt(prompts):
        ids = clip_tok(prompts, padding="max_length", max_length=clip_tok.model_max_length, truncation=True,
                       return_tensors="pt").input_ids
        clip_embeds = clip(ids.to("cuda"))[0]
        enc = t5_tok(prompts, padding="max_length", max_length=226, truncation=True, return_tensors="pt")
        t5_embeds = t5(enc.input_ids.to("cuda"))[0]
        return clip_embeds, t5_embeds
"""),
]
