"""det91: the cases of held-out sets whose text holds a gate of the det91 rule changes (only those can change).

    python bench/bugs/det91_gates.py 2 3 ... 36      # prints: set case-id codes
"""
import glob
import re
import sys
from pathlib import Path

pats = [
 ("PF475", lambda t: re.search(r'\]\.set_transform\(', t)),
 ("PF488", lambda t: 'compute_loss' in t and re.search(r'padding\s*=\s*"max_length"|pad_to_max_length', t)),
 ("PF514", lambda t: re.search(r'"fp16"\s*:\s*\{', t) and re.search(r'(^|[/"\s])(t5|mt5|flan-t5|byt5|ul2)', t, re.I)),
 ("PF657", lambda t: 'predict_with_generate' in t and re.search(r't5', t, re.I)),
 ("PF658", lambda t: re.search(r'update\w*\s*=\s*len\s*\(', t) and 'sync_gradients' in t),
 ("PF659", lambda t: 'merge_and_unload' in t),
]
for n in sys.argv[1:]:
    for f in sorted(glob.glob(f'bench/bugs/heldout{n}/*.cases')):
        text = Path(f).read_text()
        for block in re.split(r'^### case: ', text, flags=re.M)[1:]:
            cid = block.split('\n',1)[0].strip()
            hit = [c for c, p in pats if p(block)]
            if hit:
                print(n, cid, ','.join(hit))
