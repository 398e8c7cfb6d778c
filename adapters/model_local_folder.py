"""A model given as a local folder: the catalog model it is a download of, and the option that names it.

Launch scripts hand the trainer a local copy of a Hub model more often than the Hub id itself: TideDra/lmm-r1
@ f917f18 ``examples/scripts/lmm_r1/train_direct_rl_geo.sh:9,82``
``PRETRAIN_MODEL_PATH="./models/Qwen2.5-VL-3B-Instruct"`` ... ``--pretrain $PRETRAIN_MODEL_PATH``;
RUCAIBox/R1-Searcher @ 631167c ``scripts/qwen_reinforce_plus_train.sh:19,52``
``TOKENIZER_PATH=/opt/aps/workdir/model/Qwen2.5-7B`` ... ``--pretrain ${TOKENIZER_PATH}``. The folder is
named after the repository it was downloaded from (``huggingface-cli download Qwen/Qwen2.5-7B --local-dir
.../Qwen2.5-7B``), so its last part names the architecture.

- :func:`catalog_download`: the catalog Hub id whose repository part is exactly the folder's last part
  (case-insensitive), when one catalog model has that name. No partial match, no suffix stripping
  (``Qwen2.5-7B-sft`` is someone's fine-tune of unknown shape, ``checkpoint-500`` names nothing);
  a folder that exists beside the job is the job's own checkpoint, not a download, and is left alone by
  the callers. The caller states the result at **low** confidence (a name, not the folder's config).
- :func:`help_model_option`: an option that is documented as the model (``--pretrain``, help "HF model
  name or path", OpenRLHF ``openrlhf/cli/train_ppo_ray.py:374``) whose name is none of the usual ones,
  and not another role's (reward, critic, reference, teacher, tokenizer, ...). Only an option given a
  value (on the launch line or in the parser's file) counts, and only when exactly one such option has
  one.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

_PATH_PART = re.compile(r"^[A-Za-z0-9][\w.+-]*$")
_MODEL_HELP = re.compile(r"\b(hf|hugging\s*face|pretrained|base)?\s*model\b[\w\s/]{0,20}\b(name|path|id|"
                         r"name_or_path)\b", re.I)
_OTHER_ROLE = re.compile(r"(^|_)(reward|rm|critic|ref|reference|teacher|tokenizer|draft|vision|vae|judge|value|"
                         r"prm|orm|embed|embedding|eval|output|save|ckpt|checkpoint|cache|log|data)(_|$)", re.I)


def _repo_index() -> dict[str, set[str]]:
    """Lower-cased repository part -> the catalog Hub ids (original spelling) of each catalog model."""
    try:
        from preflight import architectures
    except ImportError:  # pragma: no cover - the catalog ships with the package
        return {}
    index: dict[str, set[str]] = {}
    for entry in architectures.entries():
        names = [entry.get("name", ""), *entry.get("aliases", [])]
        hub_ids = [n for n in names if isinstance(n, str) and n.count("/") == 1]
        for hub_id in hub_ids:
            index.setdefault(hub_id.rsplit("/", 1)[1].lower(), set()).add(f"{entry.get('name')}\0{hub_id}")
    return index


# help that speaks of a checkpoint to resume from, an output or another role is not the model trained
_NOT_BASE = re.compile(r"\b(checkpoint|resume|output|save|reward|critic|reference|teacher|tokenizer)\b", re.I)

_INDEX: Optional[dict[str, set[str]]] = None
_JOINED: Optional[dict[str, set[str]]] = None
# a family name followed at once by a parameter count, no separator: ``llama7b``, ``Qwen7B``, ``vicuna13b``
_SIZE_JOINED = re.compile(r"^[A-Za-z]+[0-9]+(\.[0-9]+)?[bBmM]$")


def _joined_index(index: dict[str, set[str]]) -> dict[str, set[str]]:
    """The repository parts of the index with ``-`` and ``_`` taken out (``llama-7b`` -> ``llama7b``), for
    the names whose parts are only a family name and a size (``llama-2-7b`` -> ``llama27b`` is not such a
    name: a version number would run into the size)."""
    out: dict[str, set[str]] = {}
    for name, items in index.items():
        joined = re.sub(r"[-_]", "", name)
        if joined != name and _SIZE_JOINED.match(joined) and re.fullmatch(r"[a-z]+[-_][0-9.]+[bm]", name):
            out.setdefault(joined, set()).update(items)
    return out


def catalog_download(value: Any) -> Optional[str]:
    """The catalog Hub id a local model folder is a download of, else None (see the module doc)."""
    global _INDEX, _JOINED
    if not isinstance(value, str):
        return None
    text = value.strip().rstrip("/")
    if not text or "$" in text or "{" in text or "://" in text:
        return None
    folder = re.split(r"/+", text)[-1]
    if not _PATH_PART.match(folder) or folder in (".", ".."):
        return None
    if _INDEX is None:
        _INDEX = _repo_index()
    found = _INDEX.get(folder.lower(), set())
    if not found and "___" in folder:
        # ModelScope's snapshot_download stores ``LLM-Research/Meta-Llama-3.1-8B-Instruct`` under
        # ``Meta-Llama-3___1-8B-Instruct`` (a dot in a model name becomes ``___``; taishan1994/Llama3.1-Finetuning
        # @ c02a6d6e ``script/fintune_lora_llama3.1_8B_Instruct.sh:1``)
        found = _INDEX.get(folder.replace("___", ".").lower(), set())
    if not found and _SIZE_JOINED.match(folder):
        # the size written against the family name (``/path/to/llama7B`` for ``llama-7b``, ChiYeungLaw/LLaMa-EasyFT
        # @ 522dc81 ``finetune.sh:2``): the same name without separators, when one catalog model spells it so
        if _JOINED is None:
            _JOINED = _joined_index(_INDEX)
        found = _JOINED.get(folder.lower(), set())
    models = {item.split("\0", 1)[0] for item in found}
    if len(models) != 1:
        return None
    exact = sorted(item.split("\0", 1)[1] for item in found)
    return exact[0]


def help_model_option(options: dict[str, Any], given: Iterable[str]) -> Optional[str]:
    """The one option given a value whose help documents it as the model (see the module doc)."""
    found = [name for name in given
             if name in options and not _OTHER_ROLE.search(name)
             and _MODEL_HELP.search(str(getattr(options[name], "help", "") or ""))
             and not _NOT_BASE.search(str(getattr(options[name], "help", "") or ""))]
    return found[0] if len(found) == 1 else None
