"""det92: the cases of held-out sets whose text holds a gate of the det92 rules (only those can change).

    python bench/bugs/det92_gates.py 2 3 ... 36      # prints: set case-id codes
"""
import glob
import re
import sys
from pathlib import Path

pats = [
 ("PF676", lambda t: re.search(r'drop_last\s*=\s*(True|\w+)', t) and re.search(r'val|test|eval|dev', t, re.I)),
 ("PF677", lambda t: re.search(r'^\s*(-\s+)?<<\s*:', t, re.M) and re.search(r'omegaconf==2\.0|hydra-core==1\.0', t)),
 ("PF678", lambda t: re.search(r'\$\{env:', t) and re.search(r'omegaconf==2\.0|hydra-core==1\.0', t)),
]
for n in sys.argv[1:]:
    for f in sorted(glob.glob(f'bench/bugs/heldout{n}/*.cases')):
        text = Path(f).read_text()
        for block in re.split(r'^### case: ', text, flags=re.M)[1:]:
            cid = block.split('\n',1)[0].strip()
            hit = [c for c, p in pats if p(block)]
            if hit:
                print(n, cid, ','.join(hit))
