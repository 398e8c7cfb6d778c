"""Code rules: each reads one Python file (``check`` and ``audit``); a ``Rule`` subclass."""
