"""PF591 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_QA = textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="out",
        eval_strategy="steps",
        save_strategy="steps",
        load_best_model_at_end=True,
        metric_for_best_model="eval_squad_loss",{pin}{extra}
    )
    Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset={{"squad": squad, "quac": quac}}).train()
""")

_ASR = textwrap.dedent("""
    # --- finetune_whisper.py
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments

    training_args = Seq2SeqTrainingArguments(
        output_dir="whisper-small",
        eval_strategy="steps",
        predict_with_generate=True,
        generation_max_length=225,
        load_best_model_at_end=True,
        metric_for_best_model="{metric}",{pin}{extra}
    )
    trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train, eval_dataset=test,
                             compute_metrics=compute_metrics)
""")

PF591_BAD = [
    # transformers PR 31142's report: a per-dataset eval loss, transformers pinned before 4.42
    _QA.format(pin="  # warning: PF591", extra="") + """\
# --- requirements.txt
transformers==4.40.2
""",
    # the speech-recognition shape: WER chosen as the best metric, its direction left to the default
    _ASR.format(metric="wer", pin="  # warning: PF591", extra=""),
]

PF591_GOOD = [
    # the fix: greater_is_better=False
    _QA.format(pin="", extra="\n    greater_is_better=False,") + """\
# --- requirements.txt
transformers==4.40.2
""",
    # tricky-correct: the same per-dataset loss on transformers 4.42+, which checks the "loss" suffix
    _QA.format(pin="", extra="") + """\
# --- requirements.txt
transformers==4.44.0
""",
    # tricky-correct: WER with its direction stated
    _ASR.format(metric="wer", pin="", extra="\n    greater_is_better=False,"),
    # tricky-correct: a score whose name also holds an error word, and the default eval_loss
    _ASR.format(metric="eval_error_f1", pin="", extra=""),
    _ASR.format(metric="eval_loss", pin="", extra=""),
]
