"""BLAKE2b and a constant-time compare without loading OpenSSL: ``hashlib`` and ``hmac``
import ``_hashlib`` (OpenSSL) eagerly, which costs several milliseconds of every start-up; the
built-in ``_blake2`` and ``_operator`` do not."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython builds without the built-in module
    from hashlib import blake2b

try:
    from _operator import _compare_digest as compare_digest
except ImportError:  # pragma: no cover - other implementations
    from hmac import compare_digest  # type: ignore[no-redef,unused-ignore]

__all__ = ["blake2b", "compare_digest"]
