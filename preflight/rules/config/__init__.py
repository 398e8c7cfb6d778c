"""Config rules: each reads one config file against the schema of the framework that reads
it (``audit`` and ``validate``); a ``ConfigRule`` subclass."""
