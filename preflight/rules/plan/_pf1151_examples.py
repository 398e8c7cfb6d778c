"""PF1151 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_DATA = dedent("""
    # --- cifar_variant.py
    import os

    from torch.utils.data import Dataset

    CLASSES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]


    class CifarVariant(Dataset):
        CLASS_TO_ID = {ids}

        def __init__(self, root):
            self.items = [(os.path.join(root, c, f), self.CLASS_TO_ID[c]) for c in CLASSES
                          for f in os.listdir(os.path.join(root, c))]

        def __len__(self):
            return len(self.items)

        def __getitem__(self, i):
            return self.items[i]
    # --- train.py
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader
    from torchvision.models import resnet18

    from cifar_variant import CLASSES, CifarVariant

    model = {head}.cuda()
    loader = DataLoader(CifarVariant("data/train"), batch_size=128, shuffle=True)
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        loss = criterion(model(images.cuda()), labels.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
    # --- launch
    python train.py
    """)

BAD_EXAMPLES = [
    # pytorch issue 15666: CIFAR-10 classes numbered 1..10, a ten-way resnet18 head
    _DATA.format(ids="{name: i for i, name in enumerate(CLASSES, start=1)}  # error: PF1151",
                 head="resnet18(num_classes=len(CLASSES))"),
    # the same with a hand-built head and the start given positionally over a sorted list
    _DATA.format(ids="{name: i for i, name in enumerate(sorted(CLASSES), 1)}  # error: PF1151",
                 head="nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, len(CLASSES)))"),
    # a Transformers classifier sized with num_labels (it computes cross-entropy itself)
    dedent("""
    # --- train.py
    from transformers import AutoModelForSequenceClassification

    LABELS = ["negative", "neutral", "positive"]
    label2id = {label: i for i, label in enumerate(LABELS, start=1)}  # error: PF1151
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=len(LABELS))
    # --- launch
    python train.py
    """),
]

GOOD_EXAMPLES = [
    # the fix: ids from 0
    _DATA.format(ids="{name: i for i, name in enumerate(CLASSES)}", head="resnet18(num_classes=len(CLASSES))"),
    # tricky-correct: id 0 kept for a background class, and the head has one output more
    _DATA.format(ids="{name: i for i, name in enumerate(CLASSES, start=1)}",
                 head="resnet18(num_classes=len(CLASSES) + 1)"),
    # tricky-correct: a detector, where torchvision keeps id 0 for the background
    dedent("""
    # --- train.py
    import torch
    from torchvision.models.detection import fasterrcnn_resnet50_fpn
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor

    CLASSES = ["car", "truck", "bus", "person"]
    CLASS_IDS = {name: i for i, name in enumerate(CLASSES, start=1)}
    model = fasterrcnn_resnet50_fpn(weights="DEFAULT")
    model.roi_heads.box_predictor = FastRCNNPredictor(1024, num_classes=len(CLASSES))
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9)
    # --- launch
    python train.py
    """),
    # tricky-correct: 1-based COCO category ids written to an annotation file, no classification loss
    dedent("""
    # --- export_coco.py
    import json

    CLASSES = ["cat", "dog"]
    CATEGORY_IDS = {name: i for i, name in enumerate(CLASSES, start=1)}
    categories = [{"id": i, "name": n} for n, i in CATEGORY_IDS.items()]
    summary = {"categories": categories, "num_classes": len(CLASSES)}
    with open("annotations.json", "w") as f:
        json.dump(summary, f)
    # --- launch
    python export_coco.py
    """),
    # 1-based numbering of something else (line numbers), the head sized from the class list
    _DATA.format(ids="{name: i for i, name in enumerate(CLASSES)}\n    LINE_NO = {line: n for n, line in "
                     "enumerate(open('data/notes.txt'), start=1)}",
                 head="resnet18(num_classes=len(CLASSES))"),
    # tricky-correct: two unrelated local `labels` lists, one numbered from 1 for a report, one sizing the head
    dedent("""
    # --- train.py
    import json

    import torch.nn as nn


    def write_report(labels):
        rows = {label: i for i, label in enumerate(labels, start=1)}
        with open("report.json", "w") as f:
            json.dump(rows, f)


    def build_head(hidden, labels):
        return nn.Linear(hidden, len(labels))


    criterion = nn.CrossEntropyLoss()
    # --- launch
    python train.py
    """),
]
