"""det74: rules for data-flow classes chosen from public reports (docs/corpus.md 'det74').

PF366 padded-batch-without-attention-mask, PF367 causal-lm-loss-without-shift, and PF125's new site
(labels= of a transformers model). Each test pins what a user sees: the code, the line, and the words of the
message that name the evidence; the twins pin the silences the real-code run required
(bench/bugs/det74_real_code.txt).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str, code: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=text.encode(),
                                     text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=(code,)))


ENCODER = """\
import torch
from transformers import {model_cls}, AutoTokenizer

tok = AutoTokenizer.from_pretrained("m")
enc_model = {model_cls}.from_pretrained("m").to("cuda")


@torch.no_grad()
def embed(texts):
    enc = tok(texts, padding="max_length", max_length=77, truncation=True, return_tensors="pt")
    ids = enc.input_ids.to("cuda")
    return enc_model({call})[0]
"""


def test_pf366_encoder_without_mask_names_padding_and_line():
    found = check(ENCODER.format(model_cls="AutoModel", call="ids"), "PF366")
    assert [(f.code, f.span.line) for f in found] == [("PF366", 12)]
    assert 'padding="max_length"` at line 10' in found[0].message
    assert "AutoModel" in found[0].message


def test_pf366_silent_with_mask_or_splat():
    assert check(ENCODER.format(model_cls="AutoModel", call="ids, attention_mask=enc.attention_mask.to('cuda')"),
                 "PF366") == []
    assert check(ENCODER.format(model_cls="AutoModel", call="**enc"), "PF366") == []


def test_pf366_silent_on_diffusion_text_encoders():
    # the real-code run's 11 findings were of this kind: conditioning encoders run without a mask on purpose
    for cls in ("CLIPTextModel", "T5EncoderModel", "CLIPTextModelWithProjection"):
        assert check(ENCODER.format(model_cls=cls, call="ids"), "PF366") == [], cls


def test_pf366_decoder_only_only_when_left_padded():
    src = ENCODER.format(model_cls="AutoModelForCausalLM", call="ids")
    assert check(src, "PF366") == []
    left = src.replace('tok = AutoTokenizer.from_pretrained("m")',
                       'tok = AutoTokenizer.from_pretrained("m")\ntok.padding_side = "left"')
    found = check(left, "PF366")
    assert [f.span.line for f in found] == [13]
    assert "padded on the left" in found[0].message


LM_LOSS = """\
import torch
import torch.nn.functional as F
from transformers import AutoModelForCausalLM

lm = AutoModelForCausalLM.from_pretrained("gpt2")
lm.train()
opt = torch.optim.AdamW(lm.parameters())
for ids in loader:
    logits = lm(ids).logits
    {loss}
    loss.backward()
    opt.step()
    opt.zero_grad()
"""


def test_pf367_unshifted_hand_loss_is_an_error_at_its_line():
    found = check(LM_LOSS.format(loss="loss = F.cross_entropy(logits.view(-1, logits.size(-1)), ids.view(-1))"),
                  "PF367")
    assert [(f.code, f.span.line, f.severity.name) for f in found] == [("PF367", 10, "ERROR")]
    assert "AutoModelForCausalLM" in found[0].message and "line 9" in found[0].message


def test_pf367_silent_when_shifted():
    shifted = ("loss = F.cross_entropy(logits[..., :-1, :].reshape(-1, logits.size(-1)), "
               "ids[..., 1:].reshape(-1))")
    assert check(LM_LOSS.format(loss=shifted), "PF367") == []


PAD_LABELS = """\
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2")
model.train()
opt = torch.optim.AdamW(model.parameters())


def collate(batch):
    ids = pad_sequence(batch, batch_first=True, padding_value={pad})
    labels = pad_sequence(batch, batch_first=True, padding_value={pad})
    return ids, labels


loader = DataLoader(data, collate_fn=collate)
for input_ids, labels in loader:
    model(input_ids=input_ids, labels=labels).loss.backward()
    opt.step()
    opt.zero_grad()
"""


def test_pf125_labels_of_a_transformers_model_padded_with_the_pad_id():
    found = check(PAD_LABELS.format(pad="0"), "PF125")
    assert [(f.code, f.span.line) for f in found] == [("PF125", 19)]
    assert "labels=labels" in found[0].message and "ignore_index=-100" in found[0].message


def test_pf125_silent_when_labels_are_padded_with_minus_100():
    src = PAD_LABELS.format(pad="0").replace("labels = pad_sequence(batch, batch_first=True, padding_value=0)",
                                             "labels = pad_sequence(batch, batch_first=True, padding_value=-100)")
    assert "padding_value=-100" in src
    assert check(src, "PF125") == []
