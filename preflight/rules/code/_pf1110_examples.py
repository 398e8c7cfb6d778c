"""PF1110 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` comment; the meta-test asserts exactly those
findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF1110_BAD = [
    # transformers issue 24034: `pred.prediction` (no s) in the Trainer's compute_metrics
    textwrap.dedent("""
    import numpy as np
    from sklearn.metrics import accuracy_score
    from transformers import Trainer, TrainingArguments


    def compute_metrics(pred):
        labels = pred.label_ids
        preds = np.argmax(pred.prediction, axis=-1)  # error: PF1110
        return {"accuracy": accuracy_score(labels, preds)}


    args = TrainingArguments(output_dir="out", eval_strategy="epoch")
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      compute_metrics=compute_metrics)
    trainer.train()
"""),
    # `label_id` (no s) read from the EvalPrediction of a Trainer, the metric defined inside main
    textwrap.dedent("""
    import numpy as np
    from transformers import Trainer


    def main():
        def metrics(eval_pred):
            preds = np.argmax(eval_pred.predictions, axis=-1)
            return {"accuracy": float((preds == eval_pred.label_id).mean())}  # error: PF1110

        trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=val, compute_metrics=metrics)
        trainer.train()
"""),
]

PF1110_GOOD = [
    # the fix
    textwrap.dedent("""
    import numpy as np
    from transformers import Trainer


    def compute_metrics(pred):
        preds = np.argmax(pred.predictions, axis=-1)
        return {"accuracy": (preds == pred.label_ids).mean()}


    trainer = Trainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics)
"""),
    # tricky-correct: unpacked as a tuple, and `inputs` (include_inputs_for_metrics) is a real field
    textwrap.dedent("""
    import numpy as np
    from transformers import Trainer


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        n_tokens = eval_pred.inputs.shape[-1]
        return {"accuracy": (np.argmax(logits, -1) == labels).mean(), "len": n_tokens}


    trainer = Trainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics)
"""),
    # tricky-correct: a subclass with its own evaluation loop hands compute_metrics its own object
    textwrap.dedent("""
    from transformers import Trainer


    class RankTrainer(Trainer):
        def evaluate(self, eval_dataset=None, **kw):
            out = self.run_ranking(eval_dataset)
            return self.compute_metrics(out)


    def compute_metrics(out):
        return {"mrr": out.mrr, "recall@10": out.recall_at_10}


    trainer = RankTrainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics)
"""),
    # tricky-correct: the function is also called by hand on a PredictionOutput, which has `metrics`
    textwrap.dedent("""
    from transformers import Trainer


    def report(pred):
        print(pred.metrics)
        return {"n": len(pred.label_ids)}


    trainer = Trainer(model=model, args=args, compute_metrics=report)
    report(trainer.predict(test_ds))
"""),
    # not a Hugging Face job: a Keras helper with its own result object
    textwrap.dedent("""
    from mytrainer import Trainer


    def compute_metrics(pred):
        return {"acc": (pred.y_true == pred.y_pred).mean()}


    trainer = Trainer(model, compute_metrics=compute_metrics)
"""),
    # tricky-correct: a project's trainer (imported from its own module) with an EvalPrediction subclass
    textwrap.dedent("""
    from transformers import TrainingArguments

    from morm.trainer import MORMTrainer


    def compute_metrics(eval_pred: EvalPredictionWithExtraLabels):
        return {"qt": float(eval_pred.labels_qt.mean()), "acc": float((eval_pred.predictions > 0).mean())}


    trainer = MORMTrainer(model=model, args=TrainingArguments("out"), compute_metrics=compute_metrics)
"""),
]
