"""PF384 examples: one small project per entry of the release-defect table (``# --- <path>`` sections,
``# --- launch`` holds the launch command). Each bad one pins an affected release and uses the feature;
its twins pin the fixed release, or keep the affected pin without the feature (or with the workaround)."""

from __future__ import annotations

import textwrap

_E = "  # error: PF384"
_W = "  # warning: PF384"

# transformers-ga-not-divided (4.46.0 <= v < 4.48.0), a classification head
_CLS = textwrap.dedent("""
    # --- train_cls.py
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    from data import load_splits

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)
    train, valid = load_splits()
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, gradient_accumulation_steps={ga},{pin}
                             learning_rate=2e-5, max_grad_norm=1.0, num_train_epochs=3{ds})
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=valid).train()
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python train_cls.py
""")

# transformers 4.47.0 drops num_items_in_batch for a causal LM
_CLM = textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments

    from alpaca import encoded_splits

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    data = encoded_splits(tokenizer)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps={ga},{pin}
                             learning_rate=1e-5, bf16=True)
    collator = DataCollatorForSeq2Seq(tokenizer, padding=True, label_pad_token_id=-100)
    Trainer(model=model, args=args, train_dataset=data["train"], data_collator=collator).train()
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python sft.py
""")

# Gemma-2 with flash attention on 4.42.0-4.42.3
_GEMMA = textwrap.dedent("""
    # --- finetune.py
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    from corpus import load_corpus

    model = AutoModelForCausalLM.from_pretrained({model}, torch_dtype=torch.bfloat16,{pin}
                                                 attn_implementation="{attn}")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=2, bf16=True, learning_rate=1e-5)
    Trainer(model=model, args=args, train_dataset=load_corpus()).train()
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python finetune.py
""")

# DeBERTa-v3 trained in fp16 before transformers 4.31 (microsoft/DeBERTa issue 77)
_DEBERTA = textwrap.dedent("""
    # --- train_xnli.py
    from datasets import load_dataset
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

    model_name = {model}
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    model = AutoModelForSequenceClassification.from_pretrained(model_name, num_labels=3)
    data = load_dataset("xnli", "all_languages")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, learning_rate=2e-5,{pin}
                             fp16={fp16})
    Trainer(model=model, args=args, train_dataset=data["train"], tokenizer=tokenizer).train()
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python train_xnli.py
""")

# accelerate: the prepared scheduler stepped on every micro-batch (0.11-0.15)
_ACC_SCHED = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import get_linear_schedule_with_warmup

    from task import build_loader, build_model

    accelerator = Accelerator(gradient_accumulation_steps=8){pin}
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=100, num_training_steps=1000)
    loader = build_loader()
    {prepare}
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            {step}
            optimizer.zero_grad()
    # --- requirements.txt
    accelerate=={version}
    # --- launch
    accelerate launch train.py
""")

# the loader built before the scheduler, so its length can size the schedule
_ACC_LEN = ("scheduler = get_linear_schedule_with_warmup(", "loader = build_loader()\nscheduler = get_linear_schedule_with_warmup(")
# accelerate: notebook_launcher on a Kaggle kernel (0.6.0 to 0.13.x run the function in one process)
_ACC_NOTEBOOK = textwrap.dedent("""
    # --- run_kaggle.py
    import pandas as pd
    import torch
    from accelerate import Accelerator, notebook_launcher

    from task import build_loader, build_model


    def training_function(df):
        accelerator = Accelerator(mixed_precision="bf16")
        model = build_model()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer, loader = accelerator.prepare(model, optimizer, build_loader(df))
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    df = pd.read_csv("{data}")
    notebook_launcher(training_function, (df,), num_processes={n}){pin}
    # --- requirements.txt
    accelerate=={version}
    # --- launch
    python run_kaggle.py
""")
# accelerate: a model prepared twice (before 1.14.0)
_ACC_TWICE = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    from task import build_loader, build_model

    accelerator = Accelerator(mixed_precision="bf16")
    model = build_model()
    {first}
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    loader = build_loader()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader){pin}
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.save_state("ckpt")
    # --- requirements.txt
    accelerate=={version}
    # --- launch
    accelerate launch --num_processes 2 train.py
