"""The datasets a job trains on, as its code names them (``data.datasets``), and its collator's
padding multiple (``data.pad_to_multiple_of``).

``datasets.load_dataset("vicgalle/alpaca-gpt4", ...)`` (its first argument or ``path=``) and
ModelScope's ``MsDataset.load("AI-ModelScope/alpaca-gpt4-data-zh", ...)`` name a dataset by its
Hub id. The estimator looks the names up in a table of published token lengths
(``preflight/estimate/sample_lengths.py``) to size a dynamically padded step at the longest
sample instead of the length cap; so the list must be whole: the fact is written only when every
such call that may run names a Hub id as a string literal. A builder name with local files
(``load_dataset("json", data_files=...)``), a local path or a value the analysis cannot read
leaves the fact unwritten (the cap stays).

A transformers padding collator (``DataCollatorForSeq2Seq``, ``DataCollatorWithPadding``,
``DataCollatorForLanguageModeling``, ``DataCollatorForTokenClassification``, TRL's
``DataCollatorForCompletionOnlyLM``) written with a literal ``pad_to_multiple_of=N`` pads every
batch's length up to a multiple of N: the longest batch is the longest sample rounded up.
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CACHE = "dataset_names.found"
_LOADERS = ("datasets.load_dataset", "modelscope.msdatasets.MsDataset.load", "modelscope.MsDataset.load")
#: ``load_dataset``'s packaged builders: they read the job's own files, not a Hub dataset
_BUILDERS = {"json", "csv", "parquet", "text", "arrow", "pandas", "sql", "webdataset", "imagefolder",
             "audiofolder", "videofolder", "xml"}


def _hub_id(call: ast.Call) -> Optional[str]:
    """The literal Hub id the call names, or None (not a literal, a builder, a local path)."""
    node = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg in ("path", "dataset_name")), None)
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    name = node.value.strip()
    if not name or name.lower() in _BUILDERS or name.startswith((".", "/", "~")) or "\\" in name:
        return None
    if name.rsplit(".", 1)[-1].lower() in ("json", "jsonl", "csv", "parquet", "txt", "arrow"):
        return None
    return name


_COLLATORS = ("DataCollatorForSeq2Seq", "DataCollatorWithPadding", "DataCollatorForLanguageModeling",
              "DataCollatorForTokenClassification", "DataCollatorForCompletionOnlyLM")


def _multiple(project: Project) -> Optional[tuple[int, Source]]:
    """The literal ``pad_to_multiple_of`` of the one padding collator the code builds (two that
    disagree, or none: nothing)."""
    found: list[tuple[int, Source]] = []
    for script in project.scripts:
        if script.tree is None:
            continue
        idx = project.index(script)
        for site in idx.calls:
            if site.last not in _COLLATORS or idx.runs(site) is False:
                continue
            node = site.kwarg("pad_to_multiple_of")
            if (isinstance(node, ast.Constant) and isinstance(node.value, int)
                    and not isinstance(node.value, bool) and node.value > 1):
                found.append((node.value, project.source(
                    script, site.call, "code", detail=f"{site.label}(pad_to_multiple_of={node.value})")))
    values = {v for v, _ in found}
    return found[0] if len(values) == 1 else None


def _find(project: Project) -> Optional[tuple[list[str], Source]]:
    names: list[str] = []
    first: Optional[Source] = None
    for script in project.scripts:
        if script.tree is None:
            continue
        idx = project.index(script)
        for site in idx.calls:
            if not any(site.matches(p) for p in _LOADERS):
                continue
            if idx.runs(site) is False:
                continue
            name = _hub_id(site.call)
            if name is None:
                return None   # a dataset the list cannot name: the list would not be whole
            # a call that may not run still counts: one more name only raises the longest sample
            if name not in names:
                names.append(name)
            if first is None:
                first = project.source(script, site.call, "code",
                                       detail=f"{site.label}({name!r})")
    if not names or first is None:
        return None
    return names, first


@register_adapter
class DatasetNamesAdapter(Adapter):
    name = "dataset_names"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """The reading is done here, so that an adapter that writes nothing is not named among those detected."""
        found = _find(project) if any("load_dataset" in s.source.text or "MsDataset" in s.source.text
                                      for s in project.scripts) else None
        multiple = _multiple(project) if any("pad_to_multiple_of" in s.source.text
                                             for s in project.scripts) else None
        project.cache[_CACHE] = (found, multiple)
        return found is not None or multiple is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found, multiple = project.cache.pop(_CACHE, (None, None))
        if found is not None:
            names, source = found
            self.add_checked(plan, "data.datasets", names, source, "high", 0)
        if multiple is not None:
            self.add_checked(plan, "data.pad_to_multiple_of", multiple[0], multiple[1], "high", 0)
