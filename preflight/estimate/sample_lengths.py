"""The longest sample a dynamically padded job can meet: a dataset's published token lengths.

With dynamic padding (``padding="longest"``, ``DataCollatorForSeq2Seq``, ``DataCollatorWithPadding``,
ms-swift's per-batch padding) every batch is as long as its longest sample, so the activations,
logits and length-dependent transients of the peak step are sized by the longest sample the data
holds, not by the length cap (``max_length`` / ``cutoff_len`` / ``model_max_length``), which only
truncates or drops longer samples. The cap is the estimate's default: nothing about the data is
known. This module lowers it only with a cited length:

- ``EstimateInput.longest_sample``: stated by the plan (``data.longest_sample``) or the caller;
- else ``EstimateInput.datasets`` (plan ``data.datasets``, what the job loads) looked up in
  :data:`LENGTHS`, a table of published per-dataset token statistics, for the model's tokenizer.
  Every dataset the job names must be in the table for that tokenizer, or the cap stays.

A collator's ``pad_to_multiple_of`` (``EstimateInput.pad_multiple``, plan
``data.pad_to_multiple_of``) rounds the longest batch up to its multiple.

The statistics are the encoded training samples (chat template included) of the library that
published them, so a job with another template or system prompt may run a few tens of tokens
longer: a table length lowers the point estimate, while the interval's top keeps the estimate at
the cap (``model.estimate``), so a verdict never says "fits" on a table length alone. A length
the plan or the caller states moves both.

The table (est47, docs/calibration.md):

- ms-swift's "Supported models and datasets" page publishes, per dataset, ``mean±std, min, max``
  of the encoded ``input_ids`` lengths under Qwen's tokenizer
  (``scripts/utils/run_dataset_info.py``: ``len(input_ids)`` after the template's encoding, every
  row when the dataset has at most 100,000 rows). Two releases published different figures for
  the same data (2.x with Qwen-7B-Chat, 3.0 with Qwen2-7B-Instruct); the larger maximum is kept.
- Qwen, Qwen1.5/Qwen2 and Qwen2.5 share one byte-level BPE vocabulary (151,643 regular tokens;
  Qwen2 technical report, arXiv:2407.10671, section 2.1: "Following Qwen, we employ the identical
  tokenizer"), so the figures hold for the ``qwen``, ``qwen2`` and ``qwen2_moe`` model types.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

#: tokenizer family of a transformers ``model_type`` (only families the table has figures for)
TOKENIZER_FAMILY = {"qwen": "qwen", "qwen2": "qwen", "qwen2_moe": "qwen"}

_SWIFT_3 = ("modelscope/ms-swift b40f31df7 (v3.0) docs/source_en/Instruction/"
            "Supported-models-datasets.md")
_SWIFT_2 = ("modelscope/ms-swift b40f31df7^ (v2.x) docs/source_en/Instruction/"
            "Supported-models-datasets.md")


@dataclass(frozen=True)
class LengthStat:
    """Published token lengths of one dataset under one tokenizer family."""

    dataset: str              # the id its publisher uses
    aliases: tuple[str, ...]  # other ids of the same data (Hub mirror, the library's short name)
    family: str               # tokenizer family (TOKENIZER_FAMILY values)
    rows: int
    max_tokens: int           # the largest maximum any cited figure gives
    source: str               # where, with the figures as written


LENGTHS: tuple[LengthStat, ...] = (
    LengthStat("AI-ModelScope/alpaca-gpt4-data-en", ("vicgalle/alpaca-gpt4", "alpaca-en"), "qwen", 52002, 740,
               f"{_SWIFT_3}:607 '167.6±123.9, min=29, max=607'; {_SWIFT_2}:580 '176.2±125.8, min=26, max=740'"),
    LengthStat("AI-ModelScope/alpaca-gpt4-data-zh", ("llm-wizard/alpaca-gpt4-data-zh", "alpaca-zh"), "qwen", 48818,
               856, f"{_SWIFT_3}:608 '157.2±93.2, min=27, max=544'; {_SWIFT_2}:581 '162.1±93.9, min=26, max=856'"),
    LengthStat("swift/self-cognition", ("modelscope/self-cognition", "self-cognition"), "qwen", 134, 131,
               f"{_SWIFT_3}:719 '58.9±20.3, min=32, max=131' (108 rows); {_SWIFT_2}:637 "
               "'53.6±18.6, min=29, max=121' (134 rows)"),
    LengthStat("AI-ModelScope/alpaca-cleaned", ("yahma/alpaca-cleaned", "alpaca-cleaned"), "qwen", 51760, 1044,
               f"{_SWIFT_3}:606 '170.1±122.9, min=29, max=1028'; {_SWIFT_2}:688 '177.9±126.4, min=26, max=1044'"),
    LengthStat("lvjianjin/AdvertiseGen", ("shibing624/AdvertiseGen", "advertise-gen-zh"), "qwen", 98399, 241,
               f"{_SWIFT_3}:666 '130.9±21.9, min=73, max=232' (97,484 rows); {_SWIFT_2}:624 "
               "'130.6±21.7, min=51, max=241' (98,399 rows)"),
    LengthStat("damo/zh_cls_fudan-news", ("cls-fudan-news-zh",), "qwen", 4959, 19548,
               f"{_SWIFT_3}:656 '3234.4±2547.5, min=91, max=19548'; {_SWIFT_2}:639 (the same figures)"),
)


def _key(name: str) -> str:
    """A dataset id as the table matches it: case folded, ms-swift's ``#N`` sample count and
    ``:subset`` suffix dropped (a sample or a subset is never longer than the whole)."""
    return name.strip().split("#", 1)[0].split(":", 1)[0].strip().lower()


def stat_for(name: str, family: str) -> Optional[LengthStat]:
    key = _key(name)
    for stat in LENGTHS:
        if stat.family == family and key in (_key(stat.dataset), *(_key(a) for a in stat.aliases)):
            return stat
    return None


def tokenizer_family(arch: Any) -> Optional[str]:
    return TOKENIZER_FAMILY.get(str(getattr(arch, "model_type", "") or ""))


def table_longest(datasets: Optional[tuple[str, ...]], arch: Any) -> Optional[tuple[int, str]]:
    """(longest sample in tokens, its citation) over every dataset the job names, when the table
    has all of them for the model's tokenizer; None otherwise (the cap stays)."""
    family = tokenizer_family(arch)
    if not datasets or family is None:
        return None
    stats = [stat_for(d, family) for d in datasets]
    if any(s is None for s in stats):
        return None
    longest = max(stats, key=lambda s: s.max_tokens if s is not None else 0)
    assert longest is not None
    return longest.max_tokens, f"{longest.dataset} under {family}'s tokenizer: {longest.source}"


