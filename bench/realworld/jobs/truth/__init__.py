"""The expert truth of the real-jobs benchmark, one module per set; labels.py imports them in
order and writes manifest.json."""
