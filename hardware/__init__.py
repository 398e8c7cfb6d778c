"""Hardware data: GPUs and cloud instances (installed as ``preflight.hardware``)."""
