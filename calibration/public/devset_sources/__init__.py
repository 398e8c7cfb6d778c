"""The public dev set's rows, transcribed by hand, one module per source document; build_devset.py
imports them in order and writes devset.json."""
