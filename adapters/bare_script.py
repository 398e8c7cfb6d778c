"""A training script given without a launch line and without any distributed code: one process.

A script that never joins a process group, wraps its model in no data-parallel or sharding wrapper,
uses no launcher library (Lightning, DeepSpeed, Ray, ...) and reads no launcher variable
trains in the one process ``python script.py`` starts (open-thought/tiny-grpo @ the benchmark's commit
``README.md:24`` ``python train.py``, ``train.py:197,216`` one ``cuda`` device). Were it started several
times by a launcher, nothing would join the copies into one job: each would train alone.

Read, never run: only when the audit has no launch command (no ``torchrun``/``accelerate``/``deepspeed``
/``python`` line, no launch script) and the job's scripts, the local modules read for their options and
the configs read name none of the distributed words below. ``dist.world_size`` 1 and ``dist.nodes`` 1,
medium, at the lowest priority (any process count read elsewhere wins); ``derive`` then says nothing is
sharded. A launch line, or any of those words anywhere, states nothing. An ``Accelerator()`` is no launcher: started
by plain ``python`` it runs one process (lucidrains/x-transformers @ 9252ed78 ``train_enwik8.py:58``, README
``python train_enwik8.py``); ``accelerate launch`` or ``notebook_launcher`` named anywhere still states nothing.
"""

from __future__ import annotations

import re

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_DISTRIBUTED = re.compile(
    r"torch\.distributed|\bdist\.|init_process_group|DistributedDataParallel|FullyShardedDataParallel|fully_shard"
    r"|\bDDP\b|\bFSDP\b|deepspeed|accelerate\s+launch|notebook_launcher|lightning|\bFabric\b|\bTrainer\b|spawn\("
    r"|Process\(|start_processes|\bray\b|submitit|hydra|horovod|mpi4py|torchrun|torch_xla|colossalai"
    # ``RANK`` the variable, in capitals: "low-rank" in a docstring is prose (x-transformers x_transformers.py:924-926)
    r"|LOCAL_RANK|WORLD_SIZE|(?-i:\bRANK\b)|SLURM_|nproc|world_size|local_rank", re.I)
# a file path written as a string (lucidrains/PaLM-pytorch train.py:51
# ``"./examples/enwik8_deepspeed/data/enwik8.gz"``): a word in a path names a folder, not a launcher
_PATH_STRING = re.compile(r"""(["'])(?:\.{0,2}/)?[\w.\-]+(?:/[\w.\-]+)+/?\1""")


@register_adapter
class BareScriptAdapter(ScratchAdapter):
    name = "bare_script"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        if project.launch_at is not None or not project.scripts:
            return False
        from preflight.adapters.launchers import parse_launch

        return not project.argv or parse_launch(project.argv).launcher is None

    def work(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.cliargs_options import declared_options

        texts: list[str] = []
        for script in project.scripts:
            texts.append(script.source.text)
            try:
                texts.extend(declared_options(script, project).texts)
            except (SyntaxError, ValueError, RecursionError):
                return
        texts.extend(source.text for source, _ in project.configs)
        if not any(re.search(r"\.backward\(|\.step\(", t) for t in texts):
            return  # not a training script as far as its text says
        for text in texts:
            code = _PATH_STRING.sub('""', "\n".join(line.split("#", 1)[0] for line in text.splitlines()))
            if _DISTRIBUTED.search(code):
                return
        shown = str(project.scripts[0].source.display)
        detail = ("no launch line given, and no distributed code in the scripts, the local modules read or the "
                  "configs (no process group, data-parallel wrapper, launcher library or launcher variable): one "
                  "process, as `python` starts it")
        self.add(plan, "dist.world_size", 1, Source("derived", shown, None, None, detail), "medium", priority=-1)
        self.add(plan, "dist.nodes", 1, Source("derived", shown, None, None, detail + "; one process is one node"),
                 "medium", priority=-1)
