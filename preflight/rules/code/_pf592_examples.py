"""PF592 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF592_BAD = [
    # transformers issue 15898 shape: remote code with use_cache=True, the argmax on the raw outputs
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def metric_fns(metric):
        def preprocess_logits_for_metrics(logits, labels):
            return logits.argmax(dim=-1)  # error: PF592

        def compute_metrics(eval_preds):
            preds, labels = eval_preds
            return metric.compute(predictions=preds[:, :-1].reshape(-1), references=labels[:, 1:].reshape(-1))

        return preprocess_logits_for_metrics, compute_metrics


    def main(train_ds, eval_ds, metric):
        model = AutoModelForCausalLM.from_pretrained("acme/clm-1b", use_cache=True, trust_remote_code=True)
        preprocess, compute = metric_fns(metric)
        trainer = Trainer(model=model, args=TrainingArguments(output_dir="out", eval_strategy="epoch"),
                          train_dataset=train_ds, eval_dataset=eval_ds, compute_metrics=compute,
                          preprocess_logits_for_metrics=preprocess)
        trainer.train()
"""),
    # a T5 evaluated by its logits: encoder_last_hidden_state comes along
    textwrap.dedent("""
    import torch
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments, T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-base")


    def keep_argmax(logits, labels):
        return torch.argmax(logits, dim=-1)  # error: PF592


    trainer = Seq2SeqTrainer(model=model, args=Seq2SeqTrainingArguments(output_dir="out"), train_dataset=train,
                             eval_dataset=val, preprocess_logits_for_metrics=keep_argmax)
"""),
    # transformers issue 30104: no preprocess_logits_for_metrics, the hidden states of every layer
    # come along and compute_metrics argmaxes the tuple
    textwrap.dedent("""
    import evaluate
    import numpy as np
    from transformers import AutoModelForAudioClassification, Trainer, TrainingArguments


    def main(train_ds, eval_ds, num_labels):
        model = AutoModelForAudioClassification.from_pretrained("openai/whisper-small", num_labels=num_labels,
                                                                use_weighted_layer_sum=True)
        metric = evaluate.load("accuracy")

        def compute_metrics(eval_pred):
            predictions = np.argmax(eval_pred.predictions, axis=1)  # error: PF592
            return metric.compute(predictions=predictions, references=eval_pred.label_ids)

        trainer = Trainer(model=model, args=TrainingArguments(output_dir="out", eval_strategy="epoch"),
                          train_dataset=train_ds, eval_dataset=eval_ds, compute_metrics=compute_metrics)
        trainer.train()
"""),
    # a T5 evaluated by its logits, unpacked in compute_metrics (encoder_last_hidden_state comes along);
    # keeping those logits for the whole evaluation set is PF486's finding
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")


    def compute_metrics(eval_preds):
        logits, labels = eval_preds
        preds = np.argmax(logits, axis=-1)  # error: PF592
        mask = labels != -100
        return {"token_accuracy": float((preds[mask] == labels[mask]).mean())}


    trainer = Seq2SeqTrainer(model=model, args=Seq2SeqTrainingArguments(output_dir="out"), train_dataset=train,
                             eval_dataset=val, compute_metrics=compute_metrics)  # warning: PF486
"""),
]

PF592_GOOD = [
    # the fix (run_clm.py today): the first element when a tuple comes
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def preprocess_logits_for_metrics(logits, labels):
        if isinstance(logits, tuple):
            logits = logits[0]
        return logits.argmax(dim=-1)


    model = AutoModelForCausalLM.from_pretrained("acme/clm-1b", use_cache=True, trust_remote_code=True)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      preprocess_logits_for_metrics=preprocess_logits_for_metrics)
"""),
    # tricky-correct: a decoder-only transformers model (past_key_values is ignored at inference)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      preprocess_logits_for_metrics=preprocess_logits_for_metrics)
"""),
    # tricky-correct: hidden states requested, and the function takes the logits out of the tuple
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", output_hidden_states=True)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      preprocess_logits_for_metrics=lambda outputs, labels: outputs[0].argmax(-1))
"""),
    # the fix of issue 30104: the logits are taken out of the tuple before they are gathered
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForAudioClassification, Trainer, TrainingArguments

    model = AutoModelForAudioClassification.from_pretrained("openai/whisper-small", num_labels=4,
                                                            use_weighted_layer_sum=True)


    def compute_metrics(eval_pred):
        return {"accuracy": float((np.argmax(eval_pred.predictions, axis=1) == eval_pred.label_ids).mean())}


    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      compute_metrics=compute_metrics,
                      preprocess_logits_for_metrics=lambda logits, labels: logits[0] if isinstance(logits, tuple)
                      else logits)
"""),
    # tricky-correct: compute_metrics takes the logits out of the tuple itself
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", output_hidden_states=True)


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        if isinstance(logits, tuple):
            logits = logits[0]
        return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      compute_metrics=compute_metrics)
"""),
    # tricky-correct: a plain classifier (its predictions are the logits alone), and a seq2seq model
    # evaluated with generate (the predictions are token ids)
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      compute_metrics=compute_metrics)
"""),
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")


    def compute_metrics(eval_preds):
        preds, labels = eval_preds
        return {"gen_len": float(np.mean(np.count_nonzero(preds != 0, axis=1)))}


    args = Seq2SeqTrainingArguments(output_dir="out", predict_with_generate=True)
    trainer = Seq2SeqTrainer(model=model, args=args, train_dataset=train, eval_dataset=val,
                             compute_metrics=compute_metrics)
"""),
]
