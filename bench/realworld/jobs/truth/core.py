"""The shared part of the jobs benchmark's truth (labels.py imports it first): T, one labelled
field; J, one job, appended to ``jobs`` in the order labels.py imports the set modules; and the
repository pins that more than one set uses (DeepSpeedExamples, alignment-handbook, axolotl,
gpt-neox, litgpt: the dev/first held-out jobs and the second held-out set)."""
DSE=("microsoft/DeepSpeedExamples","83757d9c937daabd1089a08051061706cb73900d")
HB=("huggingface/alignment-handbook","925acdfe4b2b4e38c3dabd1851bc418f0b656351")
AX=("axolotl-ai-cloud/axolotl","067b021c8b87a9e5e380b9173c704cf7340e30f5")
NX=("EleutherAI/gpt-neox","ea7aefd8f8e183256992d9fede4d7c71a46d67a5")
LG=("Lightning-AI/litgpt","26857050fe3ff627cd714fe92f5838f51a3d5efa")
def T(v,why,**kw):
    d = {"value": v, "why": why}
    d.update(kw)
    return d
ANYTRAIN=dict(any_of=["train","finetune"])
jobs=[]
def J(id,repo,commit,paths,cwd,invocation,truth,held_out=False,note=""):
    jobs.append({"id":id,"repo":repo,"commit":commit,"paths":paths,"cwd":cwd,"invocation":invocation,
                 "held_out":held_out,"note":note,"truth":truth})
