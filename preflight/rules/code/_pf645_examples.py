"""PF645 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF645_BAD = [
    # held-out-30 (krishnaik06/Huggingfacetransformer PR 3): index 1 of PredictionOutput is label_ids
    textwrap.dedent("""
    from sklearn.metrics import accuracy_score, confusion_matrix
    from transformers import Trainer

    trainer = Trainer(model=model, args=args, train_dataset=train_dataset, eval_dataset=val_dataset)
    trainer.train()
    output = trainer.predict(test_dataset)[1]  # error: PF645
    print("test accuracy:", accuracy_score(y_test, output))
    print(confusion_matrix(y_test, output))
"""),
    # .label_ids inline as y_pred
    textwrap.dedent("""
    from sklearn.metrics import f1_score

    f1 = f1_score(y_true=test_labels, y_pred=trainer.predict(test_ds).label_ids, average="macro")  # error: PF645
"""),
]

PF645_GOOD = [
    # the fix: the logits, argmax
    textwrap.dedent("""
    import numpy as np
    from sklearn.metrics import accuracy_score, confusion_matrix

    logits = trainer.predict(test_dataset)[0]
    output = np.argmax(logits, axis=-1)
    print("test accuracy:", accuracy_score(y_test, output))
    print(confusion_matrix(y_test, output))
"""),
    # tricky-correct: the label ids as the reference, the predictions from .predictions
    textwrap.dedent("""
    import numpy as np
    from sklearn.metrics import accuracy_score

    result = trainer.predict(test_dataset)
    labels = trainer.predict(test_dataset).label_ids
    print(accuracy_score(labels, np.argmax(result.predictions, axis=-1)))
"""),
]
