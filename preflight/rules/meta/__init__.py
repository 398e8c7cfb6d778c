"""Meta rules: each reads preflight's own inputs in a file (its suppression comments); a
``MetaRule`` subclass."""
