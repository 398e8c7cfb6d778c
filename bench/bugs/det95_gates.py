"""det95: the cases of held-out sets whose text holds a gate of the det95 rules (only those can change).

    python bench/bugs/det95_gates.py 2 3 ... 37      # prints: set case-id codes
"""
import glob
import re
import sys
from pathlib import Path

pats = [
 ("PF679", lambda t: re.search(r'max_steps\s*=', t) and len(re.findall(r'\.fit\(', t)) >= 2),
 ("PF680", lambda t: re.search(r'edge_index|num_graphs|\.ptr\b|torch_geometric', t) and re.search(r'self\.log', t)),
 ("PF683", lambda t: re.search(r'max_epochs', t) and re.search(r'len\(', t) and re.search(r'/', t)),
 ("PF684", lambda t: re.search(r'LearningRateFinder', t) and re.search(r'^optimizer:', t, re.M)),
]
for n in sys.argv[1:]:
    for f in sorted(glob.glob(f'bench/bugs/heldout{n}/*.cases')):
        text = Path(f).read_text()
        for block in re.split(r'^### case: ', text, flags=re.M)[1:]:
            cid = block.split('\n', 1)[0].strip()
            hit = [c for c, p in pats if p(block)]
            if hit:
                print(n, cid, ','.join(hit))
