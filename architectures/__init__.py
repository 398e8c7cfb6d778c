"""The built-in architecture catalog (installed as ``preflight.architectures``)."""
