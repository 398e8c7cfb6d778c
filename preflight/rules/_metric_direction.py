"""Which way a metric name improves, read from its words (``val_acc`` higher, ``val_loss`` lower):
the one vocabulary that PF120, PF252 and PF591 share."""

from __future__ import annotations

import re

# words of a metric name that mean "higher is better"
SCORE_WORDS = frozenset({
    "acc", "accuracy", "top1", "top5", "f1", "fmeasure", "fscore", "auc", "auroc", "roc", "bleu",
    "rouge", "rouge1", "rouge2", "rougel", "map", "map50", "iou", "miou", "dice", "precision",
    "recall", "pck", "psnr", "ssim", "mcc", "kappa", "ndcg", "mrr", "spearman", "pearson",
})
# words that mean "lower is better", firmly enough for a rule to say a maximised metric is wrong
LOWER_WORDS = frozenset({
    "loss", "err", "error", "wer", "cer", "ter", "perplexity", "ppl", "mse", "mae", "rmse", "fid",
    "nll", "bpd", "lpips", "eer",
})
# words that usually mean "lower is better" but not firmly enough to fire on (a name holding one
# only keeps a rule silent)
LIKELY_LOWER_WORDS = LOWER_WORDS | frozenset({"distance", "dist", "time", "latency"})


def metric_words(name: str) -> list[str]:
    """The lower-case words of a metric name (``val/top1_acc`` -> ``val``, ``top1``, ``acc``)."""
    return [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]
