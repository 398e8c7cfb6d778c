"""Executable documentation of PF901 and PF902: programs that must (and must not) fire."""

from __future__ import annotations

import textwrap

_SETUP = textwrap.dedent("""\
    import torch

    x = torch.randn(4)
""")

PF901_BAD = (
    _SETUP + "x.to('cuda')  # noqa: PF3O3  # warning: PF901  # warning: PF303\n",  # a letter O for a zero
    _SETUP + "x.to('cuda')  # preflight: ignore[PF999]  # warning: PF901  # warning: PF303\n",
    _SETUP + "x.to('cuda')  # noqa: PF303, PF1O1  # warning: PF901\n",  # one valid, one invalid
)

PF901_GOOD = (
    _SETUP + "x.to('cuda')  # noqa: PF303\n",
    _SETUP + "x.to('cuda')  # noqa: PF3\n",  # a prefix
    _SETUP + "y = 1  # noqa: E501, F401\n",  # other tools' codes
    _SETUP + "x.to('cuda')  # noqa\n",
)

PF902_BAD = (
    _SETUP + "y = x + 1  # noqa: PF303  # note: PF902\n",  # nothing to silence on this line
    _SETUP + "y = x.to('cuda')  # preflight: ignore[PF303]  # note: PF902\n",
)

PF902_GOOD = (
    _SETUP + "x.to('cuda')  # noqa: PF303\n",  # silences a real finding
    _SETUP + "y = x + 1  # noqa: E501\n",  # another tool's code
    _SETUP + "y = x + 1  # noqa\n",  # bare
    _SETUP + "y = x + 1  # noqa: PF501\n",  # a plan rule: checked by audit, not here
)
