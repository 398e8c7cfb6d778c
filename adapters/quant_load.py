"""Quantized weights loaded through a receiver that names no model class: Alpaca-CoT
``uniform_finetune.py`` @ bd46c44:235 ``model_class.model.from_pretrained(args.model_name_or_path,
load_in_8bit=True, device_map=device_map)``, where ``model_class`` is the project's table of
(model, tokenizer) classes picked by ``--model_type``. ``load_in_8bit``/``load_in_4bit`` are
keywords of transformers' ``PreTrainedModel.from_pretrained`` (bitsandbytes weights), so the
base's weight width is read from the keyword whatever the receiver: medium where the call runs
for this job, low where that is not decided; nothing when the running calls disagree (one 4-bit,
one 8-bit) or a model class's own load already gave the width."""

from __future__ import annotations

from typing import Any


def untyped_quantized_load(pass_: Any) -> None:
    from preflight.adapters.pytorch import _MODEL_CLASS, _NOT_MODEL

    if pass_.weights_bits is not None:
        return
    seen: dict[int, tuple[Any, str]] = {}
    for site in pass_.calls:  # calls this job does not skip
        name = site.name or ""
        if not name.endswith(".from_pretrained"):
            continue
        cls = name.rsplit(".", 2)[-2] if name.count(".") else ""
        if _MODEL_CLASS.match(cls) and not _NOT_MODEL.search(cls):
            continue  # a model class's load: read with the class
        for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
            flag = pass_.value(site.kwarg(kw))
            if flag is not None and flag.value is True:
                seen.setdefault(bits, (site, kw))
    if len(seen) != 1:
        return
    bits, (site, kw) = next(iter(seen.items()))
    conf = "medium" if pass_.idx.runs(site) else "low"
    pass_.weights_bits = bits
    pass_.add("precision.weights_bits", bits,
              pass_.src(site.kwarg(kw), f"{site.label}({kw}=True): bitsandbytes {bits}-bit base weights "
                                        "(transformers' from_pretrained keyword)"), conf)
