"""PF423 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF423_BAD = [
    # flan-alpaca issue 19: the model name is the default of the module's __init__ parameter
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch
        from transformers import AutoModelForSeq2SeqLM


        class LightningModel(pl.LightningModule):
            def __init__(self, model_name_or_path="google/flan-t5-xl", learning_rate=5e-4):
                super().__init__()
                self.model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path)

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss

            def configure_optimizers(self):
                return torch.optim.AdamW(self.parameters(), lr=5e-4)


        def main(train_loader):
            trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed")  # warning: PF423
            trainer.fit(LightningModel(), train_loader)
        """),
    textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainingArguments

    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
    args = Seq2SeqTrainingArguments(output_dir="out", fp16=True)  # warning: PF423
"""),
    textwrap.dedent("""
    import lightning as L
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-large")
    trainer = L.Trainer(precision="16-mixed")  # warning: PF423
"""),
    # a T5 derivative's continued pretraining: the checkpoint comes as a parameter, the class names the family
    textwrap.dedent("""
    import pytorch_lightning as pl
    from transformers import T5ForConditionalGeneration


    class T5Pretrain(pl.LightningModule):
        def __init__(self, model_path):
            super().__init__()
            self.model = T5ForConditionalGeneration.from_pretrained(model_path)

        def training_step(self, batch, batch_idx):
            return self.model(input_ids=batch["input_ids"], labels=batch["labels"]).loss


    def main(loader, model_path):
        trainer = pl.Trainer(precision=16, max_epochs=1)  # warning: PF423
        trainer.fit(T5Pretrain(model_path), loader)
"""),
]

PF423_GOOD = [
    # tricky: the caller passes another model than the T5 default
    textwrap.dedent("""\
        import pytorch_lightning as pl
        from transformers import AutoModelForSeq2SeqLM


        class LightningModel(pl.LightningModule):
            def __init__(self, model_name_or_path="google/flan-t5-xl"):
                super().__init__()
                self.model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path)

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss


        def main(train_loader):
            trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed")
            trainer.fit(LightningModel("facebook/bart-large"), train_loader)
        """),
    # tricky: the default is never used in view (the class is built elsewhere, e.g. by a CLI)
    textwrap.dedent("""\
        import pytorch_lightning as pl
        from transformers import AutoModelForSeq2SeqLM


        class LightningModel(pl.LightningModule):
            def __init__(self, model_name_or_path="google/flan-t5-xl"):
                super().__init__()
                self.model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path)

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss


        trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed")
        """),
    textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainingArguments

    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
    args = Seq2SeqTrainingArguments(output_dir="out", bf16=True)
"""),
    # another family in fp16
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
    args = TrainingArguments(output_dir="out", fp16=True)
"""),
    # tricky-correct: a T5 class loaded from a path, trained in bf16; and a BART (pretrained in fp32) in fp16
    textwrap.dedent("""
    import pytorch_lightning as pl
    from transformers import BartForConditionalGeneration, T5ForConditionalGeneration


    def build(model_path, summarizer_path):
        t5 = T5ForConditionalGeneration.from_pretrained(model_path)
        trainer = pl.Trainer(precision="bf16-mixed")
        return t5, trainer, BartForConditionalGeneration.from_pretrained(summarizer_path)
"""),
    textwrap.dedent("""
    from transformers import BartForConditionalGeneration, Seq2SeqTrainingArguments


    def build(path):
        model = BartForConditionalGeneration.from_pretrained(path)
        return model, Seq2SeqTrainingArguments(output_dir="out", fp16=True)
"""),
]
