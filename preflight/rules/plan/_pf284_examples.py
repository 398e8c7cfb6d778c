"""PF284 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

# transformers PR 40221's report: the "best" save strategy with the best model reloaded at the end
_TRAIN = textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="out/deberta-cls",
        eval_strategy="epoch",
        save_strategy={save}
        load_best_model_at_end=True,
        metric_for_best_model="f1",
        num_train_epochs=5,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=valid,
                      compute_metrics=compute_metrics)
    trainer.train()
    # --- requirements.txt
    transformers{pin}
    accelerate==1.9.0
""")

BAD_EXAMPLES = [
    _TRAIN.format(save='"best",  # warning: PF284', pin="==4.55.0"),
    # an arguments file read into TrainingArguments
    textwrap.dedent("""
    # --- train.py
    import json

    from transformers import TrainingArguments

    args = TrainingArguments(**json.load(open("args.json")))
    # --- args.json
    {
      "output_dir": "out",
      "eval_strategy": "steps",
      "eval_steps": 200,
      "save_strategy": "best",
      "load_best_model_at_end": true
    }
    # --- expect
    args.json:5: warning: PF284
    # --- requirements.txt
    transformers==4.48.3
"""),
]

GOOD_EXAMPLES = [
    # the fix: save on the evaluation schedule
    _TRAIN.format(save='"epoch",\n    save_total_limit=2,', pin="==4.55.0"),
    # a release with the fix
    _TRAIN.format(save='"best",', pin="==5.4.0"),
    # tricky-correct: no version pinned (only a lower bound): the installed release is not known
    _TRAIN.format(save='"best",', pin=">=4.46"),
    # "best" without load_best_model_at_end: the best checkpoint is kept on disk, nothing is reloaded
    _TRAIN.format(save='"best",', pin="==4.55.0").replace("    load_best_model_at_end=True,\n", ""),
]
