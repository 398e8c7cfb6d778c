"""Entry point for torch-preflight (``--model bench/tp_models.py:devset_model``): the model
of one row of ``calibration/public/devset.json`` (or any ``heldoutN.json``) built
by transformers on the meta device from the same config the estimator reads (so both tools see the same
architecture)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def devset_model(row: str) -> Any:
    import torch
    import transformers

    public = REPO / "calibration" / "public"
    # every split file (heldout2.json onwards); earlier, a fixed list stopped at heldout10.json
    # and rows of later splits raised StopIteration, read by the bench as "not expressible"
    names = ["devset.json", *sorted(p.name for p in public.glob("heldout*.json")
                                    if p.stem[len("heldout"):].isdigit())]
    rows = [r for name in names
            for r in json.loads((public / name).read_text(encoding="utf-8"))["rows"]]
    setup = next(r for r in rows if r["id"] == row)["setup"]
    if "hf_config" in setup:
        config = dict(setup["hf_config"])
    else:
        # the catalog files themselves (this runs in torch-preflight's interpreter)
        entries = [e for f in sorted((REPO / "architectures").glob("*.json"))
                   for e in json.loads(f.read_text(encoding="utf-8"))["entries"]]
        config = dict(next(e for e in entries if e["name"] == setup["model"])["config"])
    mt = config.pop("model_type")
    archs = [str(a) for a in config.pop("architectures", None) or []]
    image = any(a.endswith("ForImageClassification") for a in archs)
    masked = any(a.endswith("ForMaskedLM") for a in archs)
    ctc = any(a.endswith("ForCTC") for a in archs)
    classify = setup.get("task") == "sequence-classification"
    if classify:
        config["num_labels"] = int(setup.get("num_labels", 2))
    cfg = transformers.AutoConfig.for_model(mt, **config)
    auto: Any
    if image:
        auto = transformers.AutoModelForImageClassification
    elif classify:
        auto = transformers.AutoModelForSequenceClassification
    elif masked:
        auto = transformers.AutoModelForMaskedLM
    elif ctc:
        auto = transformers.AutoModelForCTC
    elif cfg.is_encoder_decoder and mt == "whisper":
        # speech encoder-decoders are not AutoModelForSeq2SeqLM models (transformers raises)
        auto = transformers.AutoModelForSpeechSeq2Seq
    elif cfg.is_encoder_decoder:
        auto = transformers.AutoModelForSeq2SeqLM
    else:
        auto = transformers.AutoModelForCausalLM
    with torch.device("meta"):
        return auto.from_config(cfg)
