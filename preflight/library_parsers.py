"""The options of argument parsers a library builds for the script (``args =
default_argument_parser().parse_args()``): the script declares none of them itself, so without these
its ``args.config_file`` is unknown. Each parser is written out as the library declares it (the
``add_argument`` calls only, read like the script's own; nothing is imported or executed):

* detectron2 ``detectron2/engine/defaults.py`` ``default_argument_parser`` (facebookresearch/detectron2
  @ 2a420ed), the parser of its ``tools/train_net.py`` and of the projects built on it
  (facebookresearch/MaskFormer @ da3e60d ``train_net.py:262``, facebookresearch/Mask2Former
  ``train_net.py``, facebookresearch/CutLER): ``--config-file``, ``--num-gpus``, ``--num-machines``
  and the trailing ``opts`` (``KEY VALUE`` pairs merged into the yacs config).
"""

from __future__ import annotations

import ast
from functools import cache
from typing import Optional

_DETECTRON2 = """
parser.add_argument("--config-file", default="", metavar="FILE")
parser.add_argument("--resume", action="store_true")
parser.add_argument("--eval-only", action="store_true")
parser.add_argument("--num-gpus", type=int, default=1)
parser.add_argument("--num-machines", type=int, default=1)
parser.add_argument("--machine-rank", type=int, default=0)
parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
"""

_PARSERS = {
    "detectron2.engine.default_argument_parser": _DETECTRON2,
    "detectron2.engine.defaults.default_argument_parser": _DETECTRON2,
}


@cache
def _tree(text: str) -> ast.Module:
    return ast.parse(text)


def library_parser(qualified: Optional[str]) -> Optional[ast.Module]:
    """The ``add_argument`` calls of the library parser function ``qualified`` (its full dotted name as
    the script imports it), or None when it is not one of the parsers known here."""
    text = _PARSERS.get(qualified or "")
    return _tree(text) if text is not None else None