def applies(inp: Any) -> bool:
    """A decoder-only training job padded per batch, with a length cap."""
    return (inp.mode == "train" and inp.padding == "dynamic" and bool(inp.seq_len)
            and getattr(inp.arch, "family", "decoder") == "decoder")


def at_longest_sample(inp: Any) -> tuple[Optional[Any], bool, str]:
    """(the input at the longest sample, whether the length is stated, a note), or (None, False,
    "") when the cap stays: no cited length shorter than the cap."""
    if not applies(inp):
        return None, False, ""
    if inp.longest_sample:
        length, stated = int(inp.longest_sample), True
        where = inp.sources.get("longest_sample", "given")
    else:
        found = table_longest(inp.datasets, inp.arch)
        if found is None:
            return None, False, ""
        (length, where), stated = found, False
    multiple = int(inp.pad_multiple or 1)
    padded = -(-length // multiple) * multiple if multiple > 1 else length
    if padded >= int(inp.seq_len):
        return None, False, ""
    note = (f"padded per batch: the longest sample is {length:,} tokens ({where}), under the "
            f"{int(inp.seq_len):,}-token cap; the step is sized at {padded:,}"
            + (f" (padded to a multiple of {multiple})" if padded != length else ""))
    if not stated:
        note += " (the interval's top keeps the cap: another template may run longer)"
    return replace(inp, seq_len=padded), stated, note


def cap_top(est: Any, capped: Any, hi: int, estimate: Callable[[Any], Any]) -> int:
    """The interval's top at the length cap (a table length lowers the point only), with the
    cached blocks the verdict leaves out paired with it (``Estimate.reclaimable``'s top)."""
    at_cap = estimate(replace(capped, longest_sample=None, datasets=None))
    if at_cap.interval_bytes is None or at_cap.interval_bytes[1] <= hi:
        return hi
    r_lo, r_point, _ = est.reclaimable
    est.reclaimable = (r_lo, r_point, at_cap.reclaimable[2])
    return int(at_cap.interval_bytes[1])
