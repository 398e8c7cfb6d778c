"""The fiftieth held-out set of the jobs benchmark (run.py --set held-out-50): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name and each bare repository name was
grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and appears nowhere.
Parameter counts are labelled only where a published checkpoint's shape gives them or the
repository's own layer definitions fix them exactly."""
from .core import J, T

H50="fiftieth held-out set"

DA=("Miraclove/DevAssistant","1e0c19fa1389ad7b5721a75fb342ad0d075b9172")
dad="dev-assistant-model/deepspeed/pretrain"
das="train.sh"
dac="config.yaml"
dat="train.py"
daz="deepspeed_z3_config_bf16.json"
J("devassistant-starcoderbase-7b-lua-clm-torchrun-hf-trainer-deepspeed-zero3-4gpu",*DA,["."],dad,[das],{
 "model.num_parameters":T(7327000000,dac+":2 model_name_or_path .../model/starcoderbase-7b: StarCoderBase-7B (GPTBigCode, 42 layers, hidden 4096, multi-query attention, MLP 16384, vocab 49152, tied head), about 7.33B",rel_tol=0.1),
 "dist.world_size":T(4,das+":2 torchrun --nproc_per_node=4 train.py config.yaml --deepspeed=..."),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(4,das+":2 --nproc_per_node=4"),
 "dist.sharding":T("zero3",das+":2 --deepspeed="+daz+" -> "+daz+":22-23 zero_optimization stage 3"),
 "dist.offload_optimizer":T("none",daz+":22-33 no offload_optimizer"),
 "dist.offload_params":T("none",daz+":22-33 no offload_param"),
 "batch.micro":T(1,dac+":30 per_device_train_batch_size 1"),
 "batch.grad_accum":T(1,dac+":18 gradient_accumulation_steps 1"),
 "batch.global":T(4,"1 x 1 x 4"),
 "data.seq_len":T(1024,dac+":8 block_size 1024 -> "+dat+":143-155 tokenizer truncation at 1024 with return_overflowing_tokens, only chunks of exactly 1024 tokens kept"),
 "data.padding":T("max_length",dat+":151-155 every kept example is exactly block_size 1024 tokens (chunks of one document, shorter tails dropped); :209 DataCollatorForLanguageModeling adds no padding",any_of=["max_length","packed"]),
 "precision.mode":T("bf16",dac+":3 torch_dtype bfloat16 -> "+dat+":173-201 weights loaded in bf16, "+dac+":15 bf16 True -> "+daz+":2-4 bf16 enabled auto: DeepSpeed bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",daz+":5-13 DeepSpeed optimizer type AdamW (it replaces config.py:129 optim adamw_torch)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,dac+":19 gradient_checkpointing true (use_cache False, "+dat+":200)"),
 "data.num_workers":T(0,dac+": no dataloader_num_workers: TrainingArguments default 0 (preprocessing_num_workers 12 is for map and unused by "+dat+":158)"),
 "compile.enabled":T(False,"no torch_compile in "+dac+" and no torch.compile in "+dat),
 "peft.method":T("none",dac+":4 quantized False -> "+dat+":193-201 full fine-tuning, no adapters"),
},held_out=True,note=H50+"; dev-assistant-model/README.md:84-99 ('Code generation or pretrain model': the pretrain folder for a programming-language code model), the job is "+dad+"/"+das+" run from its folder (TRANSFORMERS_VERBOSITY=info torchrun --nproc_per_node=4 train.py config.yaml --deepspeed=deepspeed_z3_config_bf16.json; the accelerate line below it is a comment: a StarChat-style HfArgumentParser over a YAML file plus command-line overrides, a run_clm-style tokenisation of a datasets.load_from_disk Lua code corpus into 1024-token chunks, GPTBigCode StarCoderBase-7B loaded in bf16 from a local directory, full fine-tuning with transformers.Trainer under DeepSpeed ZeRO-3 with its own AdamW and WarmupLR, wandb; continued pre-training of a code LLM on Lua, causal LM). Not labelled: model.ref (a local directory), data.pin_memory (the installed transformers' default)")

FP=("jonathanlu31/final_project","182fa21eed821f47d6be4cf319ea3448d1169c16")
fpd="recipes/qwen3_8b"
fps="sft_lora.sh"
fpy=fpd+"/sft_lora.yaml"
fpa="recipes/accelerate_configs/fsdp.yaml"
fpt="scripts/run_sft.py"
J("final-project-qwen3-8b-lora-r16-trl-sft-liger-accelerate-fsdp-full-shard-2gpu",*FP,["."],fpd,[fps],{
 "model.num_parameters":T(8190735360,fpy+":12 model_name_or_path .../huggingface/Qwen/Qwen3-8B: Qwen3-8B, 8.19B published (36 layers, hidden 4096, untied 151936-row embedding and head)",rel_tol=0.1),
 "dist.world_size":T(2,fpd+"/"+fps+":7 accelerate launch --config_file ../accelerate_configs/fsdp.yaml -> "+fpa+":20 num_processes 2"),
 "dist.nodes":T(1,fpa+":19 num_machines 1"),
 "dist.devices_per_node":T(2,fpa+":20 num_processes 2"),
 "dist.sharding":T("fsdp_full",fpa+":3 distributed_type FSDP, :12 fsdp_sharding_strategy FULL_SHARD"),
 "dist.offload_params":T("none",fpa+":11 fsdp_offload_params false"),
 "batch.micro":T(2,fpy+":33 per_device_train_batch_size 2"),
 "batch.grad_accum":T(4,fpy+":34 gradient_accumulation_steps 4"),
 "batch.global":T(16,"2 x 4 x 2"),
 "data.seq_len":T(16384,fpy+":56 max_seq_length 16384 (packing false, :55): SFTTrainer truncates each tokenized conversation at 16384"),
 "data.padding":T("dynamic",fpy+":9 pad_free false -> src/reasoning/tokenizer.py:21-25 DataCollatorForCompletionOnlyLM(padding_free=False): pads each batch to its longest"),
 "precision.mode":T("bf16",fpy+":13 torch_dtype bfloat16 weights ("+fpt+":83-99) with :41 bf16 true and "+fpa+":18 mixed_precision bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("adamw_torch",fpy+":28 optim adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,fpy+":49-51 gradient_checkpointing true, use_reentrant False"),
 "data.num_workers":T(0,fpy+": no dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile in "+fpy+", no torch.compile in "+fpt),
 "model.attn_implementation":T("flash_attention_2",fpy+":16 attn_implementation flash_attention_2 -> "+fpt+":88-99"),
 "peft.method":T("lora",fpy+":20 peft_enabled true -> "+fpt+":101-112 LoraConfig + get_peft_model",any_of=["lora"]),
 "peft.rank":T(16,fpy+":21 lora_r 16"),
},held_out=True,note=H50+"; README.md:13-19 'Use the scripts in the recipes folders', the job is "+fpd+"/"+fps+" (it cds to its own folder, then accelerate launch --config_file ../accelerate_configs/fsdp.yaml ../../scripts/run_sft.py --config sft_lora.yaml: an HfArgumentParser over ModelArguments/DataArguments/a trl.SFTConfig subclass read from one YAML, a pre-tokenized mix of three subsets of a hub prompt-injection reasoning dataset rendered with Qwen3's chat template, DataCollatorForCompletionOnlyLM masking everything before the assistant turn, Qwen3-8B in bf16 with flash-attention 2 from a local directory, LoRA r 16 on all linear layers, TRL SFTTrainer with the Liger kernels, accelerate FSDP FULL_SHARD over 2 processes, wandb; LLM SFT for prompt-injection robustness). Not labelled: model.ref (a local directory), data.pin_memory (the installed transformers' default)")

TC=("anttitapsa/TCR_transformer","3228e9f71f60a34a2f39e3c891865e582331359c")
tcs="run_train.sh"
tct="train.py"
J("tcr-transformer-protbert-bfd-cdr3-sbatch-srun-dataparallel-4gpu-1proc",*TC,["."],"code",[tcs],{
 "dist.world_size":T(1,"code/"+tcs+":11 srun python3 -u train.py with no --ntasks: one task, one process ("+tct+":52-55 nn.DataParallel over the visible GPUs inside it)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none",tct+":52-55 nn.DataParallel (one process, the batch split over the GPUs): no distributed data parallelism"),
 "batch.grad_accum":T(1,tct+":76-78 backward, step and zero_grad every batch"),
 "batch.global":T(320,tct+":139 batch_size = 320 -> :33 DataLoader(batch_size=320), split by DataParallel over the visible GPUs"),
 "data.padding":T("max_length","code/CDR3Dataset.py:40 tokenizer(padding='max_length', max_length=self.max_length), the longest target sequence of the data + 3 (:24-30)"),
 "optimizer.name":T("AdamW",tct+":18,48 torch.optim.AdamW(model.parameters(), lr=1e-6)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,tct+":33 DataLoader without num_workers: default 0"),
 "data.pin_memory":T(False,tct+":33 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","code/CustomProtBert.py:9-26 ProtBERT-BFD's embeddings and encoder weights copied into an nn.TransformerEncoder plus a new vocabulary head, all trained"),
},held_out=True,note=H50+"; README.md:33-35 'The model can be trained by running script code/run_train.sh on triton', the job is code/"+tcs+" (sbatch --gres=gpu:a100:4, then srun python3 -u train.py: a hand-written loop with no argument parser, Rostlab/prot_bert_bfd loaded through BertModel.from_pretrained and its weights copied into a 30-layer nn.TransformerEncoder (CustomprotBERT) that predicts CDR3 residues from V and J gene sequences, torch.set_default_dtype(torch.float64) before anything is built, continue_train=True so the model and AdamW state are unpickled from a previous run's checkpoint, nn.DataParallel over the four GPUs; T-cell-receptor CDR3 sequence generation, protein language model fine-tuning). Not labelled: model.ref and model.num_parameters (the trained model is unpickled from a local checkpoint; its ProtBERT-BFD sizes come from the hub config, not from the files), precision.mode (train.py:104 float64 default dtype: a float64 model, not a mode of this schema), dist.devices_per_node (DataParallel over every visible GPU), batch.micro (one DataParallel batch of 320 split over the GPUs), data.seq_len (the longest sequence of the processed data)")

QV=("pinecypressfxd/finetune-Qwen2.5-VL","12f1b02dfa21455d6fb419a5a780121210d533ec")
qvs="finetune_distributed_with_LoRA.sh"
qvt="finetune_distributed.py"
J("finetune-qwen2.5-vl-3b-lora-r16-accelerate-deepspeed-plugin-zero3-offload-4gpu",*QV,["."],".",[qvs],{
 "model.ref":T("Qwen/Qwen2.5-VL-3B-Instruct",qvt+":378-380 Qwen2_5_VLForConditionalGeneration.from_pretrained('Qwen/Qwen2.5-VL-3B-Instruct', torch_dtype='bfloat16')"),
 "model.num_parameters":T(3754622976,qvt+":379 Qwen2.5-VL-3B-Instruct: 3.75B published (a 36-layer 2048-wide Qwen2.5 language model with a tied embedding plus a 32-block vision encoder)",rel_tol=0.1),
 "dist.world_size":T(4,qvs+":4 CUDA_VISIBLE_DEVICES=4,5,6,7 accelerate launch --num_machines=1 --num_processes=4 --use_deepspeed"),
 "dist.nodes":T(1,qvs+":4 --num_machines=1"),
 "dist.devices_per_node":T(4,qvs+":4 --num_processes=4"),
 "dist.sharding":T("zero3",qvt+":24-25 DeepSpeedPlugin(zero_stage=3) -> :42 Accelerator(deepspeed_plugin=...)"),
 "dist.offload_optimizer":T("cpu",qvt+":34 offload_optimizer_device='cpu'"),
 "dist.offload_params":T("cpu",qvt+":35 offload_param_device='cpu'"),
 "batch.micro":T(1,qvt+":409-413 DataLoader(batch_size=1) per process"),
 "batch.grad_accum":T(2,qvt+":31 DeepSpeedPlugin gradient_accumulation_steps=2 and :445 accelerator.accumulate(model) (the generated DeepSpeed config the file records at :51-54: train_batch_size 8, micro 1, accumulation 2)"),
 "batch.global":T(8,"1 x 2 x 4 ("+qvt+":52 train_batch_size 8)"),
 "data.padding":T("dynamic",qvt+":150-156 processor(..., padding=True): each batch padded to its longest"),
 "precision.mode":T("bf16",qvt+":379 torch_dtype='bfloat16' weights with "+qvs+":4 --mixed_precision=bf16 (DeepSpeed bf16 enabled, :69-71)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",qvt+":15,431 torch.optim.AdamW(model.parameters(), lr=2e-4)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,qvt+": no gradient_checkpointing_enable"),
 "data.num_workers":T(0,qvt+":409-413 DataLoader without num_workers: default 0"),
 "data.pin_memory":T(False,qvt+":409-413 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,qvs+":4 --dynamo_backend=no; no torch.compile"),
 "peft.method":T("lora",qvs+":4 --use_lora=True -> "+qvt+":383-386,193-235 LoraConfig + get_peft_model",any_of=["lora"]),
 "peft.rank":T(16,qvt+":203 r=16"),
},held_out=True,note=H50+"; README.md:56 './finetune_distributed_with_LoRA.sh', the job is "+qvs+" run from the repository root (TORCH_DISTRIBUTED_DEBUG=DETAIL ... CUDA_VISIBLE_DEVICES=4,5,6,7 accelerate launch --main_process_port=29919 --mixed_precision=bf16 --dynamo_backend=no --num_machines=1 --num_processes=4 --use_deepspeed finetune_distributed.py --use_lora=True; the single-GPU line is a comment: a hand-written accelerate loop with a DeepSpeedPlugin built in the script (ZeRO-3, optimizer and parameters offloaded to CPU, accumulation 2), Qwen2.5-VL-3B-Instruct in bf16 with LoRA r 16 on the attention and MLP projections, a toy JSON of image/video chat messages through qwen_vl_utils and the AutoProcessor (128-256 x 28 x 28 pixels), labels only on the assistant turns, torch AdamW; vision-language model LoRA SFT). Not labelled: model.attn_implementation (not set: the installed transformers' default), data.seq_len (the batch's longest chat)")

HK=("Ninjani/hackathon","ae4a2955e209ada902849ba4c03318374d04aa82")
hks="sbatch_train.sh"
hkc="config.yaml"
hkd="source/dataloader/pair_loader.py"
J("hackathon-crossgat-egnn-protein-pair-lightningcli-sbatch-heredoc-1gpu",*HK,["."],".",[hks,"--","crossgat",hkc],{
 "dist.world_size":T(1,hks+":11-12 --nodes=1 --gres=gpu:1, :23 srun python main.py fit -c config.yaml (one task); "+hkc+":70-71 accelerator auto, strategy auto"),
 "dist.nodes":T(1,hks+":11 --nodes=1"),
 "dist.devices_per_node":T(1,hks+":12 --gres=gpu:1"),
 "dist.sharding":T("none","one GPU: "+hkc+":71 strategy auto is single-device"),
 "batch.micro":T(32,hkc+":37 data.batch_size 32 -> "+hkd+":199-200 torch_geometric DataLoader(batch_size=32): 32 protein-pair graphs"),
 "batch.grad_accum":T(1,hkc+":44-72 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32",hkc+":72 trainer precision 32"),
 "optimizer.name":T("Adam",hkc+":39-43 optimizer class_path torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in source/"),
 "data.num_workers":T(4,hkc+":38 data.num_workers 4 -> "+hkd+":200"),
 "data.pin_memory":T(False,hkd+":200 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","source/models/pair_models.py:68-159 a graph model trained from scratch"),
},held_out=True,note=H50+"; the job is "+hks+" run from the repository root with a job name and config.yaml (its usage line :1 './sbatch_train.sh <job_name> <config_file>': a heredoc piped to sbatch holding --nodes=1 --gres=gpu:1 and srun python main.py fit -c $CONFIG_FILE: a bare pytorch_lightning LightningCLI whose YAML gives the model and data class_paths (CrossGATModel: GAT, inter-chain attention and EGNN layers over two residue graphs; ProteinPairDataModule over graphein protein graphs with ESM-embedding node features), an Adam optimizer by class_path, TensorBoard logging, early stopping; protein-protein interface residue prediction, graph deep learning). Not labelled: model.ref and model.num_parameters (an in-repository graph network whose input width comes from the feature columns)")

LS=("malicd/LiSu","1be5fb507095463de846f411d0ff3f61916140ea")
lsc="configs/lisu_ptv3_l1+gtv+tgtv+eikonal_fp16_fulltrainval.yaml"
lst="configs/lisu_trainer.yaml"
lsd="configs/lisu_data_temporal.yaml"
lsm="lisu/datasets/my_ldatamodule.py"
J("lisu-point-transformer-v3-lidar-normals-lightningcli-ddp-bf16-8gpu",*LS,["."],".",["main.py","--","fit","-c",lsc,"--trainer.devices","8"],{
 "dist.world_size":T(8,"README.md:83-86 python main.py fit -c ... --trainer.devices 8; "+lst+":4 strategy ddp"),
 "dist.nodes":T(1,"README.md:83 single-node (no --trainer.num_nodes)"),
 "dist.devices_per_node":T(8,"--trainer.devices 8"),
 "dist.sharding":T("ddp",lst+":4 strategy ddp"),
 "batch.micro":T(4,lsd+":3 batch_size 4 -> "+lsm+":134-148 BatchSampler(batch_size=4) wrapped in a DistributedProxySampler per rank ("+lst+":1 use_distributed_sampler False)"),
 "batch.grad_accum":T(1,lst+": no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(32,"4 x 1 x 8"),
 "precision.mode":T("amp_bf16",lst+":2 precision bf16-mixed (the config's name says fp16)",any_of=["amp_bf16"]),
 "optimizer.name":T("AdamW","lisu/models/ptv3.py:180 torch.optim.AdamW with OneCycleLR (:192)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,lsd+":4 num_workers 8 -> "+lsm+":106"),
 "data.pin_memory":T(True,lsm+":105 pin_memory True"),
 "peft.method":T("none","training from scratch ("+lsc+":1-53 no weights_from_checkpoint_path)"),
},held_out=True,note=H50+"; README.md:80-86 'Single-Node Multi-GPU Training: python main.py fit -c configs/lisu_ptv3_l1+gtv+tgtv+eikonal_fp16_fulltrainval.yaml --trainer.devices 8' run from the repository root (a lightning LightningCLI with seed 42 whose config names its data and trainer sections as separate YAML files, a Point Transformer V3 backbone from a git submodule (lisu/models/PointTransformerV3, not in the tree) with flash attention and a small MLP head, L1 plus graph and temporal total-variation and eikonal losses, a weighted temporal frame-pair batch sampler wrapped for DDP, AdamW with OneCycleLR, sync batch-norm; LiDAR surface-normal estimation on the synthetic LiSu point clouds). Not labelled: model.ref and model.num_parameters (the PTv3 backbone's code is a submodule absent from the tree), memory.gradient_checkpointing and compile.enabled (the backbone's code is not in the files), data.image_size and data.seq_len (point clouds of 70,000 sampled points)")

LA=("tangjzh/LAH","eb20be6a9643e73be46de89977699604411b1144")
las="train.sh"
lat="train.py"
lac="configs/mp3d.yaml"
J("lah-latte-t2v-video-diffusion-mp3d-torchrun-ddp-8gpu",*LA,["."],".",[las],{
 "dist.world_size":T(8,las+":2,7 WORLD_SIZE=8, torchrun --nproc_per_node=$WORLD_SIZE train.py (CUDA_VISIBLE_DEVICES 0-7, :1)"),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(8,las+":7 --nproc_per_node=8"),
 "dist.sharding":T("ddp",lat+":131 DDP(model.to(device), device_ids=[local_rank])"),
 "batch.micro":T(2,lat+":326 --config default ./configs/mp3d.yaml -> "+lac+":73 local_batch_size 2 -> "+lat+":150-158 DataLoader(batch_size=2) with a DistributedSampler"),
 "batch.grad_accum":T(1,lat+":252-265 backward, opt.step and zero_grad every batch ("+lac+":80 gradient_accumulation_steps 1 only scales the scheduler)"),
 "batch.global":T(16,"2 x 1 x 8"),
 "data.image_size":T(256,lac+":16 image_size 256 (each dataset :40,49,56,63 image_size 256) -> "+lat+":87-89 latents 32 x 32 through the VAE"),
 "precision.mode":T("fp32",lac+":85 mixed_precision False -> "+lat+":252 torch.autocast(enabled=False); TF32 matmuls allowed (:13-14)"),
 "optimizer.name":T("AdamW",lat+":134 torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,lac+":87 gradient_checkpointing True -> models/__init__.py:44 -> models/latte_t2v.py:759,929 checkpointed transformer blocks while training"),
 "data.num_workers":T(8,lac+":76 num_workers 8 -> "+lat+":155"),
 "data.pin_memory":T(True,lat+":156 pin_memory=True"),
 "compile.enabled":T(False,lac+":84 use_compile False -> "+lat+":127-128 skipped"),
 "peft.method":T("none",lac+":11 pretrained empty: the LatteT2V transformer trained from its own initialisation; the VAE and T5 text encoder frozen ("+lat+":136-138)"),
},held_out=True,note=H50+"; README.md:28-32 'For training, run the following command: bash train.sh', run from the repository root (exports CUDA_VISIBLE_DEVICES=0..7, WORLD_SIZE=8, MASTER_ADDR/PORT and LOCAL_RANK=0, then torchrun --nproc_per_node=$WORLD_SIZE train.py with no argument: --config defaults to ./configs/mp3d.yaml, an OmegaConf file; a Latte-style DDP loop for a camera- and text-conditioned video diffusion transformer (LatteT2V, 16 layers of 16 heads x 72 with ada_norm_single and xformers attention), 8-frame 256-px clips from EmbodiedScan, Matterport3D and VLN-CE R2R/RxR encoded by the frozen stabilityai/sd-vae-ft-ema VAE, prompts through a frozen google/flan-t5-base encoder, 1000-step Gaussian diffusion, AdamW at constant 1e-4, gradient clipping after 20,000 steps, TensorBoard; video world-model pre-training for embodied navigation). Not labelled: model.ref (an in-repository transformer built from the config), model.num_parameters (LatteT2V's blocks are not counted here), data.seq_len")

CD=("scout-op/CDVG","87e96b382856e75cf76a197aae577ee3d0c188ce")
cdd="VisTA/VisTA"
cds="run.sh"
cdt="train.py"
J("cdvg-vista-clip-rn101-change-detection-vqa-torchrun-standalone-ddp-bf16-autocast-4gpu",*CD,[cdd],cdd,[cds],{
 "dist.world_size":T(4,cdd+"/"+cds+":1 CUDA_VISIBLE_DEVICES=0,2,4,6 and :4 torchrun --standalone --nproc_per_node=gpu --nnodes=1: one process per visible GPU"),
 "dist.nodes":T(1,cds+":4 --nnodes=1 --standalone"),
 "dist.devices_per_node":T(4,cds+":1,4 --nproc_per_node=gpu over four visible GPUs"),
 "dist.sharding":T("ddp",cdt+":161 DDP(model, device_ids=[gpu_id], find_unused_parameters=True) after convert_sync_batchnorm (:160)"),
 "batch.micro":T(16,cdt+":32 batch_size = 16 -> :146-148 DataLoader(batch_size=16) with a DistributedSampler"),
 "batch.grad_accum":T(1,cdt+":342-390 zero_grad, backward and scaler.step every batch"),
 "batch.global":T(64,"16 x 1 x 4"),
 "precision.mode":T("amp_bf16",cdt+":359 torch.autocast(device_type='cuda', dtype=torch.bfloat16) with a GradScaler (:40, :388-390) over fp32 weights (model/VisTA.py:75 .float())",any_of=["amp_bf16"]),
 "optimizer.name":T("Adam",cdt+":211 torch.optim.Adam(model.parameters(), lr=1e-4, weight_decay=0.)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in "+cdd),
 "data.num_workers":T(8,cdt+":33 workers = 8 -> :147"),
 "data.pin_memory":T(True,cdt+":147 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile in "+cdd),
 "peft.method":T("none","model/VisTA.py:69-75 a CLIP RN101 backbone rebuilt from a TorchScript checkpoint and trained with the FPN, Q-Former and mask decoder (no adapters)"),
},held_out=True,note=H50+"; the job is "+cdd+"/"+cds+" run from its folder (VisTA/README.md:57-70 still names a train_net.py the tree no longer holds; run.sh: export CUDA_VISIBLE_DEVICES=0,2,4,6 OMP_NUM_THREADS=16, torchrun --standalone --nproc_per_node=gpu --nnodes=1 train.py with no argument: module-level constants for batch size, workers, lr and epochs, argparse only for loss weights and an optional Qwen-VL reasoner (use_hrpg default 0, off), a VisTA change-detection visual-question-answering model on a CLIP RN101 loaded from pretrain/RN101.pt (TorchScript) with an FPN neck, a text Q-Former and a SAM-style mask decoder, sync batch-norm, bf16 autocast with a GradScaler, Adam with MultiStepLR; remote-sensing change-detection VQA with segmentation masks). Not labelled: model.ref (a local TorchScript CLIP file), model.num_parameters (the decoder and Q-Former are not counted here), data.image_size (dataset/DataNew.py:83-85 no resize: the images' own size)")

ED=("Markfryazino/EfficientDL-DeepSpeedPhD","593d20fd0e9aa90a2613d5ea3657e2945c5ee1d9")
eds="scripts/zero3-big.sh"
edt="run.py"
edz="deepspeed/zero3-offload.json"
J("efficientdl-deepspeed-phd-bloomz-3b-sst2-classifier-deepspeed-launcher-hf-trainer-zero3-offload-2gpu",*ED,["."],".",
  ["--","deepspeed","--include","localhost:2,3","--master_port","29502",edt,"--deepspeed",edz,
   "--model_name","bigscience/bloomz-3b","--wandb_run_name","zero3-big-32","--fp16","--num_train_epochs","1",
   "--do_train","--evaluation_strategy","no","--save_strategy","no","--logging_steps","10",
   "--per_device_train_batch_size","8","--gradient_accumulation_steps","4","--learning_rate","2e-5",
   "--seed","42","--output_dir","./log","--max_examples","512"],{
 "model.ref":T("bigscience/bloomz-3b",eds+":8 --model_name bigscience/bloomz-3b -> "+edt+":36 BloomForSequenceClassification.from_pretrained"),
 "model.num_parameters":T(3002562560,eds+":8 BLOOMZ-3B (30 layers, hidden 2560, 250880-row embedding): 3.00B published; "+edt+":36 the sequence-classification head replaces the tied LM head with a 2560x2 score layer",rel_tol=0.1),
 "dist.world_size":T(2,eds+":3-4 deepspeed --include localhost:2,3: two processes"),
 "dist.nodes":T(1,"deepspeed --include localhost: one node"),
 "dist.devices_per_node":T(2,eds+":4 --include localhost:2,3"),
 "dist.sharding":T("zero3",eds+":7 --deepspeed "+edz+" -> "+edz+":26-27 zero_optimization stage 3"),
 "dist.offload_optimizer":T("cpu",edz+":28-31 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu",edz+":32-35 offload_param device cpu"),
 "batch.micro":T(8,eds+":16 --per_device_train_batch_size 8"),
 "batch.grad_accum":T(4,eds+":17 --gradient_accumulation_steps 4"),
 "batch.global":T(64,"8 x 4 x 2"),
 "data.padding":T("dynamic",edt+":37 DataCollatorWithPadding(padding='longest')"),
 "precision.mode":T("fp16",eds+":10 --fp16 -> "+edz+":2-5 fp16 enabled auto: DeepSpeed fp16 with loss scaling",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("AdamW",edz+":7-15 DeepSpeed optimizer type AdamW (its CPU Adam under the offload)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,eds+": no --gradient_checkpointing: TrainingArguments default False"),
 "data.num_workers":T(0,eds+": no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"transformers==4.26.1 (requirements.txt:1) with no --torch_compile"),
 "peft.method":T("none",edt+":36 full fine-tuning of the whole model"),
},held_out=True,note=H50+"; README.md:8-19 (run the scripts of scripts/ from the repository root); "+eds+" holds three deepspeed runs that differ only in gradient accumulation (4, 8, 16), so the job is its first command given directly (deepspeed --include localhost:2,3 --master_port 29502 run.py --deepspeed deepspeed/zero3-offload.json --model_name bigscience/bloomz-3b ... --per_device_train_batch_size 8 --gradient_accumulation_steps 4 ... --max_examples 512: an HfArgumentParser over a small AuxArguments dataclass and TrainingArguments, BLOOMZ-3B with a sequence-classification head loaded in fp32, GLUE SST-2 tokenised without truncation and padded per batch, the first 512 training sentences, transformers.Trainer under DeepSpeed ZeRO-3 with optimizer and parameters offloaded to CPU, wandb; a homework benchmark of DeepSpeed ZeRO stages on sentiment classification). Not labelled: data.seq_len (SST-2 sentences, no truncation), data.pin_memory (transformers 4.26 default)")

CA=("brandon-snider/cs336-a4","96953db8ef8bc0f15195cc8bcac7a51f2c121875")
cas="cs336_data/leaderboard/train.sh"
cat="scripts/train.py"
cac="cs336_basics/train_config.py"
J("cs336-a4-basics-lm-12l-768d-gpt2-vocab-hydra-torchrun-standalone-ddp-compile-2gpu",*CA,["."],"cs336-basics",
  ["--","uv","run","torchrun","--standalone","--nproc_per_node=2",cat,"--config-name=experiment/bucketed.yaml"],{
 "model.num_parameters":T(162148608,cac+":20-27 vocab 50257, context 512, d_model 768, d_ff 2048, 12 layers, 12 heads -> cs336_basics/model.py:155-170 untied bias-free Embedding and lm_head (2 x 38,597,376), 12 blocks of 7,079,424 (:392-396 four 768x768 projections, :349-351 a SwiGLU of three 768x2048 matrices, :322-323 two RMSNorms), final RMSNorm 768",rel_tol=0.05),
 "dist.world_size":T(2,cas+":6,10 --gpus=2, torchrun --standalone --nproc_per_node=2"),
 "dist.nodes":T(1,"torchrun --standalone: one node"),
 "dist.devices_per_node":T(2,"--nproc_per_node=2"),
 "dist.sharding":T("ddp",cat+":81-88,150-151 init_process_group under torchrun and DDP(model, device_ids=[local_rank])"),
 "batch.micro":T(128,cac+":34 train_batch_size 128 (configs/experiment/bucketed.yaml sets only paths and wandb) -> "+cat+":175-180 get_batch(batch_size=128) per process"),
 "batch.grad_accum":T(1,cac+":37 gradient_accumulation_steps 1 -> "+cat+":192"),
 "batch.global":T(256,"128 x 1 x 2"),
 "data.seq_len":T(512,cac+":22 context_length 512 -> "+cat+":178"),
 "data.padding":T("packed","cs336_basics/data.py:8-28 random 512-token windows of one memory-mapped token stream",any_of=["packed"]),
 "precision.mode":T("amp_bf16",cac+":33 dtype bfloat16 -> "+cat+":133-141,197 torch.amp.autocast(dtype=torch.bfloat16) over fp32 weights",any_of=["amp_bf16"]),
 "optimizer.name":T("AdamW",cat+":166-172 torch.optim.AdamW(fused=True) with decay on 2-D weights only",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in cs336_basics/model.py"),
 "data.num_workers":T(0,cat+": no torch DataLoader: cs336_basics/data.py get_batch slices the memmap in the training process"),
 "compile.enabled":T(True,cac+":38 compile True -> "+cat+":147-148 torch.compile(model)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H50+"; the job is the command of "+cas+" (an sbatch script with --gpus=2 whose uv run torchrun --standalone --nproc_per_node=2 scripts/train.py --config-name=experiment/bucketed.yaml resolves scripts/ and configs/ against cs336-basics/, so it is given directly, run from cs336-basics/ as that script's docstring :16-20 says): a @hydra.main whose config_path is the absolute path of ./configs, structured dataclass configs registered in a ConfigStore (paths/model/training groups) with an experiment file overriding only data paths and wandb names, the Stanford CS336 staff's optimized BasicsTransformerLM (RoPE, SwiGLU, RMSNorm, untied head) trained from scratch on GPT-2-tokenized filtered Common Crawl, DDP with no_sync-style accumulation, bf16 autocast, torch.compile, fused AdamW with a cosine schedule, wandb; CS336 assignment 4 data-filtering leaderboard pre-training). Not labelled: model.ref (an in-repository class), data.pin_memory (no DataLoader; get_batch pins each batch by hand, cs336_basics/data.py:22-24)")

PA=("HiRookie9/PicoAudio2","e8e726836fc41d20066c7f72b30d1248b0678343")
pas="bash_scripts/train_pico_4gpus.sh"
paa="configs/accelerate/nvidia/4gpus.yaml"
pad="configs/default.yaml"
pab="configs/basic.yaml"
pau="configs/model/backbone/audio_udit.yaml"
J("picoaudio2-audio-udit-24l-1024d-t2a-diffusion-hydra-accelerate-multi-gpu-fp16-4gpu",*PA,["src"],"src",[pas],{
 "dist.world_size":T(4,"src/"+pas+":1 accelerate launch --config_file "+paa+" -> "+paa+":3 MULTI_GPU, :11 num_processes 4"),
 "dist.nodes":T(1,paa+":10 num_machines 1"),
 "dist.devices_per_node":T(4,paa+":11 num_processes 4"),
 "dist.sharding":T("ddp",paa+":3 distributed_type MULTI_GPU -> trainer.py:114-135 accelerator.prepare(model) with DistributedDataParallelKwargs(find_unused_parameters=True)"),
 "batch.micro":T(8,pas+":5 train_dataloader.batch_size=8 (overrides "+pad+":19 batch_size 24 per device)"),
 "batch.grad_accum":T(4,pab+":13 gradient_accumulation_steps 4 -> "+pad+":42 trainer.gradient_accumulation_steps -> trainer.py:117 Accelerator(gradient_accumulation_steps=4), :259 accelerator.accumulate"),
 "batch.global":T(128,"8 x 4 x 4"),
 "data.padding":T("dynamic",pad+":23-24 PaddingCollate(pad_keys=['waveform']) -> data_module/collate_function.py:38-45 waveforms padded to the batch's longest"),
 "precision.mode":T("amp_fp16",paa+":9 mixed_precision fp16: accelerate autocast and GradScaler over fp32 weights",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW",pab+":15-18 optimizer _target_ torch.optim.AdamW -> train.py:46-48",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,pau+":17 use_checkpoint true -> models/dit/audio_dit.py:86-87 torch.utils.checkpoint over each block"),
 "data.num_workers":T(4,pad+":21 train_dataloader num_workers 4"),
 "data.pin_memory":T(False,pad+":14-25 StatefulDataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile in src/ (accelerate config has no dynamo section)"),
 "peft.method":T("none","the AudioUDiT backbone trained from its own initialisation; the Stable-Audio-style VAE and the Flan-T5-large text encoder frozen (models/diffusion.py:165,193; models/content_encoder/text_encoder.py:56-57)"),
},held_out=True,note=H50+"; README.md:113-119 'cd src; bash bash_scripts/train_pico_4gpus.sh' (accelerate launch --config_file configs/accelerate/nvidia/4gpus.yaml train.py epochs=50 data@data_dict=example train_dataloader.batch_size=8 val_dataloader.batch_size=4 model=diffusion exp_dir=exp/diffusion_4gpu trainer.wandb_config.project=diffusion_4gpu: a @hydra.main used only to compose configs/default.yaml (basic + model/data/loss groups with _target_ objects) from the command line, then hydra.utils.instantiate of the model, StatefulDataLoaders, AdamW, a linear warmup scheduler and an accelerate-based trainer; a 24-block 1024-wide AudioUDiT latent diffusion transformer with AdaLN-SOLA time fusion and cross-attention to Flan-T5-large caption features plus timestamp-event conditioning, a frozen Oobleck waveform VAE at 24 kHz, fp16 mixed precision, wandb; controllable text-to-audio generation with timing). Not labelled: model.ref (an in-repository class built from configs), model.num_parameters (the AudioUDiT blocks are not counted here), data.seq_len (audio latents of the clip's own length)")

PS=("pat-coady/pytorch-sandbox","b7cd72a0c41581b997a512f2ac5a8e72d8d91f00")
pss="multirun_train.sh"
psc="conf/config.yaml"
J("pytorch-sandbox-mnist-cnn-hydra-multirun-sweep-lightning-1gpu",*PS,["."],".",[pss],{
 "dist.world_size":T(1,psc+":14-16 trainer sets neither devices nor strategy (Lightning auto over the visible GPUs) on the one-K80 EC2 p2.xlarge the repository provisions (scripts/nvidia_k80.sh:1, README.md:52 docker run --gpus all): one process"),
 "dist.nodes":T(1,psc+":14-16 no num_nodes: Lightning default 1"),
 "dist.devices_per_node":T(1,"one K80 (scripts/nvidia_k80.sh:1 p2.xlarge)"),
 "dist.sharding":T("none","one device: Lightning's single-device strategy"),
 "batch.micro":T(64,psc+":19 data.batch_size 64 (not swept) -> data.py:35-37 DataLoader(batch_size=64, drop_last=True)"),
 "batch.grad_accum":T(1,psc+":14-16 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(64,"64 x 1 x 1"),
 "data.image_size":T(28,"data.py:25-26 torchvision MNIST 28 x 28 with ToTensor only (models.py:55 example input 32 x 1 x 28 x 28)"),
 "precision.mode":T("fp32",psc+":14-16 no precision: Lightning default 32-true"),
 "optimizer.name":T("SGD",psc+":8 optimizer sgd -> models.py:117-118 torch.optim.SGD(momentum and nesterov swept by "+pss+":4-5)",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,pss+":2 data.num_workers=4 ("+psc+":21 num_workers 4) -> data.py:37"),
 "data.pin_memory":T(False,"data.py:36-37 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","models.py:14-37 a three-convolution CNN trained from scratch"),
},held_out=True,note=H50+"; README.md:58-69, the job is "+pss+" run from the repository root (python3 train.py -m data.num_workers=4 trainer.max_epochs=20 with comma lists for three channel widths, learning rate, momentum and nesterov: a Hydra multirun that runs train.py's @hydra.main(config_path='conf', config_name='config') once per combination, 64 sequential single-GPU runs (two values each for six keys) in one process; each builds a LitCNN (three 3x3 convolutions, global average pooling, two linear layers) and an MNISTDataModule and calls lightning Trainer(**cfg.trainer) with TensorBoard and wandb loggers, early stopping and histogram hooks; MNIST digit classification, a Hydra/Lightning/W&B demo). Not labelled: model.ref (an in-repository class), model.num_parameters (the sweep changes the channel widths run by run: 2,324 at conf/config.yaml's defaults, more for the wider combinations)")
