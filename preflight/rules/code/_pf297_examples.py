"""PF297 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # IDEA-CCNL/Fengshenbang-LM#414's shape: the collate pads every column with -100
    textwrap.dedent("""
    from torch.nn.utils.rnn import pad_sequence

    def collate_fn(batch):
        input_ids = [item["input_ids"] for item in batch]
        attention_mask = [item["attention_mask"] for item in batch]
        labels = [item["labels"] for item in batch]
        return {
            "input_ids": pad_sequence(input_ids, batch_first=True, padding_value=-100),  # error: PF297
            "attention_mask": pad_sequence(attention_mask, batch_first=True, padding_value=-100),  # error: PF297
            "labels": pad_sequence(labels, batch_first=True, padding_value=-100),
        }
"""),
    # the unlearning collate copied across public repositories: ids padded with -100, the mask with 0
    textwrap.dedent("""
    import torch

    IGNORE_INDEX = -100

    def collate_fn(batch):
        input_ids, attention_masks = zip(*batch)
        input_ids = torch.nn.utils.rnn.pad_sequence(input_ids, True, IGNORE_INDEX)  # error: PF297
        attention_masks = torch.nn.utils.rnn.pad_sequence(attention_masks, batch_first=True, padding_value=0)
        return input_ids, attention_masks
"""),
]

GOOD_EXAMPLES = [
    # the fix: the pad id for the ids, 0 for the mask, -100 for the labels only
    textwrap.dedent("""
    from torch.nn.utils.rnn import pad_sequence

    def collate_fn(batch, pad_id=0):
        return {
            "input_ids": pad_sequence([b["input_ids"] for b in batch], batch_first=True, padding_value=pad_id),
            "attention_mask": pad_sequence([b["attention_mask"] for b in batch], batch_first=True),
            "labels": pad_sequence([b["labels"] for b in batch], batch_first=True, padding_value=-100),
            "target_ids": pad_sequence([b["labels"] for b in batch], batch_first=True, padding_value=-100),
        }
"""),
    # tricky: -100 as a sentinel to build the mask, then the ids are padded again with the pad id
    textwrap.dedent("""
    import torch
    from torch.nn.utils.rnn import pad_sequence

    def collate(samples, pad_token_id):
        input_ids = [s[0] for s in samples]
        reversed_input_ids = [i.flip([0]) for i in input_ids]
        attention_mask = pad_sequence(reversed_input_ids, batch_first=True, padding_value=-100)
        attention_mask = (attention_mask != -100).long()
        input_ids = pad_sequence(input_ids, batch_first=True, padding_value=-100)
        input_ids = torch.where(input_ids == -100, pad_token_id, input_ids)
        return input_ids, attention_mask
"""),
]
