"""PF220 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_DT = textwrap.dedent("""
    import numpy as np
    import torch
    from transformers import PreTrainedModel, Trainer, TrainingArguments


    class TrainableDT(PreTrainedModel):
        def forward(self, states, {target}, rewards, timesteps, attention_mask{extra}):
            preds = self.predict(states, rewards, timesteps, attention_mask)
            loss = torch.mean((preds - {target}) ** 2)
            return {{"loss": loss, "logits": preds}}


    def compute_metrics(eval_pred):
        preds, actions = eval_pred
        return {{"action_mse": float(np.mean((preds - actions) ** 2))}}


    def main(config, train_ds, eval_ds, collator):
        model = TrainableDT(config)
        training_args = TrainingArguments({pin}
            output_dir="output/",
            remove_unused_columns=False,
            eval_strategy="epoch",{label_names}
        )
        trainer = Trainer(model=model, args=training_args, train_dataset=train_ds, eval_dataset=eval_ds,
                          data_collator=collator, compute_metrics=compute_metrics)
        trainer.train()
""")

BAD_EXAMPLES = [
    # transformers issue 21553: the targets are named `actions`
    _DT.format(target="actions", extra="", pin="  # warning: PF220", label_names=""),
]

BAD_EXAMPLES.append(
    # the GLiNER report (held-out-5 shape): no compute_metrics, best model on the default eval_loss
    textwrap.dedent("""
    import torch
    from transformers import Trainer, TrainingArguments


    class SpanNER(torch.nn.Module):
        def forward(self, input_ids, attention_mask, span_idx, span_mask, span_targets=None):
            logits = self.score(input_ids, attention_mask, span_idx, span_mask)
            loss = torch.nn.functional.cross_entropy(logits, span_targets)
            return {"loss": loss, "logits": logits}


    def main(train_ds, eval_ds):
        args = TrainingArguments(  # warning: PF220
            output_dir="gliner-out",
            eval_strategy="epoch",
            save_strategy="epoch",
            load_best_model_at_end=True,
        )
        Trainer(model=SpanNER(), args=args, train_dataset=train_ds, eval_dataset=eval_ds).train()
"""))

GOOD_EXAMPLES = [
    # the fix
    _DT.format(target="actions", extra="", pin="", label_names='\n        label_names=["actions"],'),
    # tricky-correct: the forward names its targets `labels`
    _DT.format(target="labels", extra="", pin="", label_names=""),
    # tricky-correct: a forward taking **kwargs (the labels may be read from it; not decided here)
    _DT.format(target="actions", extra=", **kwargs", pin="", label_names=""),
]
