"""One process on one GPU: ``dist.devices_per_node`` 1 for a job the plan already runs as one process.

A plain ``python train.py`` (or a script audited without a launch line and without distributed code,
:mod:`preflight.adapters.bare_script`) is one process; PyTorch then puts a model on one device, the
current one (``model.cuda()``, ``.to("cuda")``, ``torch.device("cuda")``: device 0 unless the process
selects another), so each node runs one process on one GPU (PetarV-/DGI @ 61baf67 ``execute.py:47-49``
``model.cuda()``; vwxyzjn/cleanrl ``cleanrl/ppo_atari.py:176`` ``torch.device("cuda" if ... )``).

One process can still use several GPUs, and then this says nothing:

- ``nn.DataParallel`` replicates the model on every visible GPU (``device_ids`` default); ``device_map``
  (Hugging Face ``from_pretrained(device_map="auto")``) spreads the layers over all of them; an index past
  0 (``cuda:1``), an index built at run time (``f"cuda:{i}"``, ``"cuda:" + ...``), ``device_count()`` and
  options counting GPUs (``n_gpu``, ``num_gpus``, ``gpu_ids``) may each place work on several devices;
- a Hugging Face ``Trainer`` started as one process wraps the model in ``DataParallel`` itself when several
  GPUs are visible (``TrainingArguments.n_gpu``; transformers ``Trainer._wrap_model``);
- model, tensor or pipeline parallelism by name.

Read, never run: the scripts, the local modules they import (three levels, as the plain-loop readers do),
the modules the options are declared in, the modules a config names by ``target``/``_target_``, the
configs read and every YAML of the Hydra config folders (a ``devices:`` or ``gpus:`` key in any of them leaves the
field open: an override that did not compose may select it). A module that cannot be read leaves the field open (the job is not wholly visible).
Medium, at the lowest priority: a launcher's ``--nproc_per_node`` or a framework's ``devices`` wins.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from preflight.plan import Source, TrainingPlan
from preflight.sources import read_text_limited

# several GPUs from one process, by any of the spellings above (comments are removed first)
_SPREAD = re.compile(
    r"DataParallel|device_map|device_ids|\bcuda\s*:\s*[1-9]|cuda:\{|['\"]cuda:['\"]\s*[+%]|device_count\s*\("
    r"|\.parallelize\(|model_parallel|tensor_parallel|pipeline_parallel|\bgpu_ids\b|\bn_gpus?\b|\bnum_gpus?\b"
    r"|\bngpus?\b|\bmulti_gpu\b|\bTrainer\s*\(|TrainingArguments\b|HfArgumentParser\b|\b\w+Trainer\s*\("
    # a device or GPU count set by a config key (``trainer: devices: 4``), whatever reads it
    r"|\b(?:devices|gpus)\s*[:=]", re.I)
_COMMENT = re.compile(r"(?m)#.*$")
_MAX_CONFIGS = 400


def _job_texts(project: Any) -> Optional[list[str]]:
    """The text of every module and config the job is read from, or None when one cannot be read."""
    from preflight.adapters.cliargs_options import declared_options
    from preflight.adapters.pytorch_local import _imported_up
    from preflight.adapters.visible_code import _target_texts

    root = Path(str(project.root)) if getattr(project, "root", None) else None
    texts: list[str] = []
    for script in project.scripts:
        if script.tree is None or script.source.path is None:
            return None
        texts.append(script.source.text)
        try:
            texts.extend(declared_options(script, project).texts)
        except (SyntaxError, ValueError, RecursionError):
            return None
        path = Path(str(script.source.path)).resolve()
        for local in _imported_up(script.tree, path.parent, root):
            try:
                texts.append(read_text_limited(local, errors="replace"))
            except (OSError, ValueError):
                return None
    texts.extend(_target_texts(project, root))
    texts.extend(source.text for source, _cfg in project.configs)
    # every YAML of a Hydra config folder, composed or not: an override that failed to compose leaves its
    # values unread, and one of them may set the device count (facebookresearch/drqv2 ``cfgs/task/*.yaml``)
    dirs = list(getattr(project, "config_dirs", ()) or ())
    if any("hydra" in s.source.text for s in project.scripts):
        from preflight.adapters.hydra import find_apps

        dirs += [app.config_dir for app in find_apps(project) if app.config_dir is not None and app.config_dir.is_dir()]
    count = 0
    for base in dirs:
        for path in sorted(Path(base).rglob("*.y*ml")):
            count += 1
            if count > _MAX_CONFIGS:
                return None
            try:
                texts.append(read_text_limited(path, errors="replace"))
            except (OSError, ValueError):
                return None
    return texts


def one_device(plan: TrainingPlan, project: Any) -> None:
    """``dist.devices_per_node`` 1 where the plan has one process (not a guess) and nothing of the job
    can spread it over several GPUs."""
    if plan.resolve("dist.devices_per_node") is not None or not getattr(project, "scripts", None):
        return
    world = plan.resolve("dist.world_size")
    if world is None or isinstance(world.value, bool) or world.value != 1 or world.confidence == "low":
        return
    texts = _job_texts(project)
    if not texts or any(_SPREAD.search(_COMMENT.sub("", t)) for t in texts):
        return
    plan.add("dist.devices_per_node", 1,
             Source("derived", world.source.path, world.source.line, None,
                    "one process, and no code or config of the job spreads it over several GPUs (no DataParallel, "
                    "device_map, GPU index past 0 or built at run time, GPU count, Hugging Face Trainer or model "
                    "parallelism): the model sits on the process's one device"),
             "medium", adapter="derive", priority=-1)
