"""PF689 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# a LoRA fine-tune under an accelerate config written on a four-GPU machine (ChatGLM-finetune-LoRA
# issue 16's shape)
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16")
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- config/default_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    machine_rank: 0
    mixed_precision: bf16
    {extra}num_processes: {procs}{pin}
    num_machines: {machines}
    use_cpu: false
    # --- launch
    {launch}
    """)

_LAUNCH = "CUDA_VISIBLE_DEVICES=0,1 accelerate launch --config_file config/default_config.yaml train.py"

# one node's config of a two-node job (accelerate issue 3894: an 8-GPU and a 2-GPU node; accelerate issue 218:
# num_processes answered per node in the questionnaire)
_NODES = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- node1.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    gpu_ids: {gpu_ids}
    machine_rank: 1
    main_process_ip: 10.0.0.11
    main_process_port: 29500
    mixed_precision: bf16
    num_machines: 2
    num_processes: {procs}{pin}
    rdzv_backend: static
    same_network: true
    # --- launch_node.sh
    #!/bin/bash
    {comment}
    accelerate launch --config_file node1.yaml {flags}train.py
    # --- launch
    accelerate launch --config_file node1.yaml {flags}train.py
    """)

# the counts on the launch line (a per-node launch script of a two-node job)
_FLAGS = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(){pin}
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- run_node.sh
    #!/bin/bash
    # 2 nodes, 8 x A100 each
    accelerate launch --multi_gpu --num_machines 2 --num_processes {procs} --machine_rank $NODE_RANK \\
      --main_process_ip 10.0.0.11 train.py
    # --- launch
    accelerate launch --multi_gpu --num_machines 2 --num_processes {procs} --machine_rank 0 --main_process_ip 10.0.0.11 train.py
    """)

# accelerate's examples/slurm/submit_multinode.sh shape: the GPUs of a node are the #SBATCH request
_SLURM = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(){pin}
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- submit_multinode.sh
    #!/bin/bash
    #SBATCH --nodes=4
    #SBATCH --ntasks-per-node=1
    #SBATCH --gres=gpu:4
    export GPUS_PER_NODE=4
    srun accelerate launch --num_processes {procs} --num_machines $SLURM_NNODES --rdzv_backend c10d train.py
    # --- launch
    srun accelerate launch --num_processes {procs} --num_machines 4 --rdzv_backend c10d train.py
    """)

# the questionnaire's single-process answer on a two-GPU machine (huggingface/community-events pull 6: "num_processes:
# 1 -> so it's using only one GPU because that's what you asked for")
_SOLO = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    model = {model}
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: '{dtype}'
    {extra}machine_rank: 0
    mixed_precision: 'no'
    num_machines: 1
    num_processes: {procs}{pin}
    use_cpu: false
    # --- launch
    CUDA_VISIBLE_DEVICES={devices} accelerate launch --config_file accelerate_config.yaml train.py
    """)
_PLAIN = 'AutoModelForCausalLM.from_pretrained("gpt2")'

PF689_BAD = [
    # the GPUs of one node given as the total: one process on each 4-GPU node
    _SLURM.format(procs=4, pin="  # warning: PF689"),
    _FLAGS.format(procs=8, pin="  # warning: PF689"),
    # 10 // 2 = 5 processes on a node with two GPUs
    _NODES.format(gpu_ids="0,1", procs=10, pin="  # error: PF689", comment="# node 1 of 2", flags=""),
    # the per-node count written as the total: two processes on each four-GPU node
    _NODES.format(gpu_ids="0,1,2,3", procs=4, pin="  # warning: PF689", comment="# node 1 of 2", flags=""),
    # the same, the GPUs of a node said in the launch script's comment
    _NODES.format(gpu_ids="all", procs=4, pin="  # warning: PF689", comment="# two nodes, 4 x A100 each",
                  flags=""),
    _NODES.format(gpu_ids="all", procs=16, pin="  # error: PF689", comment="# 2 nodes, 4x H100 per node",
                  flags=""),
    # the questionnaire answered with one process for two machines: 1 // 2 = 0 per node (accelerate issue 2818)
    _NODES.format(gpu_ids="all", procs=1, pin="  # error: PF689", comment="# node 1 of 2", flags=""),
    # an odd total over two machines: 7 // 2 = 3 per node, 6 processes in all (open-r1 issue 353)
    _NODES.format(gpu_ids="all", procs=7, pin="  # warning: PF689", comment="# node 1 of 2", flags=""),
    _JOB.format(extra="", procs=4, pin="  # error: PF689", machines=1, launch=_LAUNCH),
    _JOB.format(extra="", procs=2, pin="  # error: PF689", machines=1,
                launch="CUDA_VISIBLE_DEVICES=3 accelerate launch --config_file config/default_config.yaml train.py"),
    # one process while two GPUs are visible: the second idles (community-events pull 6)
    _SOLO.format(model=_PLAIN, dtype="NO", extra="", procs=1, pin="  # warning: PF689", devices="0,1"),
    _SOLO.format(model=_PLAIN, dtype="MULTI_GPU", extra="", procs=1, pin="  # warning: PF689", devices="0,1,2,3"),
]

