"""The twenty-ninth held-out set of the jobs benchmark (run.py --set held-out-29): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H29="twenty-ninth held-out set"
MA=("kbressem/medAlpaca","63448c57967359ee04e6408ae418418ba0ac9f3a")
mas="example-train-medalpaca.sh"
mat="medalpaca/train.py"
J("medalpaca-llama-7b-fsdp-fire-sbatch-torchrun-8gpu",*MA,["."],".",[mas],{
 "model.ref":T("decapoda-research/llama-7b-hf",mas+":24 --model -> "+mat+":134,171 LlamaForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(8,mas+":23 torchrun --nproc_per_node=8 (:5 #SBATCH --gres=gpu:8)"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",mat+":57 fsdp default 'full_shard auto_wrap', kept because ddp and not use_lora (:138-143; "+mas+":28 --use_lora False) -> :248 TrainingArguments(fsdp=...)"),
 "batch.micro":T(4,mas+":34 --per_device_batch_size 4 -> "+mat+":226"),
 "batch.grad_accum":T(8,mas+":33 --global_batch_size 256 -> "+mat+":137 256 // 4 = 64, :140 // world size 8 = 8"),
 "batch.global":T(256,"4 x 8 x 8"),
 "data.seq_len":T(256,mat+":30 model_max_length default 256 (not given) -> medalpaca/handler.py:77-78 truncation to 256"),
 "data.padding":T("dynamic",mat+":258-259 DataCollatorForSeq2Seq(padding=True, pad_to_multiple_of=8)"),
 "optimizer.name":T("AdamW",mat+":51 optim default 'adamw_torch'",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,mas+":32 --gradient_checkpointing True -> "+mat+":227"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "peft.method":T("none",mas+":28 --use_lora False -> "+mat+":181 no get_peft_model"),
 "precision.weights_bits":T(16,mat+":174 torch_dtype float16 because bf16 is True (any([use_lora, bf16])); "+mas+":27 --train_in_8bit False"),
},held_out=True,note=H29+"; bash "+mas+" (the repository's example SLURM script: #SBATCH directives for 8 GPUs, conda activation, then torchrun --nproc_per_node=8 medalpaca/train.py --model 'decapoda-research/llama-7b-hf' ... --train_in_8bit False --use_lora False --bf16 True --fp16 False --gradient_checkpointing True --global_batch_size 256 --per_device_batch_size 4; fire.Fire(main) with keyword defaults, FSDP switched on by a default string when distributed and not LoRA, accumulation computed from the global batch and the world size; full fine-tuning of LLaMA-7B on medical flashcards). Not labelled: precision.mode (weights loaded in float16 by "+mat+":174 under Trainer bf16=True with FSDP: an unusual mix), compile.enabled ("+mat+":275-276 torch.compile when the string torch.__version__ >= '2', torch unpinned)")
MV=("Meituan-AutoML/MobileVLM","688fdec914810485c8766da96c63d9d2ce15f750")
mvt="mobilevlm/train/train.py"
mvd="scripts/deepspeed/zero2.json"
J("mobilevlm-v2-1.7b-pretrain-zero2-deepspeed-run-sh-positional",*MV,["."],".",["run.sh","--","mobilevlm_v2_1.7b","pretrain","mtgv/MobileLLaMA-1.4B-Chat","openai/clip-vit-large-patch14-336","outputs"],{
 "model.ref":T("mtgv/MobileLLaMA-1.4B-Chat","run.sh:22 LANGUAGE_MODEL=$3 -> :29 --model_name_or_path -> "+mvt+":767 MobileLlamaForCausalLM.from_pretrained"),
 "model.num_parameters":T(1700000000,"MobileLLaMA-1.4B (24 layers, hidden 2048, intermediate 5632, vocab 32000: 1.36B) + CLIP ViT-L/14-336 vision tower (0.30B) + LDPv2 projector: the 1.7B the architecture name mobilevlm_v2_1.7b states",rel_tol=0.15),
 "dist.nodes":T(1,"run.sh:27 deepspeed without a hostfile: one node"),
 "dist.sharding":T("zero2","run.sh:28 --deepspeed "+mvd+" -> "+mvd+":17 stage 2"),
 "dist.offload_optimizer":T("none",mvd+":16-22 no offload_optimizer"),
 "dist.overlap_comm":T(False,mvd+":18"),
 "dist.contiguous_gradients":T(True,mvd+":19"),
 "dist.reduce_bucket_size":T(4194304,mvd+":21 'auto' -> the HF Trainer fills hidden_size x hidden_size = 2048 x 2048"),
 "batch.micro":T(32,"run.sh:43 --per_device_train_batch_size 32"),
 "batch.grad_accum":T(1,"run.sh:45 --gradient_accumulation_steps 1"),
 "data.seq_len":T(2048,"run.sh:56 --model_max_length 2048 -> "+mvt+":704-705 batches cut to 2048"),
 "data.padding":T("dynamic",mvt+":697-703 pad_sequence to the longest sample of the batch"),
 "precision.mode":T("bf16","run.sh:40 --bf16 True with "+mvd+":10-12 bf16 enabled 'auto': DeepSpeed bf16, 16-bit weights with fp32 master copies"),
 "optimizer.name":T("AdamW",mvt+":55 optim default 'adamw_torch' ("+mvd+" has no optimizer section)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,"run.sh:57 --gradient_checkpointing True"),
 "data.num_workers":T(4,"run.sh:58 --dataloader_num_workers 4"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none",mvt+":78 lora_enable default False (not given)"),
},held_out=True,note=H29+"; bash run.sh mobilevlm_v2_1.7b pretrain mtgv/MobileLLaMA-1.4B-Chat openai/clip-vit-large-patch14-336 outputs (README.md:296-299 runs run.sh with the architecture, a task and the language and vision models as positional arguments; this is its pretrain branch with the README's models as Hub ids: a case statement on $2, deepspeed mobilevlm/train/train_mem.py --deepspeed scripts/deepspeed/zero2.json ... piped to tee; a LLaVA-style HfArgumentParser with a TrainingArguments subclass, a flash-attention monkey patch before importing transformers; vision-language pre-training of MobileVLM V2 1.7B). Not labelled: world size and devices per node (deepspeed without --num_gpus: every visible GPU, a property of the machine), attention implementation (a monkey patch of LLaMA attention, mobilevlm/train/llama_flash_attn.py)")
VL=("VectorInstitute/vectorlm","9045f08ac1af38c13100cfabdd17412f57dbffd2")
vlc="configs/config.yaml"
vll="examples/launch.sh"
vlm="vectorlm/utils/model_utils.py"
J("vectorlm-llama-2-7b-chat-fsdp-yaml-sbatch-torchrun-4gpu",*VL,["."],"examples",["launch.sh"],{
 "model.ref":T("/model-weights/Llama-2-7b-chat-hf/",vlc+":1 model (a local copy of Llama-2-7b-chat-hf) -> examples/llama_example.py:74 -> "+vlm+":118-121 AutoModelForCausalLM.from_pretrained",any_of=["/model-weights/Llama-2-7b-chat-hf/","/model-weights/Llama-2-7b-chat-hf","meta-llama/Llama-2-7b-chat-hf"]),
 "model.num_parameters":T(6740000000,"Llama-2-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(4,vll+":26 torchrun --nnodes=1 --nproc-per-node=${SLURM_GPUS_ON_NODE} with :7 #SBATCH --gres=gpu:4"),
 "dist.nodes":T(1,vll+":3 #SBATCH --nodes=1, :26 --nnodes=1"),
 "dist.devices_per_node":T(4,vll+":7 --gres=gpu:4"),
 "dist.sharding":T("fsdp_full",vlc+":15 sharding_strategy FULL_SHARD -> "+vlm+":201-205 ShardingStrategy.FULL_SHARD"),
 "batch.micro":T(8,vlc+":56 train_bs 8 -> vectorlm/dataset.py:124-127 DataLoader"),
 "batch.grad_accum":T(4,vlc+":35 gradient_accumulation_steps 4 -> vectorlm/trainer.py:71"),
 "batch.global":T(128,"8 x 4 x 4"),
 "data.seq_len":T(4096,vlc+":10 max_seq_len 4096 -> "+vlm+":134-135 tokenizer.model_max_length -> vectorlm/utils/data_utils.py:110-115 samples cut to 4096"),
 "data.padding":T("dynamic","vectorlm/utils/data_utils.py:126-129 pad_sequence to the longest sample of the batch"),
 "precision.mode":T("bf16",vlc+":18 use_mp True -> "+vlm+":110-111 weights loaded in bfloat16 and :211-216 FSDP MixedPrecision all bfloat16: pure bf16, no fp32 master copies"),
 "optimizer.name":T("AdamW","examples/llama_example.py:11,133 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,vlc+":19 use_activation_checkpointing True -> "+vlm+":11-13 apply_activation_checkpointing"),
 "model.attn_implementation":T("flash_attention_2",vlc+":20 use_flash_attention True -> "+vlm+":115-116"),
 "data.num_workers":T(0,"vectorlm/dataset.py:124-130 DataLoader without num_workers"),
 "data.pin_memory":T(False,"vectorlm/dataset.py:124-130 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",vlc+":23-30 lora_peft_config commented out"),
},held_out=True,note=H29+"; cd examples && sbatch launch.sh (README.md:62: #SBATCH directives for one node with 4 GPUs, exports, then torchrun --nnodes=1 --nproc-per-node=${SLURM_GPUS_ON_NODE} llama_example.py --yaml_path ../configs/config.yaml; argparse naming one YAML read into a Config object, FSDP with a mixed-precision policy, activation checkpointing and a hand-written trainer loop; dense fine-tuning of Llama-2-7B-chat on a pre-packed dataset)")
PM=("chaoyi-wu/PMC-LLaMA","54fc0d4d3ad91b418fc4e03904aaeb764f4cafcb")
pms="Pretrain/training.sh"
pmt="Pretrain/training.py"
pmd="Pretrain/Dataset/Paper_dataset.py"
J("pmc-llama-continued-pretraining-fsdp-hfargparser-torchrun-8gpu",*PM,["Pretrain","README.md"],"Pretrain",["training.sh"],{
 "dist.world_size":T(8,pms+":1 torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",pms+":19 --fsdp 'full_shard auto_wrap'"),
 "batch.micro":T(4,pms+":7 --per_device_train_batch_size 4"),
 "batch.grad_accum":T(4,pms+":9 --gradient_accumulation_steps 4"),
 "batch.global":T(128,"4 x 4 x 8"),
 "data.seq_len":T(512,pmt+":62 PaperDataset(...) without seq_length -> "+pmd+":39 seq_length default 512 -> :64-73 windows of 512 tokens"),
 "data.padding":T("max_length",pmd+":64-65 papers shorter than 512 tokens padded to 512"),
 "precision.mode":T("amp_bf16",pms+":4 --bf16 True over a model loaded in fp32 ("+pmt+":67-70 no torch_dtype): the Trainer's FSDP mixed precision, bf16 compute over fp32 params"),
 "optimizer.name":T("AdamW",pmt+":53 optim default 'adamw_torch'",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none",pmt+":67-76 the model goes to the Trainer as loaded (is_lora, :39, is never read)"),
},held_out=True,note=H29+"; cd Pretrain && bash training.sh (README.md:114 'The script for pretraining locates at Pretrain/training.sh': torchrun --nproc_per_node=8 training.py --model_path /Path/to/LLaMA/Model --Dataset_path ... --bf16 True --per_device_train_batch_size 4 --gradient_accumulation_steps 4 --fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap 'LlamaDecoderLayer' --tf32 True; HfArgumentParser over three dataclasses with a TrainingArguments subclass, a Dataset drawing random 512-token windows from pre-tokenized .npy papers; continued pre-training of LLaMA on PubMed Central papers, medical). Not labelled: model.ref and model.num_parameters (--model_path /Path/to/LLaMA/Model, a placeholder; the output folder says Paper_7B, the paper trains 7B and 13B)")
ML=("zphang/minimal-llama","22a6bd949ff6fa98620d117177f90251aa168a21")
J("minimal-llama-7b-int8-lora-hfargparser-trainer-1gpu",*ML,["."],".",["finetune_peft.py","--","--model_path","/path/to/llama-7b/","--dataset_path","/path/to/tokenized_dataset",
 "--peft_mode","lora","--lora_rank","8","--per_device_train_batch_size","2","--gradient_accumulation_steps","1","--max_steps","2500","--learning_rate","2e-4","--fp16","--logging_steps","10","--output_dir","/path/to/save"],{
 "model.num_parameters":T(6740000000,"README.md:38 --model_path /path/to/llama-7b/ (LLaMA-7B: 32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(1,"plain python: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","finetune_peft.py:146-150 device_map='auto' places the 8-bit model, no data parallelism"),
 "batch.micro":T(2,"--per_device_train_batch_size 2"),
 "batch.grad_accum":T(1,"--gradient_accumulation_steps 1"),
 "batch.global":T(2,"2 x 1 x 1"),
 "data.seq_len":T(512,"README.md:19-25 the dataset tokenized by tokenize_dataset.py --max_seq_length 512 into 512-token chunks (README.md:51 'with max_seq_length=512') -> finetune_peft.py:117-123 stacked as is"),
 "precision.mode":T("amp_fp16","--fp16: TrainingArguments fp16 autocast + GradScaler over the LoRA weights of an int8 base"),
 "precision.weights_bits":T(8,"finetune_peft.py:148 load_in_8bit=True"),
 "precision.quant_type":T("int8","finetune_peft.py:148 load_in_8bit=True (bitsandbytes LLM.int8)"),
 "optimizer.name":T("AdamW","TrainingArguments default optim (adamw_hf in the transformers of March 2023 the README requires)",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,"finetune_peft.py:151 model.gradient_checkpointing_enable()"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora","--peft_mode lora -> finetune_peft.py:45-51 LoraConfig -> :158 get_peft_model"),
 "peft.rank":T(8,"--lora_rank 8"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H29+"; README.md:36-49 python finetune_peft.py --model_path /path/to/llama-7b/ --dataset_path /path/to/tokenized_dataset --peft_mode lora --lora_rank 8 --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --max_steps 2500 --learning_rate 2e-4 --fp16 --logging_steps 10 --output_dir /path/to/save (HfArgumentParser over two custom dataclasses and the stock TrainingArguments, a peft config chosen by a string among LoRA, prefix, p-tuning and prompt tuning, an int8 base with its lm_head wrapped to cast to fp32, a Trainer subclass overriding compute_loss; LoRA tuning of LLaMA-7B on a pre-tokenized corpus). Not labelled: model.ref (a placeholder path)")
SA=("somepago/saint","e288e84c77a54cfd2ffb55a53678fb7cbbb16630")
J("saint-openml-bank-marketing-colrow-argparse-1gpu",*SA,["."],".",["train.py","--","--dset_id","1461","--task","binary","--attentiontype","colrow"],{
 "dist.world_size":T(1,"python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"train.py:33 --batchsize default 256, kept by :93-95 because OpenML 1461 (bank-marketing) has 16 features, not more than 100 -> :109 DataLoader"),
 "batch.grad_accum":T(1,"train.py:195-197 one optimizer step per batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW","train.py:28 --optimizer default 'AdamW' -> :170 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"train.py:109 num_workers=4"),
 "data.pin_memory":T(False,"train.py:109 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H29+"; python train.py --dset_id 1461 --task binary --attentiontype colrow (README.md:40 python train.py --dset_id <openml_dataset_id> --task <task_name> --attentiontype <attention_type>, with OpenML's bank-marketing binary task filled in; argparse whose values train.py:92-101 rewrites from the dataset's feature count and the attention type, the data downloaded from OpenML, the optimizer chosen by a string; SAINT, row and column attention over tabular data). Not labelled: model.num_parameters (embedding widths depend on the categorical cardinalities of the downloaded dataset)")
PT=("yuqinie98/PatchTST","204c21efe0b39603ad6e2ca640ef5896646ab1a9")
pts="scripts/PatchTST/etth1.sh"
J("patchtst-etth1-shell-loop-argparse-1gpu",*PT,["PatchTST_supervised","README.md"],"PatchTST_supervised",[pts],{
 "model.num_parameters":T(81728,pts+":8,28-39 seq_len 336, d_model 16, 4 heads, 3 layers, d_ff 128, patch 16 stride 8 (run_longExp.py:45 padding_patch 'end': 42 patches), first loop pass pred_len 96 -> layers/PatchTST_backbone.py: W_P 16-16 (272) + learned positions 42 x 16 (672) + 3 encoder layers x (q/k/v/out 4 x 272 + two BatchNorms 64 + FF 16-128-16 4,240 = 5,392) + flatten head 672-96 (64,608); RevIN without affine (run_longExp.py:47): 81,728",rel_tol=0.1),
 "dist.world_size":T(1,"python -u run_longExp.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","run_longExp.py:91 --use_multi_gpu not given -> exp/exp_main.py:38-39 no DataParallel"),
 "batch.micro":T(128,pts+":42 --batch_size 128 -> data_provider/data_factory.py:45-50"),
 "batch.grad_accum":T(1,"exp/exp_main.py:134-191 one optimizer step per batch"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.seq_len":T(336,pts+":8 seq_len=336 -> :28 --seq_len (the look-back window of 336 time steps)"),
 "precision.mode":T("fp32","run_longExp.py:86 --use_amp default False, not given"),
 "optimizer.name":T("Adam","exp/exp_main.py:47 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(10,"run_longExp.py:76 --num_workers default 10 -> data_provider/data_factory.py:49"),
 "data.pin_memory":T(False,"data_provider/data_factory.py:45-50 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H29+"; cd PatchTST_supervised && sh scripts/PatchTST/etth1.sh (README.md:60-62 runs the scripts of ./scripts/PatchTST, weather.sh its example; this is the one for ETTh1: mkdir guards, shell variables, then a for loop over four prediction lengths running python -u run_longExp.py ... with the output redirected to a log; argparse with an experiment class, channel-independent patches of a multivariate series; long-term time-series forecasting). The first pass of the loop, pred_len 96, is the job labelled")
MD=("cloneofsimo/minDiffusion","00a3c8066d25a34d3d472ef6c87c7b6b238ea444")
J("mindiffusion-ddpm-cifar10-function-defaults-1gpu",*MD,["."],".",["train_cifar10.py"],{
 "dist.world_size":T(1,"README.md:23 python train_cifar10.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (train_cifar10.py:18 one device, 'cuda:1')"),
 "batch.micro":T(512,"train_cifar10.py:39 DataLoader batch_size=512"),
 "batch.grad_accum":T(1,"train_cifar10.py:48-58 one optimizer step per batch"),
 "batch.global":T(512,"512 x 1 x 1"),
 "data.image_size":T(32,"train_cifar10.py:32-37 CIFAR-10 32 x 32 images, ToTensor without resizing"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train_cifar10.py:40 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(16,"train_cifar10.py:39 num_workers=16"),
 "data.pin_memory":T(False,"train_cifar10.py:39 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H29+"; README.md:23 python train_cifar10.py (a training function with keyword defaults called with none from __main__, a DDPM wrapping a small U-Net built from literals, a plain loop; denoising diffusion on CIFAR-10, image generation). Not labelled: model.num_parameters (NaiveUnet(3, 3, n_feat=128), not counted by hand)")
RE=("xinntao/Real-ESRGAN","a4abfb2979a7bbff3f69f58f58ae324608821e27")
reo="options/train_realesrnet_x4plus.yml"
J("real-esrnet-x4plus-basicsr-yaml-distributed-launch-4gpu",*RE,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=4","--master_port=4321","realesrgan/train.py","-opt",reo,"--launcher","pytorch","--auto_resume"],{
 "model.num_parameters":T(16697987,reo+":82-88 RRDBNet(3 in, 3 out, 64 features, 23 RRDB blocks, growth 32) at scale 4 (basicsr rrdbnet_arch: the ESRGAN generator, 16,697,987 parameters)",rel_tol=0.1),
 "dist.world_size":T(4,"docs/Training.md:127 python -m torch.distributed.launch --nproc_per_node=4 (:5 'official: 4 GPUs')"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp","--launcher pytorch: basicsr initialises the process group and wraps the network in DistributedDataParallel"),
 "batch.micro":T(12,reo+":68 batch_size_per_gpu 12"),
 "batch.grad_accum":T(1,"realesrgan/models/realesrnet_model.py with basicsr's SRModel.optimize_parameters: one optimizer step per batch"),
 "batch.global":T(48,"12 x 1 x 4 (the run name, "+reo+":2, says B12G4)"),
 "precision.mode":T("fp32","no autocast or half() in realesrgan/ or the basicsr SRModel"),
 "optimizer.name":T("Adam",reo+":100-101 optim_g type Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(5,reo+":67 num_worker_per_gpu 5"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",reo+":92 starts from the ESRGAN weights and trains every parameter"),
},held_out=True,note=H29+"; docs/Training.md:127 python -m torch.distributed.launch --nproc_per_node=4 --master_port=4321 realesrgan/train.py -opt options/train_realesrnet_x4plus.yml --launcher pytorch --auto_resume (a BasicSR options YAML: degradation settings at the top level, datasets.train with per-GPU batch and workers, network_g, train.optim_g; realesrgan/train.py hands everything to basicsr.train_pipeline, the model and dataset classes registered by decorator; blind super-resolution, the RealESRNet stage before the GAN). Not labelled: image size (256 x 256 ground-truth crops, 64 x 64 network inputs after the synthetic x4 degradation), pin memory (basicsr's dataloader builder, outside the repository)")
OG=("snap-stanford/ogb","61e9784ca76edeaa6e259ba0f836099608ff0586")
ogm="examples/graphproppred/mol"
J("ogb-molhiv-gin-virtual-pyg-argparse-1gpu",*OG,[ogm],ogm,["main_pyg.py","--","--dataset","ogbg-molhiv","--gnn","gin-virtual","--filename","gin_virtual_molhiv"],{
 "model.num_parameters":T(3336306,"main_pyg.py:68-74 gin-virtual, 5 layers, emb_dim 300 -> :116 GNN(virtual_node=True) on ogbg-molhiv: 3,336,306 parameters (the figure OGB's leaderboard lists for GIN + virtual node on ogbg-molhiv)",rel_tol=0.1),
 "dist.world_size":T(1,"python main_pyg.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(32,"main_pyg.py:76 --batch_size default 32 -> :109 torch_geometric DataLoader (32 molecular graphs)"),
 "batch.grad_accum":T(1,"main_pyg.py:21-36 one optimizer step per batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","main_pyg.py:124 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"main_pyg.py:80 --num_workers default 0 -> :109"),
 "data.pin_memory":T(False,"main_pyg.py:109 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H29+"; cd examples/graphproppred/mol && python main_pyg.py --dataset ogbg-molhiv --gnn gin-virtual --filename gin_virtual_molhiv (README.md:10 python main_pyg.py --dataset $DATASET --gnn $GNN_TYPE --filename $FILENAME, filled in with the first dataset and the default GNN; argparse, the model variant picked by an if chain on --gnn, PyTorch Geometric's DataLoader batching molecular graphs, OGB's Evaluator; graph property prediction)")
VJ=("facebookresearch/vjepa2","c2963a47433ecca0ad4f06ec28bcfa8cb5b5cefb")
vjc="configs/train/vitl16/pretrain-256px-16f.yaml"
vjt="app/vjepa/train.py"
J("vjepa2-vitl16-video-pretrain-yaml-module-local-1gpu",*VJ,["."],".",["--","python","-m","app.main","--fname",vjc,"--devices","cuda:0"],{
 "model.num_parameters":T(326000000,vjc+":76-80 vit_large encoder (24 layers, 1024 wide, 3D patch embedding of 2 x 16 x 16, RoPE so no position table: 0.30B) + a predictor of depth 12, width 384, 12 heads with its 1024-384-1024 projections and mask tokens (0.02B), both trained; the EMA target encoder ("+vjt+":294) is not: about 0.33B",rel_tol=0.15),
 "dist.world_size":T(1,"README.md:363-364 --devices cuda:0 -> app/main.py:81-84 one process per listed device"),
 "dist.nodes":T(1,"local launch: one machine ("+vjc+":2 nodes 16 is read only by app/main_distributed.py)"),
 "batch.micro":T(24,vjc+":17 data.batch_size 24 -> "+vjt+":109,252"),
 "batch.grad_accum":T(1,vjt+":440-500 one optimizer step per batch"),
 "batch.global":T(24,"24 x 1 x 1"),
 "data.image_size":T(256,vjc+":18 crop_size 256"),
 "precision.mode":T("amp_bf16",vjc+":69 meta.dtype bfloat16 -> "+vjt+":71-73 mixed_precision -> :453 torch.cuda.amp.autocast(dtype=bfloat16) over fp32 weights"),
 "optimizer.name":T("AdamW","app/vjepa/utils.py:243 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,vjc+":82 use_activation_checkpointing true"),
 "model.attn_implementation":T("sdpa",vjc+":75 meta.use_sdpa true (F.scaled_dot_product_attention)"),
 "data.num_workers":T(8,vjc+":26 num_workers 8 -> "+vjt+":115,262"),
 "data.pin_memory":T(True,vjc+":28 pin_mem true -> "+vjt+":114,263"),
 "compile.enabled":T(False,vjt+":86 model.compile_model default False (not in the YAML)"),
 "peft.method":T("none","self-supervised pre-training from scratch"),
},held_out=True,note=H29+"; README.md:363-364 python -m app.main --fname configs/train/vitl16/pretrain-256px-16f.yaml --devices cuda:0 (the README's local launch: argparse naming a YAML and a device list, one process spawned per device by multiprocessing, the YAML's app key choosing app/vjepa/train.py, whose nested sections (data, mask, meta, model, optimization) are read with .get; encoder, predictor and EMA target each wrapped in DDP; V-JEPA 2 self-supervised video pre-training, 16 frames of 256 x 256). Not labelled: sharding ("+vjt+":292-294 DistributedDataParallel over a single process), the data shape as a sequence length (16 frames in 2-frame tubelets of 16 x 16 patches: 2,048 tokens before masking)")
CO=("OpenLMLab/collie","726ec80d263c1e1c56344dfde5b3c24897daa94d")
cot="examples/alpaca/train.py"
J("collie-llama-7b-alpaca-tp2-dp2-config-object-torchrun-4gpu",*CO,["examples/alpaca","collie","README.md"],"examples/alpaca",["--","torchrun","--rdzv_backend=c10d","--rdzv_endpoint=localhost:29402","--nnodes=1","--nproc_per_node=4","train.py"],{
 "model.ref":T("decapoda-research/llama-7b-hf",cot+":28 pretrained_model -> :36 CollieConfig.from_pretrained -> :66 LlamaForCausalLM.from_config (the LLaMA-7B architecture; collie's own model class)"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(4,cot+":120 torchrun --nproc_per_node=4 (tp_size 2 x dp_size 2 x pp_size 1, :38-40)"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "batch.micro":T(8,cot+":42 config.train_micro_batch_size = 8"),
 "batch.grad_accum":T(1,"collie/config.py:87-89 gradient_accumulation_steps default 1 (not set)"),
 "batch.global":T(16,"8 x 1 x dp_size 2 (the two tensor-parallel ranks of a pair see the same batch)"),
 "precision.mode":T("fp16",cot+":45-46 ds_config fp16 enabled: DeepSpeed fp16, 16-bit weights with fp32 master copies"),
 "optimizer.name":T("Adam",cot+":69 torch.optim.Adam (handed to DeepSpeed)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(True,"collie/config.py:93-94 checkpointing default True (not set)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",cot+":2 full-parameter instruction tuning"),
},held_out=True,note=H29+"; cd examples/alpaca && torchrun --rdzv_backend=c10d --rdzv_endpoint=localhost:29402 --nnodes=1 --nproc_per_node=4 train.py (the command written in "+cot+":120, its CUDA_VISIBLE_DEVICES=0,1,2,3 prefix left off; a script of module-level statements with no argparse: a CollieConfig object loaded from the Hub id and then set attribute by attribute (tensor parallel 2, data parallel 2, micro batch 8, a DeepSpeed dict with fp16), collie's own Megatron-style LLaMA, its Trainer and DataLoader; full instruction tuning of LLaMA-7B on Alpaca). Not labelled: sharding (tensor parallelism 2 x data parallelism 2 with a DeepSpeed config that has no zero_optimization section), sequence length (CollieDatasetForTraining without a max length), attention (collie/config.py:96 use_flash default True: collie's own flash-attention path), data loader workers")