""")
_TWICE = "model = accelerator.prepare(model)"

_PREPARED = "model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)"
_UNPREPARED = "model, optimizer, loader = accelerator.prepare(model, optimizer, loader)"
_STEP = "scheduler.step()"
_STEP_SYNCED = "if accelerator.sync_gradients:\n            scheduler.step()"

# accelerate: sync_each_batch forces a step on every batch (0.28-0.30)
_ACC_SYNC = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from accelerate.utils import GradientAccumulationPlugin

    from task import build_loader, build_model

    plugin = GradientAccumulationPlugin(num_steps=4{sync}){pin}
    accelerator = Accelerator(gradient_accumulation_plugin=plugin)
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    model, optimizer, loader = accelerator.prepare(model, optimizer, build_loader())
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- requirements.txt
    accelerate=={version}
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
""")

# accelerate: a shuffled loader sharded with no synchronised generator and no seed (0.24-0.29)
_ACC_SHUFFLE = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader
    {seed_import}
    from task import TextDataset, build_model

    accelerator = Accelerator()
    {seed}
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    loader = DataLoader(TextDataset("train"), batch_size=16, shuffle=True){pin}
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- requirements.txt
    accelerate=={version}
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
""")

_SET_SEED = "from accelerate.utils import set_seed\n"
_RANK_SEED = "set_seed(42, device_specific=True)"

# PEFT: modules_to_save names that contain one another (0.3-0.14)
_PEFT_MTS = textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    from data import load_splits

    model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
    config = LoraConfig(r=8, lora_alpha=16, target_modules=["q_lin", "v_lin"],{pin}
                        modules_to_save={modules})
    model = get_peft_model(model, config)
    train, valid = load_splits()
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, learning_rate=5e-4)
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=valid).train()
    model.save_pretrained("out/adapter")
    # --- requirements.txt
    peft=={version}
    # --- launch
    python train.py
""")

# PEFT: adapters whose names contain one another, saved (0.3-0.19)
_PEFT_NAMES = textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from loops import train_adapter

    base = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")
    config = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM")
    model = get_peft_model(base, config, adapter_name="math")
    model.add_adapter("{second}", config){pin}
    for name in ("math", "{second}"):
        model.set_adapter(name)
        train_adapter(model, name)
    model.save_pretrained("out/adapters")
    # --- requirements.txt
    peft=={version}
    # --- launch
    python train.py
""")

# PEFT: rank_pattern and alpha_pattern keys that name the same modules (0.6-0.13)
_PEFT_PATTERN = textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from loops import train

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")
    config = LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM",{pin}
                        rank_pattern={{"q_proj": 32}}, alpha_pattern={alpha})
    model = get_peft_model(model, config)
    train(model)
    # --- requirements.txt
    peft=={version}
    # --- launch
    python train.py
""")

# PEFT: AdaLoRA not an identity at the start (0.5-0.11)
_ADALORA = textwrap.dedent("""
    # --- train.py
    from peft import {cls}, get_peft_model
    from transformers import AutoModelForSeq2SeqLM

    from loops import train

    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-base")
    config = {cls}(r=8, lora_alpha=32, target_modules=["q", "v"], task_type="SEQ_2_SEQ_LM"){pin}
    model = get_peft_model(model, config)
    train(model)
    # --- requirements.txt
    peft=={version}
    # --- launch
    python train.py
""")

# TRL: ORPO loss not divided by the accumulation steps (0.12-0.19)
_ORPO = textwrap.dedent("""
    # --- orpo.py
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import ORPOConfig, ORPOTrainer

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B-Instruct")
    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2-0.5B-Instruct")
    data = load_dataset("trl-lib/ultrafeedback_binarized", split="train")
    args = ORPOConfig(output_dir="out", per_device_train_batch_size=2, gradient_accumulation_steps={ga},{pin}
                      learning_rate=8e-6, beta=0.1)
    ORPOTrainer(model=model, args=args, train_dataset=data, processing_class=tokenizer).train()
    # --- requirements.txt
    trl=={version}
    # --- launch
    python orpo.py
""")

# TRL: DPO keep_end truncation zeroes short pairs (0.14-0.17)
_DPO = textwrap.dedent("""
    # --- dpo.py
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import DPOConfig, DPOTrainer

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B-Instruct")
    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2-0.5B-Instruct")
    data = load_dataset("trl-lib/ultrafeedback_binarized", split="train")
    args = DPOConfig(output_dir="out", per_device_train_batch_size=4, max_length=1024{mode})
    trainer = DPOTrainer(model=model, args=args, train_dataset=data, processing_class=tokenizer){pin}
    trainer.train()
    # --- requirements.txt
    trl=={version}
    # --- launch
    python dpo.py
""")

_PL_MODULE = textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch
    from torch import nn
    from torch.nn import functional as F


    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))

        def training_step(self, batch{batch_idx}):{step_pin}
            x, y = batch
            loss = F.cross_entropy(self.net(x), y)
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.cross_entropy(self.net(x), y))

        def configure_optimizers(self):
            optimizer = torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)
            {scheduler}
