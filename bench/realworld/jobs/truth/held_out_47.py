"""The forty-seventh held-out set of the jobs benchmark (run.py --set held-out-47): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name and each bare repository name was
grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and appears nowhere, but
p-diff's project, also published as NUS-HPC-AI-Lab/Neural-Network-Diffusion, appears under that name
in a bugs-benchmark case and PF561's source (found after the run; docs/realworld.md 'Set 47, first
scoring (held-out)'). Parameter counts are labelled only where a published
checkpoint's shape gives them or the repository's own layer definitions fix them exactly."""
from .core import J, T

H47="forty-seventh held-out set"

TS=("taishan1994/Llama3.1-Finetuning","c02a6d6edcde594e2634e1a1b6054b141f3a5e8d")
tss="script/fintune_lora_llama3.1_8B_Instruct.sh"
tsf="finetune_llama3.py"
tsd="config/ds_config_zero2.json"
J("llama3.1-finetuning-8b-instruct-lora-torchrun-hf-trainer-deepspeed-zero2-8gpu",*TS,["."],"script",["fintune_lora_llama3.1_8B_Instruct.sh"],{
 "model.num_parameters":T(8030261248,"--model_name_or_path ../model_hub/LLM-Research/Meta-Llama-3___1-8B-Instruct/ (model_hub/download_modelscope.py's ModelScope copy of Meta-Llama-3.1-8B-Instruct): 8.03B published",rel_tol=0.1),
 "dist.world_size":T(8,tss+":3-6 CUDA_VISIBLE_DEVICES=0..7, torchrun --nproc_per_node 8 --nnodes 1"),
 "dist.nodes":T(1,tss+":6 --nnodes 1"),
 "dist.devices_per_node":T(8,tss+":5 --nproc_per_node 8"),
 "dist.sharding":T("zero2",tss+":33 --deepspeed ../config/ds_config_zero2.json -> "+tsd+":32-33 zero_optimization stage 2"),
 "dist.offload_optimizer":T("none",tsd+":34-37 offload_optimizer device none"),
 "batch.micro":T(1,tss+":16 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(8,tss+":18 --gradient_accumulation_steps 8"),
 "batch.global":T(64,"1 x 8 x 8"),
 "data.seq_len":T(512,tss+":30 --model_max_length 512 -> "+tsf+":178-181 every sample padded and cut to max_len"),
 "precision.mode":T("fp16",tss+":13 --fp16 True -> "+tsd+":2-9 DeepSpeed fp16 'auto' enabled (weights loaded without torch_dtype, "+tsf+":346-354; DeepSpeed keeps fp16 weights with fp32 master copies)",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("AdamW",tsd+":13-21 optimizer type AdamW (DeepSpeed's, replacing "+tsf+":43 optim adamw_torch)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,tss+":31 --gradient_checkpointing True"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",tss+":34 --use_lora -> "+tsf+":393-407 peft LoraConfig on o/k/q/v_proj (an Instruct model: no modules_to_save, :368-369)",any_of=["lora"]),
 "peft.rank":T(64,tsf+":55 LoraArguments lora_r default 64 (not passed)"),
},held_out=True,note=H47+"; README.md:53-54 'enter the script folder' then the LoRA recipe; the job is script/fintune_lora_llama3.1_8B_Instruct.sh (env NCCL_P2P_DISABLE/NCCL_IB_DISABLE/CUDA_VISIBLE_DEVICES then torchrun --nproc_per_node 8 ../finetune_llama3.py with HF TrainingArguments flags, --deepspeed ../config/ds_config_zero2.json and --use_lora) (a FastChat/Qwen-style finetune.py: HfArgumentParser over model/data/training/LoRA dataclasses, a subclassed TrainingArguments with model_max_length and use_lora, a Llama-3 chat template with padding to max_len, peft LoRA r 64, transformers.Trainer under DeepSpeed ZeRO-2 whose batch fields are 'auto'; Llama-3.1-8B-Instruct LoRA on a small self-cognition JSON, LLM SFT). Related code: finetune_llama3.py says it follows FastChat's revision of tatsu-lab/stanford_alpaca's train.py (earlier sets' repositories). Not labelled: model.ref (a local ModelScope directory), data.pin_memory (the installed transformers' default)")

SO=("sotopia-lab/sotopia-rl","2ebb14ea4802c4b8cb3def40e9a0f9a0398265c5")
sos="scripts/train_sft.sh"
soa="scripts/accelerate_config_sft.yaml"
sot="sotopia_rl/sft_trainer.py"
J("sotopia-rl-qwen2.5-7b-sft-lora-accelerate-multi-gpu-hf-trainer-5proc",*SO,["."],"scripts",["train_sft.sh"],{
 "model.ref":T("Qwen/Qwen2.5-7B-Instruct",sos+":1 MODEL_PATH -> :6 --model_name -> "+sot+":71 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7615616512,"Qwen2.5-7B-Instruct: 7.62B published",rel_tol=0.1),
 "dist.world_size":T(5,soa+":11 num_processes 5 (accelerate launch --config_file, no --num_processes; CUDA_VISIBLE_DEVICES at "+sos+":2 shows seven GPUs but only five processes start)"),
 "dist.nodes":T(1,soa+":10 num_machines 1"),
 "dist.devices_per_node":T(5,soa+":11 num_processes 5 on one machine"),
 "dist.sharding":T("ddp",soa+":3 distributed_type MULTI_GPU -> Trainer DDP"),
 "batch.micro":T(2,sos+":9 --train_batch_size 2 -> "+sot+":97 per_device_train_batch_size"),
 "batch.grad_accum":T(8,sos+":11 --accumulation_steps 8 -> "+sot+":99"),
 "batch.global":T(80,"2 x 8 x 5"),
 "data.seq_len":T(4096,sos+":8 --max_length 4096 -> sotopia_rl/data.py:36-37 SFTDataset tokenizer(max_length=4096, truncation=True); padded per batch ("+sot+":22-32)"),
 "precision.mode":T("amp_bf16",sot+":107 bf16=True (and "+soa+":9 mixed_precision bf16) over fp32 weights ("+sot+":71 from_pretrained without torch_dtype)",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("adamw_torch",sot+":108 optim adamw_torch (no --use_qlora)",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,sot+":94-113 no gradient_checkpointing"),
 "data.num_workers":T(4,sot+":109 dataloader_num_workers 4"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",sos+":13 --use_lora -> "+sot+":72-80 peft LoraConfig on scripts/train_sft.py:26's default c_attn,q_proj,v_proj",any_of=["lora"]),
 "peft.rank":T(8,"scripts/train_sft.py:23 --lora_r default 8"),
},held_out=True,note=H47+"; README.md:107-147 'All training scripts should be run from the scripts/ directory' and the behaviour-cloning SFT command (CUDA_VISIBLE_DEVICES=0,...,6 accelerate launch --config_file ./accelerate_config_sft.yaml --main_process_port 29512 ./train_sft.py --model_name $MODEL_PATH --max_length 4096 --train_batch_size 2 --accumulation_steps 8 --use_lora ...), kept in the repository as scripts/train_sft.sh with MODEL_PATH=Qwen/Qwen2.5-7B-Instruct (argparse in train_sft.py, an Accelerator made before a Trainer subclass whose __init__ loads the model twice, wraps it with peft LoRA and builds TrainingArguments in code, a Jinja chat template, wandb; Qwen2.5-7B-Instruct behaviour cloning on GPT-4o self-play dialogues from the SOTOPIA social environment, LLM SFT). Not labelled: data.pin_memory (the installed transformers' default)")

LL=("yuetan1988/lawer-llm","b5c4c5e5caeb8d3fad02333e66c40b3cbb146653")
llr="app/finetune/run.sh"
llt="app/finetune/train.py"
lld="app/finetune/conf/ds_zero2_no_offload.json"
J("lawer-llm-internlm2-chat-7b-lora-deepspeed-launcher-hf-trainer-zero2-2gpu",*LL,["."],"app/finetune",["run.sh"],{
 "model.num_parameters":T(7737708544,llr+":4 model_name_or_path .../internlm2-chat-7b (a local copy of internlm/internlm2-chat-7b): 7.7B published",rel_tol=0.1),
 "dist.world_size":T(2,llr+":1 CUDA_VISIBLE_DEVICES=0,1 (a shell variable) -> :7 deepspeed --include localhost:0,1"),
 "dist.nodes":T(1,"--include localhost: one node"),
 "dist.devices_per_node":T(2,"--include localhost:0,1"),
 "dist.sharding":T("zero2",llr+":8 --deepspeed conf/ds_zero2_no_offload.json -> "+lld+":11-12 stage 2"),
 "dist.offload_optimizer":T("none",lld+":11-19 no offload_optimizer"),
 "batch.micro":T(1,llr+":17 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(16,llr+":19 --gradient_accumulation_steps 16"),
 "batch.global":T(32,"1 x 16 x 2"),
 "precision.mode":T("fp16",llr+":14 --fp16 true -> "+lld+":2-9 DeepSpeed fp16 'auto' enabled (the model weights cast to fp16 by DeepSpeed, fp32 master copies)",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("paged_adamw_32bit",llt+":46 TrainingArguments optim default paged_adamw_32bit (not passed; "+lld+" has no optimizer section, so the Trainer's optimizer is handed to DeepSpeed)",any_of=["paged_adamw_32bit","PagedAdamW32bit","PagedAdamW"]),
 "memory.gradient_checkpointing":T(False,llr+":7-25 no --gradient_checkpointing: TrainingArguments default False"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",llr+":13 --use_lora true -> "+llt+":168-194 peft LoraConfig on wqkv, wo, gate_up_proj, w2",any_of=["lora"]),
 "peft.rank":T(8,llt+":186-192 LoraConfig without r: peft default 8"),
},held_out=True,note=H47+"; docs/1_finetune.md:31-32 'cd app/finetune; sh run.sh' (a shell script that sets CUDA_VISIBLE_DEVICES, MASTER_PORT and the model path as shell variables and runs deepspeed --include localhost:$CUDA_VISIBLE_DEVICES train.py --deepspeed conf/ds_zero2_no_offload.json --use_lora true --fp16 true --model_max_length 1024 ...: an alpaca-style train.py with HfArgumentParser, a subclassed TrainingArguments whose defaults change optim and lr, datasets.map tokenisation, peft LoRA on InternLM2's fused projections, transformers.Trainer under DeepSpeed ZeRO-2; InternLM2-chat-7B LoRA on the DISC-Law-SFT legal instructions, LLM SFT). Not labelled: model.ref (a local directory), data.seq_len (--model_max_length 1024 is not applied: "+llt+":215 keeps the tokenizer's own model_max_length, and sources/targets are cut at 512 characters at :103-107), data.pin_memory (the installed transformers' default)")

DP=("taishan1994/DPO-Finetuning","6f19d2e9546fab5f68fa20c5772512f66fe7e2df")
dpa="accelerate_config/default_config.yaml"
dpy="train_config/qwen2_dpo_config.yaml"
dpf="finetune_dpo.py"
J("dpo-finetuning-qwen2-0.5b-instruct-trl-dpo-accelerate-deepspeed-8gpu",*DP,["."],".",["train.sh"],{
 "model.num_parameters":T(494032768,"train.sh:8 --model_name_or_path=./model_hub/Qwen2-0.5B-Instruct (model_hub/download_modelscope.py's copy of Qwen2-0.5B-Instruct, overriding "+dpy+":2's Yi-6B-Chat): 0.49B published",rel_tol=0.1),
 "dist.world_size":T(8,dpa+":21 num_processes 8"),
 "dist.nodes":T(1,dpa+":20 num_machines 1"),
 "dist.devices_per_node":T(8,dpa+":21 num_processes 8 on one machine"),
 "dist.sharding":T("zero2",dpa+":11 distributed_type DEEPSPEED with the deepspeed_config block commented out (:2-10): accelerate's DeepSpeedPlugin default zero_stage 2, taken up by the Trainer"),
 "dist.offload_optimizer":T("none","no offload_optimizer_device in "+dpa+" (commented out at :6): accelerate default none"),
 "batch.micro":T(1,"train.sh:9 --per_device_train_batch_size=1"),
 "batch.grad_accum":T(4,"train.sh:11 --gradient_accumulation_steps=4 (also "+dpy+":19)"),
 "batch.global":T(32,"1 x 4 x 8"),
 "data.seq_len":T(1024,"train.sh:14 --max_length=1024 (over "+dpy+":36's 4096) -> "+dpf+":260-272 DPOTrainer(max_length=1024)"),
 "precision.mode":T("bf16",dpy+":3 torch_dtype bfloat16 weights ("+dpf+":236-254), :15 bf16 true, "+dpa+":19 mixed_precision bf16: DeepSpeed bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("adamw_torch",dpy+":37 optim adamw_torch (no optimizer in the DeepSpeed plugin: the Trainer's own is handed to DeepSpeed)",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,dpy+":20 gradient_checkpointing false"),
 "model.attn_implementation":T("flash_attention_2",dpy+":4 use_flash_attention_2 true -> "+dpf+":244",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(0,"no dataloader_num_workers in "+dpy+" or train.sh: TrainingArguments default 0 (:12 preprocessing_num_workers is datasets.map's)"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none",dpy+":26 use_peft commented out: arguments.py:147-149 use_peft default False -> utils.py:19-21 get_peft_config None (full DPO training)"),
},held_out=True,note=H47+"; README.md:7-12 step 3 'sh train.sh' (CUDA_VISIBLE_DEVICES=0..7 accelerate launch --config_file accelerate_config/default_config.yaml finetune_dpo.py train_config/qwen2_dpo_config.yaml --model_name_or_path=./model_hub/Qwen2-0.5B-Instruct --per_device_train_batch_size=1 --gradient_accumulation_steps=4 --max_length=1024 --beta=0.1 --gamma=0.1 ...) (an alignment-handbook-style H4ArgumentParser that reads the YAML first and lets later flags override it, an accelerate config of type DEEPSPEED whose DeepSpeed block is commented out, TRL DPOTrainer with ref_model None so TRL builds the reference copy, chosen/rejected pairs built from CValues-Comparison; Qwen2-0.5B-Instruct DPO, LLM preference tuning). Related code: arguments.py and the script skeleton follow huggingface/alignment-handbook (an earlier set's repository); the owner's taishan1994/Llama3.1-Finetuning is another job of this set. Not labelled: model.ref (a local ModelScope directory), data.pin_memory (the installed transformers' default)")

CS=("CSCfi/pytorch-ddp-examples","4467e84197ea364e4b4629e96f78e19e3c3a5907")
csm="mnist_lightning_ddp.py"
J("cscfi-mnist-convnet-lightning-ddp-sbatch-srun-2-nodes-8gpu",*CS,["."],".",["run-lightning-gpu8.sh"],{
 "model.num_parameters":T(29034,csm+":16-26 two 5x5 convolutions (1->16, 16->32) with BatchNorm and a 1568->10 linear layer: 416+32+12832+64+15690",rel_tol=0.05),
 "dist.world_size":T(8,"run-lightning-gpu8.sh:4-5,14 two nodes x four tasks, srun python3 "+csm+" --gpus=4 --nodes=2 -> "+csm+":69-73 Trainer(devices=4, num_nodes=2)"),
 "dist.nodes":T(2,"run-lightning-gpu8.sh:4 --nodes=2 and --nodes=2 -> num_nodes"),
 "dist.devices_per_node":T(4,"run-lightning-gpu8.sh:9 --gres=gpu:v100:4 and --gpus=4 -> devices"),
 "dist.sharding":T("ddp",csm+":73 strategy='ddp'"),
 "batch.micro":T(100,csm+":61,64-65 batch_size = 100 -> DataLoader per process"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(800,"100 x 1 x 8"),
 "data.image_size":T(28,"torchvision MNIST with ToTensor only ("+csm+":62-63)"),
 "precision.mode":T("fp32",csm+":69-73 no precision: Lightning default 32"),
 "optimizer.name":T("SGD",csm+":43 torch.optim.SGD",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,csm+":65 num_workers=10"),
 "data.pin_memory":T(True,csm+":65 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H47+"; README.md:44-61 'PyTorch Lightning examples ... sbatch run-lightning-gpu8.sh' (an sbatch script for CSC's Puhti, two nodes with four tasks and four V100s each, module load pytorch, srun python3 mnist_lightning_ddp.py --gpus=4 --nodes=2 --epochs=100: argparse, a LightningModule ConvNet, a plain DataLoader, Lightning's Trainer with strategy ddp finding Slurm's environment, mlflow autolog; MNIST classification, a distributed-training tutorial). Not labelled: model.ref (an in-file model)")

RH=("Ruunyox/pytorch-hpc","c5848148837cbf8a1c5ba9c42da445bcc8475623")
rhy="examples/fit/fashion_mnist_fcc_multi_node_multi_gpu.yaml"
J("pytorch-hpc-fashion-mnist-mlp-lightning-cli-sbatch-2-nodes-8gpu",*RH,["."],"examples/fit",["cli_test_multi_node_multi_gpu.sh"],{
 "model.num_parameters":T(535818,rhy+":52-58 FullyConnectedClassifier 784 -> 512 -> 256 -> 10 (pytorch_hpc/nn/models.py:73-83): 401920+131328+2570",rel_tol=0.05),
 "dist.world_size":T(8,rhy+":9-10 trainer devices 4 x num_nodes 2 (examples/fit/cli_test_multi_node_multi_gpu.sh:7-9 two nodes, four tasks and four A100s each, srun)"),
 "dist.nodes":T(2,rhy+":10 num_nodes 2"),
 "dist.devices_per_node":T(4,rhy+":9 devices 4"),
 "dist.sharding":T("ddp","no strategy in "+rhy+": Lightning picks DDP for several devices"),
 "batch.micro":T(512,rhy+":69-70 train_dataloader_opts batch_size 512 -> pytorch_hpc/pl/pl_data.py:214-216 DataLoader(**opts)"),
 "batch.grad_accum":T(1,rhy+":38 accumulate_grad_batches 1"),
 "batch.global":T(4096,"512 x 1 x 8"),
 "data.image_size":T(28,rhy+":66,80-81 FashionMNIST with ToTensor only"),
 "precision.mode":T("fp32",rhy+":11 precision 32"),
 "optimizer.name":T("Adam",rhy+":42-45 optimizer class_path torch.optim.Adam (LightningCLI's automatic configure_optimizers)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in pytorch_hpc/"),
 "data.num_workers":T(2,rhy+":72 num_workers 2"),
 "data.pin_memory":T(False,rhy+":69-72 no pin_memory in train_dataloader_opts: DataLoader default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H47+"; README.md:20 'pythpc --config PATH_TO_YOUR_CONFIG fit'; the job is examples/fit/cli_test_multi_node_multi_gpu.sh run from examples/fit (an sbatch script, two nodes, --ntasks-per-node=4, --gres=gpu:A100:4, conda, then srun pythpc --config fashion_mnist_fcc_multi_node_multi_gpu.yaml fit --trainer.profiler=lightning.pytorch.profilers.AdvancedProfiler ...: pythpc is setup.py:29's console script for a bare LightningCLI, the YAML nests trainer/model/data/optimizer under a fit: key with class_path/init_args objects, a fully connected classifier and a torchvision data module; FashionMNIST classification, an HPC Lightning template). Not labelled: model.ref (an in-repository class)")

PD=("NUS-HPC-AI-Lab/Neural-Network-Parameter-Diffusion","481fdca03b4065281d5dd216b2ec04d47f285863")
pds="configs/system/ae_ddpm.yaml"
pdt="configs/task/cifar100.yaml"
J("p-diff-ae-ddpm-cifar100-resnet18-params-hydra-lightning-1gpu",*PD,["."],".",["train_p_diff.py","--","task=cifar100","system=ae_ddpm"],{
 "dist.world_size":T(1,pds+":59-60 trainer devices [${device.id}] = [0] (configs/base.yaml:6-9)"),
 "dist.nodes":T(1,"no num_nodes: one node"),
 "dist.devices_per_node":T(1,"devices [0]: one GPU"),
 "dist.sharding":T("none","one device, no strategy"),
 "batch.micro":T(200,"core/data/parameters.py:16-17 PData batch_size = k = "+pdt+":34 param.k 200 -> core/data/base.py:32-34 DataLoader"),
 "batch.grad_accum":T(1,"core/system/ae_ddpm.py:36-47 manual optimisation: zero_grad, manual_backward, step every batch (core/system/base.py:20 automatic_optimization False)"),
 "batch.global":T(200,"200 x 1 x 1"),
 "precision.mode":T("fp32",pds+":50-61 pytorch_lightning.Trainer without precision: default 32"),
 "optimizer.name":T("AdamW",pds+":38-41 train.optimizer torch.optim.AdamW -> core/system/ae_ddpm.py:101-111 (both the DDPM and the autoencoder optimisers)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in core/module/"),
 "data.num_workers":T(4,pdt+":35 param.num_workers 4 -> core/data/base.py:14,33-34"),
 "data.pin_memory":T(True,"core/data/base.py:34 DataLoader(pin_memory=True)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","the autoencoder and the latent DDPM trained from scratch on saved ResNet-18 parameters"),
},held_out=True,note=H47+"; README.md:50-54 'bash ./cifar100_resnet18_k200.sh', whose second step is python train_p_diff.py task=cifar100 system=ae_ddpm (the first, task_training.py, trains the ResNet-18s that produce the parameter data; the job is the second: a @hydra.main over configs/base.yaml with task/system groups, core/runner/runner.py building the system by name and a pytorch_lightning.Trainer by hydra.utils.instantiate from system.train.trainer, manual optimisation switching from the autoencoder's optimiser to the DDPM's after split_epoch 30000, a LightningDataModule over 200 saved parameter vectors; p-diff, neural network parameter diffusion generating the last BatchNorm layers of a CIFAR-100 ResNet-18, parameter generation). Not labelled: model.ref and model.num_parameters (in-repository modules built from config; counts not stated), data.image_size (the inputs are 2048-long parameter vectors)")

PE=("zhangruochi/pseudoESM","859e25ad07681fe0263a80984dcb5a81307a0f8d")
J("pseudoesm-protein-bert-base-mlm-hydra-torchrun-ddp-amp-2gpu",*PE,["."],".",["distribute_train.sh"],{
 "dist.world_size":T(2,"distribute_train.sh:1-2 CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node=2 (torchrun sets WORLD_SIZE=2 for its workers over the WORLD_SIZE=4 on the line) -> train.py:78-81"),
 "dist.nodes":T(1,"distribute_train.sh:3 --nnodes=1"),
 "dist.devices_per_node":T(2,"--nproc_per_node=2"),
 "dist.sharding":T("ddp","train.py:127-131 DistributedDataParallel (configs/train.yaml:2 mode.gpu true)"),
 "batch.micro":T(6,"configs/train.yaml:22 train.batch_size 6 -> train.py:105-116 -> loader/utils.py:114-121 DataLoader"),
 "data.seq_len":T(512,"configs/train.yaml:14 model.task.max_length 512 -> loader/utils.py:64 tokens cut to 512 (max_positions 512 at :8)"),
 "precision.mode":T("amp_fp16","configs/train.yaml:19 train.amp true -> trainer.py:133-134 GradScaler, :150-151 torch.cuda.amp.autocast()",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","train.py:50,135-137 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in esm/"),
 "data.num_workers":T(4,"configs/train.yaml:23 train.num_workers 4"),
 "data.pin_memory":T(False,"configs/train.yaml:34 train.pin_memory False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","train.py:119 ProteinBertModel trained from scratch"),
},held_out=True,note=H47+"; README.md:18-22 '## GPU Training ./distribute_train.sh' (GLOO_SOCKET_IFNAME, WORLD_SIZE=4 and CUDA_VISIBLE_DEVICES=2,3 in front of torchrun --nproc_per_node=2 --nnodes=1 train.py: a @hydra.main(config_path='configs', config_name='train.yaml') script reading RANK/WORLD_SIZE itself, DDP with find_unused_parameters, AdamW with cosine warm restarts, a hand-written Trainer with GradScaler/autocast, mlflow logging, FASTA files streamed through a ChainDataset; an ESM-1b-style protein BERT (12 layers, 768 wide) trained by masked language modelling, protein language-model pre-training). Related code: esm/ is a copy of facebookresearch/esm. Not labelled: batch.grad_accum and batch.global (configs/train.yaml:31 gradient_accumulation_steps 12, but trainer.py:159-182 only runs backward on every twelfth batch, after zero_grad, so each step uses the gradient of one 6-sample batch while eleven are forwarded and dropped: neither 12 nor 1 is an honest accumulation count), model.ref and model.num_parameters (an in-repository architecture; counts not stated)")

CT=("firechecking/CleanTransformer","598985b7dedc9f8a7088135311e68b746502f2e6")
ctf="examples/ft_bloom_deepspeed.py"
ctd="scripts/ds_config_example.json"
J("cleantransformer-bloom-396m-zh-sft-torchrun-deepspeed-zero1-cpu-offload-4gpu",*CT,["."],".",["scripts/ft_bloom_deepspeed.sh"],{
 "dist.world_size":T(4,"scripts/ft_bloom_deepspeed.sh:1-3 torchrun --nnodes 1 --nproc_per_node 4 -> "+ctf+":203-206 deepspeed.init_distributed"),
 "dist.nodes":T(1,"--nnodes 1"),
 "dist.devices_per_node":T(4,"--nproc_per_node 4"),
 "dist.sharding":T("zero1",ctd+":37-38 zero_optimization stage 1 -> "+ctf+":125-127 deepspeed.initialize(config_params=...) (--ds_stage 1 only picks the zero.Init branch)"),
 "dist.offload_optimizer":T("cpu",ctd+":39-42 offload_optimizer device cpu"),
 "batch.micro":T(8,"scripts/ft_bloom_deepspeed.sh:11 --batch_size 8 -> "+ctf+":108-113 DataLoader; "+ctd+":3 train_micro_batch_size_per_gpu 8"),
 "batch.grad_accum":T(1,ctd+":2-3 train_batch_size 32 = 8 x 4 processes: accumulation 1"),
 "batch.global":T(32,ctd+":2 train_batch_size 32"),
 "data.seq_len":T(1024,ctf+":108 build_dataloader max_length default 1024 -> :93 truncation at 1024 (padding to the longest in the batch)"),
 "precision.mode":T("bf16",ctd+":6-16 fp16 disabled, bf16 enabled (DeepSpeed bf16)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",ctd+":17-28 optimizer type AdamW (DeepSpeed's; with the CPU offload it runs as DeepSpeedCPUAdam)",any_of=["AdamW","adamw","DeepSpeedCPUAdam","cpu_adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in CleanTransformer/models/modeling_bloom.py"),
 "data.num_workers":T(0,ctf+":110-112 DataLoader without num_workers"),
 "data.pin_memory":T(False,ctf+":110-112 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of the BLOOM checkpoint ("+ctf+":215 load_model)"),
},held_out=True,note=H47+"; the job is the repository's scripts/ft_bloom_deepspeed.sh run from the root (torchrun --nnodes 1 --nproc_per_node 4 examples/ft_bloom_deepspeed.py --model_dir checkpoints/bloom-396m-zh/ --data_fn datasets/belle/train_3.5M_CN_processed.jsonl --batch_size 8 --ds_config scripts/ds_config_example.json --ds_stage 1: argparse with parse_known_args, a from-scratch BLOOM implementation loaded from a Hugging Face state dict, deepspeed.initialize from the JSON path with DeepSpeed's own AdamW and WarmupLR, a plain DataLoader that is not given to DeepSpeed and has no DistributedSampler; BLOOM-396M-zh supervised fine-tuning on BELLE 3.5M Chinese instructions, LLM SFT, a teaching repository). Not labelled: model.ref and model.num_parameters (a local checkpoint directory; the count is not stated beyond its name)")

VC=("traptinblur/VCID_2023_3rd_place_code","e43fb796a3d16ab3600eb84c02c806f0c0c55f9d")
vcc="configs/base_config.py"
vcm="seg_main_finetune.py"
J("vcid-2023-ink-detection-3d-csn-unet-distributed-launch-4gpu-amp",*VC,["."],".",["seg_main_finetune.sh"],{
 "dist.world_size":T(4,"seg_main_finetune.sh:2-3 CUDA_VISIBLE_DEVICES=0,1,2,3 python -m torch.distributed.launch --nproc_per_node=4 -> misc.py:217-220 RANK/WORLD_SIZE"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp",vcm+":340-342 SyncBatchNorm then DistributedDataParallel"),
 "batch.micro":T(4,vcc+":41 batch_size 4 (CFG attributes copied onto args at "+vcm+":446-449) -> :251-257 DataLoader per process"),
 "batch.grad_accum":T(1,vcc+":42 accum_iter 1 -> seg_engine_finetune.py:177-181"),
 "batch.global":T(16,"4 x 1 x 4 ("+vcm+":323 eff_batch_size)"),
 "data.image_size":T(384,vcc+":37 size 384 (crop size; tile_size 384 at :38)"),
 "precision.mode":T("amp_fp16","seg_engine_finetune.py:164 torch.cuda.amp.autocast() unconditionally, misc.py:242-259 GradScaler ("+vcc+":43 use_amp True)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",vcm+":331 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"resnet3d_csn.py with_cp default False and hybrid_unet2.py does not set it"),
 "data.num_workers":T(4,vcc+":60 num_workers 4 -> "+vcm+":254"),
 "data.pin_memory":T(True,vcc+":61 pin_mem True -> "+vcm+":255"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning from the ir-CSN ResNet-50 Kinetics checkpoint ("+vcm+":296-311)"),
},held_out=True,note=H47+"; README.md:99-101 'sh seg_main_finetune.sh' (an echo then CUDA_VISIBLE_DEVICES=0,1,2,3 python -m torch.distributed.launch --nproc_per_node=4 --master_port=9971 seg_main_finetune.py --config base_config --dist_eval: argparse plus a Python config class imported by name from configs/ with importlib and copied attribute by attribute onto args, a MAE-style misc.py for distributed setup and the loss scaler, a model picked from hybrid_unet2 by model_name adaptive_silu, timm ModelEmaV2, OneCycleLR; a 3D ir-CSN ResNet-50 encoder with a 2D U-Net decoder over 28 surface-volume slices, Vesuvius Challenge ink detection, segmentation). Related code: misc.py and the engine follow facebookresearch/mae's (an earlier set's repository); resnet3d_csn.py comes from open-mmlab's MMAction2. Not labelled: model.ref and model.num_parameters (an in-repository model; count printed at run time, not stated)")

MD=("VentusAislant/MyDemos","c75bd158063481934f77d25913dfbd0c430ef0b3")
mdp="my_demos/DDP_demos/DDP4_fsdp_torchrun_training.py"
mds="my_demos/DDP_demos/train4.sh"
J("mydemos-alexnet-fsdp-torchrun-standalone-nproc-gpu-2gpu",*MD,["."],"my_demos/DDP_demos",["train4.sh"],{
 "model.num_parameters":T(8949110,"my_demos/DDP_demos/alexnet.py:10-38 five convolutions (3->96 11x11, 96->256 5x5, 256->384, 384->384, 384->256 3x3) and linear 6400->800->100->10: 8,949,110",rel_tol=0.05),
 "dist.world_size":T(2,mds+":1 export CUDA_VISIBLE_DEVICES=1,4 -> :6 torchrun --standalone --nproc_per_node=gpu (one process per visible GPU: 2)"),
 "dist.nodes":T(1,mds+":6 --standalone"),
 "dist.devices_per_node":T(2,"--nproc_per_node=gpu over two visible GPUs"),
 "dist.sharding":T("fsdp_grad_op",mds+":13 --sharding_strategy zero3 -> "+mdp+":160-166 get_sharding_strategy maps 'zero3' to ShardingStrategy.SHARD_GRAD_OP (as it does 'zero2') -> :70-76 FSDP(sharding_strategy=...)"),
 "batch.micro":T(128,mds+":7 --batch_size 128 -> "+mdp+":188-195 DataLoader with a DistributedSampler"),
 "batch.grad_accum":T(1,mdp+":87-93 zero_grad, backward, step every batch"),
 "batch.global":T(256,"128 x 1 x 2"),
 "precision.mode":T("fp32",mds+":14 --mixed_precision fp32 -> "+mdp+":169-175 fp32_policy (my_demos/DDP_demos/policies.py:29-33 float32 params, reduce and buffers)"),
 "optimizer.name":T("Adam",mdp+":183 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(2,mdp+":194 num_workers=2"),
 "data.pin_memory":T(True,mdp+":191 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","AlexNet trained from scratch"),
},held_out=True,note=H47+"; the job is my_demos/DDP_demos/train4.sh run from its folder (export CUDA_VISIBLE_DEVICES=1,4 and NCCL_P2P_DISABLE=1, then torchrun --standalone --nproc_per_node=gpu DDP4_fsdp_torchrun_training.py --batch_size 128 --lr 1e-3 --sharding_strategy zero3 --mixed_precision fp32 ...: the fourth of five DDP/FSDP tutorial scripts, argparse, a Trainer class wrapping the model in FSDP with a 100M-parameter size-based auto-wrap policy (nothing reaches it, so one root unit) and a MixedPrecision policy chosen by name, the optimiser built over the unwrapped model's parameters after wrapping, snapshot saving; a modified AlexNet classifier with ten classes, a distributed-training demo). Not labelled: model.ref (an in-repository class), data.image_size (the data comes from load_dataset() at "+mdp+":185, imported from a 'datasets' module the repository does not contain)")

KR=("KevinRojas1499/Sampling-Mixed-Gaussian","f1641668d96688b87b231fd784d2e3133b74f4ff")
krt="diffusion/train.py"
kra="diffusion/configs/accelerate_configs/default_config.yaml"
J("sampling-mixed-gaussian-ddpm-unet-flowers64-accelerate-launch-config-8gpu",*KR,["."],"diffusion",["vanilla_launch.sh"],{
 "dist.world_size":T(8,"diffusion/vanilla_launch.sh:1 accelerate launch --config_file configs/accelerate_configs/default_config.yaml -> "+kra+":11 num_processes 8"),
 "dist.nodes":T(1,kra+":10 num_machines 1"),
 "dist.devices_per_node":T(8,kra+":11 num_processes 8 on one machine"),
 "dist.sharding":T("ddp",kra+":3 distributed_type MULTI_GPU -> "+krt+":311-312 accelerator.prepare"),
 "batch.micro":T(8,"diffusion/vanilla_launch.sh:3 --train_batch_size=8 -> "+krt+":300-302 DataLoader per process"),
 "batch.grad_accum":T(1,"diffusion/vanilla_launch.sh:3 --gradient_accumulation_steps=1 -> "+krt+":232-237 Accelerator"),
 "batch.global":T(64,"8 x 1 x 8"),
 "data.image_size":T(64,"diffusion/vanilla_launch.sh:4 --model_config_path configs/model_configs/original_config.yaml -> diffusion/configs/model_configs/original_config.yaml:1 sample_size 64 -> "+krt+":251,275-276 Resize/CenterCrop(64)"),
 "precision.mode":T("fp32","diffusion/vanilla_launch.sh:4 --mixed_precision=no (and "+kra+":9 'no') -> "+krt+":232-237 Accelerator(mixed_precision='no')"),
 "optimizer.name":T("AdamW",krt+":265-271 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"diffusion/models/block.py:290 gradient_checkpointing False and never enabled"),
 "data.num_workers":T(0,krt+":111-114 --dataloader_num_workers default 0 (not passed)"),
 "data.pin_memory":T(False,krt+":300-302 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","the UNet trained from scratch ("+krt+":239-240 UNet2DModel(**config))"),
},held_out=True,note=H47+"; the job is diffusion/vanilla_launch.sh run from diffusion/ (accelerate launch --config_file configs/accelerate_configs/default_config.yaml train.py --dataset_name=huggan/flowers-102-categories --train_batch_size=8 --num_epochs=100 --gradient_accumulation_steps=1 --mixed_precision=no --model_config_path configs/model_configs/original_config.yaml: diffusers' unconditional image-generation example script with its UNet2DModel import swapped for an in-repository UNet2DModel (models/hf_fno_unet.py) built from a YAML of block types, a DDPMScheduler, EMA, an accelerate config of eight processes; DDPM on Oxford Flowers 64x64, unconditional image generation). Related code: train.py is huggingface/diffusers' examples/unconditional_image_generation/train_unconditional.py (diffusers is an earlier set's repository). Not labelled: model.ref and model.num_parameters (an in-repository model built from a YAML; count not stated)")
