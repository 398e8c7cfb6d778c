"""Rows of the public dev set from the Hugging Face transformers single-GPU training guide
(perf_train_gpu_one): transcribed by hand, one add(...) per row."""
from .core import add, model

# ---------------------------------------------------------------- HF transformers single-GPU guide
S = "hf-perf-train-gpu-one"


def hf(rid, mb, val, *, ckpt=False, prec="fp32", opt="adamw"):
    s = dict(
        model("BERT-large-uncased"),
        mode="train",
        task="sequence-classification",
        num_labels=2,
        precision=prec,
        optimizer=opt,
        foreach=False,
        micro_batch=mb,
        seq_len=512,
        grad_ckpt=ckpt,
        attention="eager",
        dropout=0.1,
        zero_grad_keeps=True,
        torch_version="1.11",
    )
    add(
        S,
        rid,
        val,
        "MiB",
        "nvidia-smi",
        "V100-SXM2-16GB",
        s,
        notes="transformers docs perf_train_gpu_one (v4.18-v4.21): BertForSequenceClassification, random tokens 512 long, Trainer; nvidia-smi 'used' (context + cache) after training; Trainer.zero_grad() keeps zeroed gradients before torch 2.0; transformers AdamW (for-loop)",
    )


hf("bs4", 4, 14949)
hf("bs1-ga4", 1, 8681)
hf("bs1-ga4-ckpt", 1, 6775, ckpt=True)
hf("bs4-fp16", 4, 13939, prec="amp-fp16")
hf("bs1-ga4-ckpt-fp16", 1, 7275, ckpt=True, prec="amp-fp16")
hf("bs4-adafactor", 4, 12295, opt="adafactor")
hf("bs1-ga4-ckpt-fp16-adafactor", 1, 4847, ckpt=True, prec="amp-fp16", opt="adafactor")
hf("bs4-adam8bit", 4, 13085, opt="adamw-8bit")
hf("bs1-ga4-ckpt-fp16-adam8bit", 1, 5363, ckpt=True, prec="amp-fp16", opt="adamw-8bit")
