"""The job's length options documented as the length of generated text, which the value_flow
adapter (:mod:`preflight.adapters.config_object_reads`) must not read as the training sequence
length: ``parser.add_argument("--max_length", type=int, default=128, help="Maximum number of
tokens to generate.")`` read by an evaluation helper that samples from the model
(williamconvertino/icl-for-language-modeling @ c230466 main.py:37 -> src/util/evaluation.py:78
``sample_tokens(model, prompt, args.max_length, ...)``; the training windows are
``config.max_seq_len`` 512). The cliargs adapter skips such an option by the same help
(:data:`preflight.adapters.cliargs._GENERATED`, OpenLMLab/LOMO src/arguments.py:41).

Only the help is read: an option whose help says nothing of generation stays a candidate.
"""

from __future__ import annotations

import re
from typing import Any

from preflight.adapters_api import Project

# "Maximum number of tokens to generate.", "The maximum length of the sequence to be generated."
_GENERATED = re.compile(r"\bgenerat(e|ed|ion)\b", re.I)


def generation_options(project: Project, script: Any) -> frozenset:
    """The names of the options the script (and the modules it imports) declares with a help
    that documents a generation length."""
    from preflight.adapters.cliargs_options import declared_options

    try:
        decl = declared_options(script, project)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return frozenset()
    return frozenset(name for name, opt in decl.options.items() if _GENERATED.search(opt.help or ""))
