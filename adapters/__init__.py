"""Framework adapters (installed as ``preflight.adapters``), one module per framework."""
