"""``if``/``elif`` tests joined by ``||``/``&&`` in a launch script decide their branch as bash does
(epfLLM/Megatron-LLM @ 806a833 ``examples/finetune.sh:107-171``: ``elif [[ $MODEL = llama ]] ||
[[ $MODEL = llama2 ]] || [[ $MODEL = codellama ]]; then``), and stay undecided when a part is not known."""

from __future__ import annotations

import pytest
from preflight.adapters.shell import read_shell

SCRIPT = """\
MODEL=$1
if [[ $MODEL = falcon ]]; then
    SEQ=2048
elif [[ $MODEL = llama ]] {op} [[ $MODEL = llama2 ]]; then
    SEQ=4096
else
    SEQ=8192
fi
python train.py --seq $SEQ
"""


@pytest.mark.parametrize("op,model,seq", [
    ("||", "llama2", "4096"),
    ("||", "llama", "4096"),
    ("||", "falcon", "2048"),
    ("||", "mistral", "8192"),
    ("&&", "llama2", "8192"),  # llama and llama2 at once: never
])
def test_a_compound_test_decides_its_branch(op, model, seq):
    script = read_shell(SCRIPT.format(op=op), "run.sh", [model])
    assert script.variables["SEQ"] == seq
    assert script.launches[-1].tokens[-1] == seq


def test_a_compound_test_over_an_unknown_value_stays_undecided():
    # $OTHER is set nowhere: `[[ $MODEL = x ]] || [[ $OTHER = y ]]` is not known for MODEL=llama2, so the
    # branch's assignment counts only as a default (SEQ unset before: taken), and the else branch's does not
    text = SCRIPT.format(op="||").replace("[[ $MODEL = llama ]] ||", "[[ $OTHER = y ]] ||").replace(
        "[[ $MODEL = llama2 ]]", "[[ $MODEL = x ]]")
    script = read_shell(text, "run.sh", ["llama2"])
    assert script.variables["SEQ"] == "4096"
    # known false on both sides: the else branch
    script = read_shell(text.replace("$OTHER", "$MODEL"), "run.sh", ["llama2"])
    assert script.variables["SEQ"] == "8192"
