"""The parameter count of a model named by its Hub id, from the architecture the estimator uses, offline.

A job that fine-tunes a published checkpoint names it (meta-math/MetaMath @ the benchmark's commit
``run_mistral.sh:1,10`` ``export MODEL_PATH='mistralai/Mistral-7B-v0.1'`` ... ``--model_name_or_path
$MODEL_PATH`` read by ``train_math.py`` ``AutoModelForCausalLM.from_pretrained``; WeOpenML/PandaLM
``--model_name_or_path huggyllama/llama-7b``). The adapters state ``model.ref``; the size of that
model is the size of its architecture, which the estimator reads from the built-in catalog (or the
local Hugging Face cache, never the network). This derivation states it in the plan too, so the plan
says how large the model is, not only its name:

- only when no adapter stated ``model.num_parameters`` (a count read from the job's own code or
  config wins: it sees what the job builds);
- only for a ``model.ref`` that is a Hub id (``owner/name``), no file or folder beside the job (a
  local checkpoint is its own config's), with no other value for ``model.ref`` in the plan; a bare
  name (``resnet50``) or a size label (``DiT-XL/2``: no letter after the slash) is the project's or a
  library's own model, whose layout the catalog entry of the same name need not share (hpcaitech/OpenDiT's
  ``DiT-XL/2`` is the paper's 675M, the catalog's diffusers ``DiTTransformer2DModel`` 750M);
- only when the architecture lookup gives a total (``params_total``); the confidence is the
  reference's, ``medium`` at most (the job may resize the vocabulary or add heads: a few percent).

The estimator does not read this fact back as ``--params`` when it resolves the same architecture
itself (``preflight.estimate.inputs``), so the estimate and its interval stay as they were.
"""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from preflight.plan import Source, TrainingPlan

ADAPTER = "model_ref_count"
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]*[A-Za-z][\w.-]*$")
_RANK = {"low": 0, "medium": 1, "high": 2}


def _beside(project: Any, ref: str) -> bool:
    """Whether ``ref`` names a file or folder from the project root or beside an audited script."""
    roots = [str(getattr(project, "root", "") or ".")]
    for script in getattr(project, "scripts", []) or []:
        path = getattr(getattr(script, "source", None), "path", None)
        if path is not None:
            roots.append(os.path.dirname(str(path)))
    for root in roots:
        try:
            if os.path.lexists(os.path.join(root, ref)):
                return True
        except (OSError, ValueError):
            return True
    return False


def _total(ref: str) -> Optional[tuple[int, str]]:
    from preflight.estimate import InputError, resolve_architecture

    try:
        arch = resolve_architecture(ref, online=False)
    except (InputError, OSError, ValueError):  # not in the catalog nor a readable local cache: not known offline
        return None
    total = getattr(arch, "params_total", None)
    if not isinstance(total, int) or isinstance(total, bool) or total <= 0:
        return None
    return total, str(getattr(arch, "name", "") or ref)


def _download_of(refs: list[Any], project: Any) -> Any:
    """The Hub-id fact of two ``model.ref`` values that are one model: a local folder not beside the job
    and the catalog model it is named after (:func:`preflight.adapters.model_local_folder.catalog_download`;
    taishan1994/DPO-Finetuning @ 6f19d2e9 ``train.sh:1`` ``--model_name_or_path=./model_hub/Qwen2-0.5B-Instruct``,
    stated as the folder by the loader's reader and as ``Qwen/Qwen2-0.5B-Instruct`` by the options' reader)."""
    from preflight.adapters.model_local_folder import catalog_download

    values = {str(f.value).strip() for f in refs}
    hubs = [v for v in values if _HUB_ID.match(v) and not (project is not None and _beside(project, v))]
    if len(values) != 2 or len(hubs) != 1:
        return None
    folder = next(v for v in values if v != hubs[0])
    if catalog_download(folder) != hubs[0] or (project is not None and _beside(project, folder)):
        return None
    return next(f for f in refs if str(f.value).strip() == hubs[0])


def count_from_ref(plan: TrainingPlan, project: Any = None) -> None:
    """Add ``model.num_parameters`` for the plan's Hub model (see the module comment)."""
    if plan.facts("model.num_parameters"):
        return
    refs = plan.facts("model.ref")
    fact = plan.resolve("model.ref")
    if fact is not None and len({str(f.value) for f in refs}) != 1:
        fact = _download_of(refs, project)
    if fact is None or not isinstance(fact.value, str) or len({str(f.value) for f in refs}) > 2:
        return
    ref = fact.value.strip()
    if not _HUB_ID.match(ref) or (project is not None and _beside(project, ref)):
        return
    found = _total(ref)
    if found is None:
        return
    total, name = found
    confidence = fact.confidence if _RANK.get(fact.confidence, 0) < _RANK["medium"] else "medium"
    as_ = "" if name == ref else f" (as {name})"
    detail = (f"model.ref {ref}{as_}: {total:,} parameters in the offline architecture catalog; the job may "
              "resize its vocabulary or add heads")
    src = fact.source
    plan.add("model.num_parameters", total,
             Source(src.kind, src.path, src.line, src.key, detail), confidence, adapter=ADAPTER)
