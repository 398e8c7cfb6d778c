"""BLAKE2b without loading OpenSSL: ``hashlib`` imports ``_hashlib`` (OpenSSL) eagerly,
which costs several milliseconds of every start-up; the built-in ``_blake2`` does not."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython builds without the built-in module
    from hashlib import blake2b

__all__ = ["blake2b"]
