"""PF167 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # transformers issue 20327: a 9-label NER checkpoint loaded for 5 labels
    textwrap.dedent("""
    from transformers import AutoModelForTokenClassification

    checkpoint = "malduwais/distilbert-base-uncased-finetuned-ner"
    label_list = ["O", "B-DRUG", "I-DRUG", "B-DOSE", "I-DOSE"]
    model = AutoModelForTokenClassification.from_pretrained(checkpoint, num_labels=len(label_list))  # error: PF167
"""),
    # transformers issue 15876: an ImageNet-1k ConvNext loaded for two classes
    textwrap.dedent("""
    from transformers import ConvNextForImageClassification

    id2label = {0: "doggie", 1: "cat"}
    model = ConvNextForImageClassification.from_pretrained(  # error: PF167
        "facebook/convnext-tiny-224", num_labels=2, id2label=id2label,
        label2id={v: k for k, v in id2label.items()})
"""),
    # an SST-2 classifier asked for three classes, ignore_mismatched_sizes=False spelled out
    textwrap.dedent("""
    import transformers

    model = transformers.AutoModelForSequenceClassification.from_pretrained(  # error: PF167
        "distilbert-base-uncased-finetuned-sst-2-english", num_labels=3, ignore_mismatched_sizes=False)
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    from transformers import AutoModelForTokenClassification

    model = AutoModelForTokenClassification.from_pretrained(
        "malduwais/distilbert-base-uncased-finetuned-ner", num_labels=5, ignore_mismatched_sizes=True)
"""),
    # tricky-correct: the head's own size; the in21k ViT has no fine-tuned head
    textwrap.dedent("""
    from transformers import AutoModelForImageClassification, AutoModelForSequenceClassification

    nli = AutoModelForSequenceClassification.from_pretrained("roberta-large-mnli", num_labels=3)
    vit = AutoModelForImageClassification.from_pretrained("google/vit-base-patch16-224-in21k", num_labels=10)
    base = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=7)
"""),
    # tricky-correct: XLM-R's CoNLL-2003 taggers carry 8 IOB1 labels (no B-PER), not the BIO 9
    textwrap.dedent("""
    from transformers import AutoModelForTokenClassification

    model = AutoModelForTokenClassification.from_pretrained("xlm-roberta-large-finetuned-conll03-english", num_labels=8)
"""),
    # the label count is not known statically, or the checkpoint comes from the command line
    textwrap.dedent("""
    from transformers import AutoModelForImageClassification

    labels = dataset["train"].features["label"].names
    model = AutoModelForImageClassification.from_pretrained("google/vit-base-patch16-224", num_labels=len(labels))
    other = AutoModelForImageClassification.from_pretrained(args.model, num_labels=2)
"""),
]
