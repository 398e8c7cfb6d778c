"""preflight: a framework-aware static auditor for PyTorch training jobs.

The package never imports torch or a training framework; it reads sources and
configs as data. See ``preflight --help``.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
