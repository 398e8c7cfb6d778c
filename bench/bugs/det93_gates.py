"""det93: the cases of held-out sets whose text holds a gate of a det93 rule (PF670-PF674; only those can change).

    python bench/bugs/det93_gates.py 2 3 ... 36      # prints: set case-id codes
"""
import glob
import re
import sys
from pathlib import Path

pats = [
    ("PF670", lambda t: re.search(r'"enabled"\s*:\s*"(true|false)"', t, re.I)),
    ("PF671", lambda t: 'label_smoothing_factor' in t and 'DataCollatorForSeq2Seq' in t),
    ("PF672", lambda t: re.search(r'zero_hpz_partition_size|zero_quantized_(weights|gradients)', t)),
    ("PF673", lambda t: 'zero_quantized_weights' in t),
    ("PF674", lambda t: 'streaming=True' in t and 'TrainingArguments' in t),
]
for n in sys.argv[1:]:
    for f in sorted(glob.glob(f'bench/bugs/heldout{n}/*.cases')):
        text = Path(f).read_text()
        for block in re.split(r'^### case: ', text, flags=re.M)[1:]:
            cid = block.split('\n', 1)[0].strip()
            hit = [c for c, p in pats if p(block)]
            if hit:
                print(n, cid, ','.join(hit))
