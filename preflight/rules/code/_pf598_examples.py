"""PF598 examples: a bad example marks each line it must be reported on with a trailing
``# error: PF598`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

_HEAD = textwrap.dedent("""\
    import random

    import hydra
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
""")

BAD_EXAMPLES = [
    # ABSESpy issue 168: the per-job seed from the string job id
    _HEAD + textwrap.indent(textwrap.dedent("""\
        hc = HydraConfig.get()
        job_id = hc.job.id if hc.mode == RunMode.MULTIRUN else 0
        for repeat in range(cfg.repeats):
            random.seed(cfg.seed + job_id * 1000 + repeat)  # error: PF598
    """), "    "),
    # read in place
    _HEAD + textwrap.indent(textwrap.dedent("""\
        offset = HydraConfig.get().job.id * 7  # error: PF598
        random.seed(cfg.seed + offset)
    """), "    "),
]

GOOD_EXAMPLES = [
    # the fix of the issue: job.num is the integer
    _HEAD + textwrap.indent(textwrap.dedent("""\
        hc = HydraConfig.get()
        job_id = hc.job.num if hc.mode == RunMode.MULTIRUN else 0
        for repeat in range(cfg.repeats):
            random.seed(cfg.seed + job_id * 1000 + repeat)
    """), "    "),
    # tricky-correct: converted first, or used to build a name
    _HEAD + textwrap.indent(textwrap.dedent("""\
        hc = HydraConfig.get()
        random.seed(cfg.seed + int(hc.job.id) * 1000)
        run_name = "job_" + hc.job.id + "_" + str(cfg.seed)
        tag = f"{hc.job.id}-{cfg.seed + 1}"
        print(run_name, tag)
    """), "    "),
]
