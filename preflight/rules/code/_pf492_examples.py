"""PF492 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # accelerate issue 167: NER evaluation, the collator pads per batch, predictions gathered as they are
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import DataCollatorForTokenClassification


    def evaluate(model, tokenizer, eval_dataset):
        accelerator = Accelerator()
        collator = DataCollatorForTokenClassification(tokenizer)
        loader = torch.utils.data.DataLoader(eval_dataset, collate_fn=collator, batch_size=32)
        model, loader = accelerator.prepare(model, loader)
        model.eval()
        for batch in loader:
            with torch.no_grad():
                outputs = model(**batch)
            predictions = outputs.logits.argmax(dim=-1)
            labels = batch["labels"]
            predictions_gathered = accelerator.gather_for_metrics(predictions)  # error: PF492
            labels_gathered = accelerator.gather_for_metrics(labels)  # error: PF492
            yield predictions_gathered, labels_gathered
"""),
    # gather_for_metrics of a tuple, Seq2Seq collator
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import DataCollatorForSeq2Seq

    accelerator = Accelerator()
    loader = torch.utils.data.DataLoader(ds, collate_fn=DataCollatorForSeq2Seq(tokenizer, model=model), batch_size=8)
    model, loader = accelerator.prepare(model, loader)
    for batch in loader:
        with torch.no_grad():
            logits = model(**batch).logits
        preds, refs = accelerator.gather_for_metrics((logits.argmax(-1), batch["labels"]))  # error: PF492
"""),
]

GOOD_EXAMPLES = [
    # the fix: padded across processes before the gather
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import DataCollatorForTokenClassification

    accelerator = Accelerator()
    loader = torch.utils.data.DataLoader(ds, collate_fn=DataCollatorForTokenClassification(tokenizer), batch_size=32)
    model, loader = accelerator.prepare(model, loader)
    for batch in loader:
        with torch.no_grad():
            predictions = model(**batch).logits.argmax(dim=-1)
        labels = batch["labels"]
        predictions = accelerator.pad_across_processes(predictions, dim=1, pad_index=-100)
        labels = accelerator.pad_across_processes(labels, dim=1, pad_index=-100)
        predictions_gathered, labels_gathered = accelerator.gather_for_metrics((predictions, labels))
"""),
    # tricky: the collator pads to a fixed length
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import DataCollatorForTokenClassification

    accelerator = Accelerator()
    collator = DataCollatorForTokenClassification(tokenizer, padding="max_length", max_length=128)
    loader = torch.utils.data.DataLoader(ds, collate_fn=collator, batch_size=32)
    model, loader = accelerator.prepare(model, loader)
    for batch in loader:
        with torch.no_grad():
            predictions = model(**batch).logits.argmax(dim=-1)
        predictions_gathered = accelerator.gather_for_metrics(predictions)
"""),
    # tricky: per-example values (the loss) gathered under a per-batch-padding collator
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import DataCollatorForSeq2Seq

    accelerator = Accelerator()
    loader = torch.utils.data.DataLoader(ds, collate_fn=DataCollatorForSeq2Seq(tokenizer), batch_size=8)
    model, loader = accelerator.prepare(model, loader)
    losses = []
    for batch in loader:
        with torch.no_grad():
            loss = model(**batch).loss
        losses.append(accelerator.gather_for_metrics(loss.repeat(8)))
"""),
]