""")

_NO_SCHEDULER = "return optimizer"
_EPOCH_SCHEDULER = ("scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)\n"
                    "        return [optimizer], [scheduler]")

_PL_TRAIN = textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl

    from data import MNISTData
    from model import Classifier

    trainer = pl.Trainer({trainer_args}){pin}
    {fit}
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- launch
    python train.py
""")


def _pl(version: str, trainer_args: str, *, pin: str = "", step_pin: str = "", batch_idx: str = ", batch_idx",
        scheduler: str = _NO_SCHEDULER, fit: str = "trainer.fit(Classifier(), datamodule=MNISTData())") -> str:
    return (_PL_MODULE.format(batch_idx=batch_idx, step_pin=step_pin, scheduler=scheduler)
            + _PL_TRAIN.format(trainer_args=trainer_args, pin=pin, fit=fit, version=version))


# Lightning 2.1-2.5.2: an IterableDataset iterated twice when resuming
_PL_STREAM = textwrap.dedent("""
    # --- train.py
    import lightning as L
    from torch.utils.data import DataLoader, IterableDataset

    from model import Classifier
    from stream import read_shards


    class ShardStream(IterableDataset):
        def __iter__(self):
            yield from read_shards("s3://bucket/train")


    trainer = L.Trainer(max_epochs=10, accelerator="gpu", devices=1)
    trainer.fit(Classifier(), DataLoader(ShardStream(), batch_size=32){resume}){pin}
    # --- requirements.txt
    lightning=={version}
    # --- launch
    python train.py
""")

BAD_EXAMPLES = [
    # transformers PR 35438: the classification loss summed over 4 micro-batches on 4.46.3
    _CLS.format(ga=4, pin=_E, ds="", version="4.46.3"),
    # transformers PR 35121: 4.47.0 drops num_items_in_batch for a causal LM
    _CLM.format(ga=8, pin=_E, version="4.47.0"),
    # transformers 4.42.4: Gemma-2 flash attention without soft-capping on 4.42.3
    _GEMMA.format(model='"google/gemma-2-9b"', attn="flash_attention_2", pin=_E, version="4.42.3"),
    # transformers PR 24116: mDeBERTa-v3 in fp16 overflows on 4.12.5 (microsoft/DeBERTa issue 77)
    _DEBERTA.format(model='"microsoft/mdeberta-v3-base"', fp16="True", pin=_E, version="4.12.5"),
    # accelerate PR 999: the prepared scheduler stepped on every micro-batch on 0.15.0
    _ACC_SCHED.format(prepare=_PREPARED, step=_STEP, pin=_E, version="0.15.0"),
    # ... and on 0.12.0 with a schedule sized in optimizer steps (micro-batches divided by 8)
    _ACC_SCHED.format(prepare=_PREPARED, step=_STEP, pin=_E, version="0.12.0").replace(*_ACC_LEN).replace(
        "num_training_steps=1000)", "num_training_steps=3 * len(loader) // 8)"),
    # accelerate PR 3977: the model prepared twice on 1.12.0 (accelerate issue 3967)
    _ACC_TWICE.format(first=_TWICE, pin=_W, version="1.12.0"),
    # accelerate PR 783: notebook_launcher(num_processes=2) on a Kaggle kernel runs one process on 0.12.0
    # (accelerate issue 1012)
    _ACC_NOTEBOOK.format(data="/kaggle/input/dialogs/train.csv", n=2, pin=_W, version="0.12.0"),
    # accelerate PR 2790: sync_each_batch steps on every batch on 0.30.1
    _ACC_SYNC.format(sync=", sync_each_batch=True", pin=_E, version="0.30.1"),
    # accelerate PR 2694: shards of processes seeded per rank overlap on 0.29.3
    _ACC_SHUFFLE.format(seed_import=_SET_SEED, seed=_RANK_SEED, pin=_E, version="0.29.3"),
    # PEFT PR 2334: `classifier` is a substring of `pre_classifier` (DistilBERT) on 0.14.0
    _PEFT_MTS.format(modules='["pre_classifier", "classifier"]', pin=_E, version="0.14.0"),
    # PEFT PR 3282: saving `math` also saves `math_cot` on 0.19.1
    _PEFT_NAMES.format(second="math_cot", pin=_E, version="0.19.1"),
    # PEFT PR 2195: `q_proj` and `layers.0.self_attn.q_proj` on 0.13.2
    _PEFT_PATTERN.format(alpha='{"layers.0.self_attn.q_proj": 64}', pin=_E, version="0.13.2"),
    # PEFT PR 1884: AdaLoRA's lora_E drawn at random on 0.11.1
    _ADALORA.format(cls="AdaLoraConfig", pin=_W, version="0.11.1"),
    # TRL PR 3716: ORPO loss not divided by 8 on 0.19.1
    _ORPO.format(ga=8, pin=_E, version="0.19.1"),
    # TRL PR 3398: keep_end truncation after flushing left on 0.17.0
    _DPO.format(mode="", pin=_W, version="0.17.0"),
    # Lightning PR 6075: val_check_interval=0.25 and an epoch StepLR on 1.2.1
    _pl("1.2.1", "max_epochs=30, val_check_interval=0.25", pin=_E, scheduler=_EPOCH_SCHEDULER),
    # Lightning PR 20775: a streamed IterableDataset resumed on 2.5.2
    _PL_STREAM.format(resume=', ckpt_path="checkpoints/last.ckpt"', pin=_E, version="2.5.2"),
    # Lightning PR 18619: training_step without batch_idx and accumulation on 2.0.9
    _pl("2.0.9", "max_epochs=5, accumulate_grad_batches=4", step_pin=_E, batch_idx=""),
    # Lightning PR 18710: validation every 250 batches inside 8-batch accumulation windows on 2.0.9
    _pl("2.0.9", "max_steps=20000, accumulate_grad_batches=8, val_check_interval=250", pin=_E),
    # Lightning PR 14113: the LR finder's schedule kept for the real fit on 1.7.3
    _pl("1.7.3", "max_epochs=20, auto_lr_find=True", pin=_E,
        fit="trainer.tune(Classifier(), datamodule=MNISTData())\ntrainer.fit(Classifier(), datamodule=MNISTData())"),
]