PF689_GOOD = [
    # the fix
    _JOB.format(extra="", procs=2, pin="", machines=1, launch=_LAUNCH),
    # tricky: the launch line's count wins over the file (PF230's ground)
    _JOB.format(extra="", procs=4, pin="", machines=1,
                launch="CUDA_VISIBLE_DEVICES=0,1 accelerate launch --config_file config/default_config.yaml "
                       "--num_processes 2 train.py"),
    # tricky: two machines, four processes in all, two per machine
    _JOB.format(extra="", procs=4, pin="", machines=2, launch=_LAUNCH),
    # tricky: the config chooses the devices itself
    _JOB.format(extra="gpu_ids: 0,1,2,3\n", procs=4, pin="", machines=1, launch=_LAUNCH),
    # the multi-node fixes: every GPU of every node
    _SLURM.format(procs=16, pin=""),
    _FLAGS.format(procs=16, pin=""),
    _NODES.format(gpu_ids="0,1", procs=4, pin="", comment="# node 1 of 2", flags=""),
    _NODES.format(gpu_ids="0,1,2,3", procs=8, pin="", comment="# node 1 of 2", flags=""),
    _NODES.format(gpu_ids="all", procs=8, pin="", comment="# two nodes, 4 x A100 each", flags=""),
    # tricky: the launch line gives the count itself (it wins over the file)
    _NODES.format(gpu_ids="0,1,2,3", procs=4, pin="", comment="# node 1 of 2", flags="--num_processes 8 "),
    # tricky: a comment whose count may be the total (no "each"/"per node"), or no GPU count at all
    _NODES.format(gpu_ids="all", procs=4, pin="", comment="# 4 x A100", flags=""),
    _NODES.format(gpu_ids="all", procs=4, pin="", comment="# node 1 of 2", flags=""),
    _NODES.format(gpu_ids="all", procs=16, pin="", comment="# node 1 of 2", flags=""),
    # tricky: the devices are a variable, known only at launch
    _JOB.format(extra="", procs=4, pin="", machines=1,
                launch="CUDA_VISIBLE_DEVICES=$GPUS accelerate launch --config_file config/default_config.yaml "
                       "train.py"),
    # the fix of community-events pull 6
    _SOLO.format(model=_PLAIN, dtype="MULTI_GPU", extra="", procs=2, pin="", devices="0,1"),
    # tricky: one process that spreads the model over both GPUs itself (big-model inference / naive model parallel)
    _SOLO.format(model='AutoModelForCausalLM.from_pretrained("gpt2-xl", device_map="auto")', dtype="NO", extra="",
                 procs=1, pin="", devices="0,1"),
    _SOLO.format(model='torch.nn.DataParallel(AutoModelForCausalLM.from_pretrained("gpt2"))', dtype="NO",
                 extra="", procs=1, pin="", devices="0,1"),
    # tricky: one process pinned to one GPU by the config, or one GPU visible
    _SOLO.format(model=_PLAIN, dtype="NO", extra="gpu_ids: '0'\n", procs=1, pin="", devices="0,1"),
    _SOLO.format(model=_PLAIN, dtype="NO", extra="", procs=1, pin="", devices="1"),
]
