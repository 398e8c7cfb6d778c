"""PF565 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF565`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF565_BAD = [
    # mm-cot's ROUGE-L metric under predict_with_generate
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoTokenizer, Seq2SeqTrainer

    tokenizer = AutoTokenizer.from_pretrained("declare-lab/flan-alpaca-base")


    def compute_metrics_rougel(eval_preds):
        preds, targets = eval_preds
        if isinstance(preds, tuple):
            preds = preds[0]
        preds = tokenizer.batch_decode(preds, skip_special_tokens=True)  # warning: PF565
        targets = tokenizer.batch_decode(targets, skip_special_tokens=True)
        return {"rougeL": float(np.mean([score(t, p) for p, t in zip(preds, targets)]))}


    trainer = Seq2SeqTrainer(model=model, args=training_args, compute_metrics=compute_metrics_rougel)
"""),
    # the EvalPrediction attributes
    textwrap.dedent("""
    from transformers import Trainer


    def compute_metrics(p):
        decoded_labels = tokenizer.batch_decode(p.label_ids, skip_special_tokens=True)  # warning: PF565
        decoded_preds = tokenizer.batch_decode(p.predictions.argmax(-1), skip_special_tokens=True)
        return {"exact": sum(a == b for a, b in zip(decoded_preds, decoded_labels)) / len(decoded_labels)}


    trainer = Trainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
    # TALLRec finetune_rec.py (issue 55, held-out-43): -100 replaced in the predictions only, the labels
    # decoded as the collator padded them
    textwrap.dedent("""
    import numpy as np
    import transformers


    def compute_metrics(eval_preds):
        pred_ids, label_ids = eval_preds
        gold = tokenizer.batch_decode(label_ids, skip_special_tokens=True)  # warning: PF565
        pred = tokenizer.batch_decode(np.where(pred_ids != -100, pred_ids, 0), skip_special_tokens=True)
        return {"acc": sum(g == p for g, p in zip(gold, pred)) / len(gold)}


    trainer = transformers.Trainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
]

PF565_GOOD = [
    # the TALLRec fix: the labels cleaned before they are decoded
    textwrap.dedent("""
    import numpy as np
    import transformers


    def compute_metrics(eval_preds):
        pred_ids, label_ids = eval_preds
        label_ids = np.where(label_ids != -100, label_ids, tokenizer.pad_token_id)
        gold = tokenizer.batch_decode(label_ids, skip_special_tokens=True)
        pred = tokenizer.batch_decode(np.where(pred_ids != -100, pred_ids, 0), skip_special_tokens=True)
        return {"acc": sum(g == p for g, p in zip(gold, pred)) / len(gold)}


    trainer = transformers.Trainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
    # tricky-correct: the labels cleaned under a flag before the decode (zhangxs131/summary_finetune), the
    # predictions decoded raw (no -100 in the labels' decode is this rule's new case)
    textwrap.dedent("""
    import numpy as np
    from transformers import Seq2SeqTrainer


    def compute_metrics(eval_preds):
        preds, labels = eval_preds
        if isinstance(preds, tuple):
            preds = preds[0]
        decoded_preds = tokenizer.batch_decode(preds, skip_special_tokens=True)
        if data_args.ignore_pad_token_for_loss:
            labels = np.where(labels != -100, labels, tokenizer.pad_token_id)
        decoded_labels = tokenizer.batch_decode(labels, skip_special_tokens=True)
        return metric.compute(predictions=decoded_preds, references=decoded_labels)


    trainer = Seq2SeqTrainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
    # tricky-correct: the labels filtered token by token in a comprehension that names -100
    textwrap.dedent("""
    from transformers import Trainer


    def compute_metrics(p):
        preds, labels = p
        preds = np.where(preds != -100, preds, 0)
        labels = [[t for t in row if t != -100] for row in labels]
        decoded = tokenizer.batch_decode(labels, skip_special_tokens=True)
        return {"n": len(decoded) + len(preds)}


    trainer = Trainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
    # the fix (the transformers summarization example's recipe)
    textwrap.dedent("""
    import numpy as np
    from transformers import Seq2SeqTrainer


    def compute_metrics(eval_preds):
        preds, labels = eval_preds
        if isinstance(preds, tuple):
            preds = preds[0]
        preds = np.where(preds != -100, preds, tokenizer.pad_token_id)
        labels = np.where(labels != -100, labels, tokenizer.pad_token_id)
        decoded_preds = tokenizer.batch_decode(preds, skip_special_tokens=True)
        decoded_labels = tokenizer.batch_decode(labels, skip_special_tokens=True)
        return metric.compute(predictions=decoded_preds, references=decoded_labels)


    trainer = Seq2SeqTrainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
    # tricky-correct: the labels masked in place with the pad id
    textwrap.dedent("""
    from transformers import Trainer


    def compute_metrics(pred):
        label_ids = pred.label_ids
        label_ids[label_ids == -100] = processor.tokenizer.pad_token_id
        pred_str = processor.batch_decode(pred.predictions, skip_special_tokens=True)
        label_str = processor.batch_decode(label_ids, skip_special_tokens=True)
        return {"wer": wer(pred_str, label_str)}


    trainer = Trainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
    # decoding something that is not the evaluation arrays
    textwrap.dedent("""
    from transformers import Trainer

    SAMPLES = tokenizer(["a", "b"])["input_ids"]


    def compute_metrics(eval_pred):
        shown = tokenizer.batch_decode(SAMPLES)
        return {"acc": (eval_pred.predictions.argmax(-1) == eval_pred.label_ids).mean(), "n": len(shown)}


    trainer = Trainer(model=model, args=args, compute_metrics=compute_metrics)
"""),
]