GOOD_EXAMPLES = [
    # the fixed releases
    _CLS.format(ga=4, pin="", ds="", version="4.48.0"),
    _CLM.format(ga=8, pin="", version="4.47.1"),
    _GEMMA.format(model='"google/gemma-2-9b"', attn="flash_attention_2", pin="", version="4.42.4"),
    # DeBERTa-v3 in fp16 on 4.31.0 (the fixed release), and in fp32 on 4.12.5 (the report's fix)
    _DEBERTA.format(model='"microsoft/deberta-v3-base"', fp16="True", pin="", version="4.31.0"),
    _DEBERTA.format(model='"microsoft/mdeberta-v3-base"', fp16="False", pin="", version="4.12.5"),
    # tricky: fp16 on 4.12.5 for a model of another architecture
    _DEBERTA.format(model='"xlm-roberta-base"', fp16="True", pin="", version="4.12.5"),
    _ACC_SCHED.format(prepare=_PREPARED, step=_STEP, pin="", version="0.16.0"),
    _ACC_SYNC.format(sync=", sync_each_batch=True", pin="", version="0.31.0"),
    # the Kaggle kernel on 0.14.0 (the fixed release) launches both processes
    _ACC_NOTEBOOK.format(data="/kaggle/input/dialogs/train.csv", n=2, pin="", version="0.14.0"),
    # tricky: 0.12.0 in a notebook of a multi-GPU server (no Kaggle path): that release does start 2 processes
    _ACC_NOTEBOOK.format(data="data/dialogs/train.csv", n=2, pin="", version="0.12.0"),
    # tricky: one process asked for on Kaggle with 0.12.0: nothing is lost
    _ACC_NOTEBOOK.format(data="/kaggle/input/dialogs/train.csv", n=1, pin="", version="0.12.0"),
    _ACC_SHUFFLE.format(seed_import=_SET_SEED, seed=_RANK_SEED, pin="", version="1.6.0"),
    _ACC_SHUFFLE.format(seed_import="from accelerate.utils import set_seed\n", seed="set_seed(42)", pin="",
                        version="1.6.0"),
    _PEFT_MTS.format(modules='["pre_classifier", "classifier"]', pin="", version="0.15.0"),
    _PEFT_NAMES.format(second="math_cot", pin="", version="0.20.0"),
    _PEFT_PATTERN.format(alpha='{"layers.0.self_attn.q_proj": 64}', pin="", version="0.14.0"),
    _ADALORA.format(cls="AdaLoraConfig", pin="", version="0.12.0"),
    _ORPO.format(ga=8, pin="", version="0.20.0"),
    _DPO.format(mode="", pin="", version="0.18.0"),
    _pl("1.2.2", "max_epochs=30, val_check_interval=0.25", scheduler=_EPOCH_SCHEDULER),
    _PL_STREAM.format(resume=', ckpt_path="checkpoints/last.ckpt"', pin="", version="2.5.3"),
    _pl("2.1.0", "max_epochs=5, accumulate_grad_batches=4", batch_idx=""),
    _pl("2.1.0", "max_steps=20000, accumulate_grad_batches=8, val_check_interval=250"),
    _pl("1.7.4", "max_epochs=20, auto_lr_find=True",
        fit="trainer.tune(Classifier(), datamodule=MNISTData())\ntrainer.fit(Classifier(), datamodule=MNISTData())"),
    # the affected releases without the feature, or with the workaround
    _CLS.format(ga=1, pin="", ds="", version="4.46.3"),
    _CLM.format(ga=1, pin="", version="4.47.0"),
    _GEMMA.format(model='"google/gemma-2-9b"', attn="eager", pin="", version="4.42.3"),
    _ACC_SCHED.format(prepare=_UNPREPARED, step=_STEP_SYNCED, pin="", version="0.15.0"),
    # tricky-correct: prepared, but stepped only when the accumulated gradients are synchronised
    # (accelerate issue 963's workaround on 0.15.0)
    _ACC_SCHED.format(prepare=_PREPARED, step=_STEP_SYNCED, pin="", version="0.15.0"),
    _ACC_SYNC.format(sync="", pin="", version="0.30.1"),
    _ACC_SHUFFLE.format(seed_import="from accelerate.utils import set_seed\n", seed="set_seed(42)", pin="",
                        version="0.29.3"),
    # tricky-correct: unseeded processes all start from torch's fixed default seed and agree on the permutation
    _ACC_SHUFFLE.format(seed_import="", seed="", pin="", version="0.29.3"),
    _ACC_SHUFFLE.format(seed_import="", seed="", pin="", version="1.5.2").replace(
        "shuffle=True)", "shuffle=True, generator=torch.Generator().manual_seed(42))"),
    _PEFT_MTS.format(modules='["classifier"]', pin="", version="0.14.0"),
    _PEFT_NAMES.format(second="code", pin="", version="0.19.1"),
    _PEFT_PATTERN.format(alpha='{"q_proj": 64}', pin="", version="0.13.2"),
    _ADALORA.format(cls="LoraConfig", pin="", version="0.11.1"),
    _ORPO.format(ga=1, pin="", version="0.19.1"),
    _DPO.format(mode=', truncation_mode="keep_start"', pin="", version="0.17.0"),
    _pl("1.2.1", "max_epochs=30, val_check_interval=1.0", scheduler=_EPOCH_SCHEDULER),
    _PL_STREAM.format(resume="", pin="", version="2.5.2"),
    _pl("2.0.9", "max_epochs=5, accumulate_grad_batches=4"),
    _pl("2.0.9", "max_steps=20000, accumulate_grad_batches=8, val_check_interval=256"),
    _pl("1.7.3", "max_epochs=20", fit="trainer.fit(Classifier(), datamodule=MNISTData())"),
    # tricky-correct: DeepSpeed divides the loss itself on 4.46/4.47; flash attention on a Llama model
    # (no soft-capping to lose); no pin at all; a lower bound inside the range
    _CLS.format(ga=4, pin="", ds=', deepspeed="ds_zero2.json"', version="4.46.3")
    + '# --- ds_zero2.json\n{"zero_optimization": {"stage": 2}, "gradient_accumulation_steps": "auto",\n'
      ' "train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto"}\n',
    _GEMMA.format(model='"meta-llama/Llama-3.1-8B"', attn="flash_attention_2", pin="", version="4.42.3"),
    _CLS.format(ga=4, pin="", ds="", version="4.46.3").replace("transformers==4.46.3", "transformers"),
    _ACC_SYNC.format(sync=", sync_each_batch=True", pin="", version="0.30.1").replace("accelerate==", "accelerate>="),
    # the model prepared once on 1.12.0; prepared twice on the fixed 1.14.0; a model rebuilt between the two calls
    _ACC_TWICE.format(first="", pin="", version="1.12.0"),
    _ACC_TWICE.format(first=_TWICE, pin="", version="1.14.0"),
    _ACC_TWICE.format(first=_TWICE + "\nmodel = build_model()", pin="", version="1.12.0"),
    # tricky-correct: on 0.12.0 the prepared scheduler steps on every micro-batch, so a schedule sized in
    # micro-batches (len(loader) * epochs, accelerate PR 500's example) ends exactly at the end of training
    _ACC_SCHED.format(prepare=_PREPARED, step=_STEP, pin="", version="0.12.0").replace(*_ACC_LEN).replace(
        "num_training_steps=1000)", "num_training_steps=len(loader) * 3)"),
]
