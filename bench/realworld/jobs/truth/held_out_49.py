"""The forty-ninth held-out set of the jobs benchmark (run.py --set held-out-49): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name and each bare repository name was
grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and appears nowhere.
Parameter counts are labelled only where a published checkpoint's shape gives them or the
repository's own layer definitions fix them exactly."""
from .core import J, T

H49="forty-ninth held-out set"

FL=("bupticybee/FastLoRAChat","05c0671422a77c8688b7f164cf45d40dfcf7e65a")
fls="finetune_fastchat_lora.sh"
flt="finetune_fastchat.py"
J("fastlorachat-llama-13b-lora-fire-hf-trainer-device-map-auto-1proc",*FL,["."],".",[fls],{
 "model.num_parameters":T(13015864320,fls+":3 'baes model https://huggingface.co/huggyllama/llama-13b', :6 --base_model '../llama-13b/' (README.md:64-68 git clone huggyllama/llama-13b): LLaMA-13B, 13.02B published (plus one [PAD] row in the embedding and head, "+flt+":367-372)",rel_tol=0.1),
 "dist.world_size":T(1,fls+":4 the torchrun line is a comment, so :5 python3 "+flt+" runs as one process ("+flt+":324 WORLD_SIZE unset -> 1)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none",flt+":323,357 device_map='auto' spreads one process's layers over the visible GPUs, :481-484 model_parallel: no data parallelism"),
 "batch.micro":T(2,flt+":267 micro_batch_size default 2 (not passed) -> :490 per_device_train_batch_size"),
 "batch.grad_accum":T(64,flt+":266 batch_size 128 // 2 at :319 (no division by world size in one process, :325-339) -> :491"),
 "batch.global":T(128,"2 x 64 x 1"),
 "data.seq_len":T(1024,flt+":362 tokenizer model_max_length=1024 -> :73-79 conversations truncated at 1024 (lazy_preprocess default True, :248-253, :215-217); cutoff_len 256 only feeds the unused tokenize() at :379-399"),
 "data.padding":T("dynamic",flt+":233-239 pad_sequence to the batch's longest"),
 "precision.mode":T("amp_fp16",flt+":356 torch_dtype=torch.float16 frozen base + :495 TrainingArguments fp16=True: fp16 autocast and GradScaler over the LoRA weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("adamw_torch",flt+":497 optim='adamw_torch'",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,flt+":422 prepare_model_for_int8_training commented out; no gradient_checkpointing in :489-509"),
 "data.num_workers":T(0,flt+":489-509 no dataloader_num_workers: TrainingArguments default 0"),
 "peft.method":T("lora",flt+":424-432 LoraConfig + get_peft_model over a fp16 base",any_of=["lora"]),
 "peft.rank":T(8,flt+":273 lora_r default 8 -> :425"),
},held_out=True,note=H49+"; README.md:71-86 'Training (finetune_fastchat.py)', the job is "+fls+" run from the repository root (its torchrun prefix commented out, leaving python3 finetune_fastchat.py --base_model '../llama-13b/' --data_path '../dataset/cleaned_processed.json' --output_dir './lora-fastchat-alpaca' --num_epochs 3: an alpaca-lora-style script driven by fire.Fire(train) with keyword defaults, the LLaMA loaded in fp16 with device_map='auto', FastChat's conversation preprocessing with human turns masked, a lazy dataset and a pad_sequence collator, LoRA through transformers.Trainer; LLaMA-13B LoRA chat tuning on cleaned ShareGPT conversations, LLM SFT). Not labelled: model.ref (a local directory), dist.devices_per_node (device_map='auto' over every visible GPU, a number the files do not give), compile.enabled ("+flt+":521-522 torch.compile only when the string torch.__version__ >= '2', after the Trainer already holds the uncompiled model; torch unpinned), data.pin_memory (the installed transformers' default)")

VA=("snucmlrl/vi_latent_action","a35a9927d8270072f941e50f7ea70b4a2126b66d")
vas="latent_action_model/train.sh"
vay="latent_action_model/config/lam.yaml"
vad="latent_action_model/genie/dataset.py"
J("vi-latent-action-dinov2-lam-lightningcli-torchrun-standalone-ddp-4gpu",*VA,["."],"latent_action_model",["train.sh"],{
 "dist.world_size":T(4,vas+":1 torchrun --standalone --nnodes 1 --nproc-per-node 4; "+vay+":37-38 trainer num_nodes 1, devices 4"),
 "dist.nodes":T(1,vas+":1 --nnodes 1; "+vay+":37 num_nodes 1"),
 "dist.devices_per_node":T(4,vas+":1 --nproc-per-node 4; "+vay+":38 devices 4"),
 "dist.sharding":T("ddp",vay+":39 strategy ddp_find_unused_parameters_false"),
 "batch.micro":T(32,vay+":27 data.batch_size 32 -> "+vad+":190,93-101 DataLoader(batch_size=32) per process"),
 "batch.grad_accum":T(1,vay+":34-57 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(128,"32 x 1 x 4"),
 "data.image_size":T(224,vay+":28 data.resolution 224 -> "+vad+":191,216 resize_resolution (224, 224)"),
 "precision.mode":T("amp_fp16",vay+":40 precision 16-mixed",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW",vay+":15-19 optimizer class_path torch.optim.AdamW -> latent_action_model/genie/model.py:279-281",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in latent_action_model/"),
 "data.num_workers":T(0,vad+":198 num_workers = 0 (RLDS rolls its own parallelism) -> :99"),
 "data.pin_memory":T(False,vad+":93-101 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile in latent_action_model/"),
 "peft.method":T("none","latent_action_model/genie/modules/lam.py:42-43 a frozen DINOv2 encoder (requires_grad_(False)); the latent-action encoder, quantiser and decoder are trained from scratch"),
},held_out=True,note=H49+"; README.md:59-76 'LAM training: cd latent_action_model ... bash train.sh' (torchrun --standalone --nnodes 1 --nproc-per-node 4 main.py fit --config config/lam.yaml, output teed to lam.log: a LightningCLI over the DINO_LAM LightningModule and the LightningOpenX datamodule, the YAML filling model, data and trainer sections with an optimizer given by class_path, a frozen DINOv2 ViT-B/14-reg encoder from torch.hub whose patch features feed a 12-block spatio-temporal latent-action encoder/decoder with a vector quantiser, Open-X RLDS video pairs from a TFDS pipeline; UniVLA-style latent action model pre-training on robot videos, stage one of a vision-language-action pipeline). Not labelled: model.ref (a torch.hub entry point, not a hub id), model.num_parameters (the spatio-temporal blocks of latent_action_model/genie/modules/blocks.py are not counted here)")

RF=("Ckck12/roi_face_graph","07a6d281077703d9c9488c0dcf7ab2e78e7fa7a2")
rfs="scripts/run_ddp.sh"
rfc="config/config.yaml"
rft="src/train.py"
J("roi-face-graph-clip-vit-b32-gat-gru-deepfake-torchrun-ddp-8gpu",*RF,["."],".",[rfs],{
 "dist.world_size":T(8,rfs+":5 torchrun --nproc_per_node=8 "+rft+" --ddp -> "+rft+":20-30 init_process_group ("+rfc+":8 world_size 8)"),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(8,rfs+":5 --nproc_per_node=8"),
 "dist.sharding":T("ddp",rft+":83-84 DistributedDataParallel(model, device_ids=[local_rank])"),
 "batch.micro":T(16,rfc+":2 batch_size 16 -> "+rft+":42-52 -> src/data/dataloader.py:57-63 DataLoader(batch_size=16) with a DistributedSampler per process"),
 "batch.grad_accum":T(1,"src/engine/trainer.py:28-32 zero_grad, backward and step every batch"),
 "batch.global":T(128,"16 x 1 x 8"),
 "data.image_size":T(224,rfc+":19 model.image_size 224 -> src/data/dataloader.py:29-33 Resize((224, 224))"),
 "precision.mode":T("fp32","src/models/vit_backbone.py:28-33 the CLIP model cast to float; src/engine/trainer.py:23-32 no autocast or GradScaler"),
 "optimizer.name":T("Adam",rft+":88 optim.Adam(model.parameters(), lr=1e-5)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(28,rfc+":5 num_workers 28 -> src/data/dataloader.py:61"),
 "data.pin_memory":T(False,"src/data/dataloader.py:57-63 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","src/models/vit_backbone.py:22-44 OpenAI CLIP ViT-B/32 frozen except its last two visual blocks (no adapters); the ROI attention, GAT, GRU and MLP head trained from scratch"),
},held_out=True,note=H49+"; the job is "+rfs+" run from the repository root with no argument (CONFIG_FILE defaults to ./config/config.yaml; torchrun --nproc_per_node=8 src/train.py --config ./config/config.yaml --ddp: argparse plus a YAML dict, init_process_group with world_size and rank from the config/environment, a DistributedSampler over FaceForensics++ frame sequences with per-frame facial-landmark ROI boxes, an OpenAI-CLIP ViT-B/32 backbone whose last two blocks are trained, ROI attention with overlap bias, a graph-attention network over face parts and a GRU over frames, a hand-written loop with wandb; deepfake video detection, binary classification). Not labelled: model.ref (an OpenAI-CLIP name for clip.load, not a hub id), model.num_parameters (the GAT and ROI modules' sizes are not counted here)")

CB=("bigohofone/assignment1-basics-solution","83782a364cd188be9cbc403a183c46b1466902d3")
cbs="cs336_basics/scripts/ts_train_model.sh"
cbt="cs336_basics/solutions/_train_model.py"
cbc="cs336_basics/configs"
J("cs336-a1-transformer-lm-4l-512d-hydra-deepspeed-launcher-zero2-8gpu",*CB,["."],".",[cbs],{
 "model.num_parameters":T(22696448,cbc+"/model/default.yaml:2-8 vocab 10000, d_model 512, d_ff 1344, 4 layers -> cs336_basics/solutions/transformer_lm.py:35-42 untied embedding and lm_head (2 x 5,120,000), 4 blocks of 3,113,984 (transformer_block.py:27-41: a bias-free 512x1536 qkv and 512x512 output projection, a SwiGLU of three 512x1344 matrices, two RMSNorms), final RMSNorm 512",rel_tol=0.05),
 "dist.world_size":T(8,cbs+":11 deepspeed --num_gpus=8"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one node"),
 "dist.devices_per_node":T(8,cbs+":11 --num_gpus=8"),
 "dist.sharding":T("zero2",cbc+"/config.yaml:5 deepspeed: stage2 -> "+cbc+"/deepspeed/stage2.yaml:6-7 zero_optimization stage 2 -> "+cbt+":53-63 deepspeed.initialize(config=ds_config)"),
 "dist.offload_optimizer":T("none",cbc+"/deepspeed/stage2.yaml:6-13 no offload_optimizer"),
 "batch.micro":T(8,cbs+":2,13 training.batch_size=64 is the global batch -> "+cbt+":43-44 local_bsz = 64 // 8 -> :56 train_micro_batch_size_per_gpu and :85 get_batch(dataset, 8, ...)"),
 "batch.grad_accum":T(1,cbt+":57 gradient_accumulation_steps 1"),
 "batch.global":T(64,cbt+":55 train_batch_size = training.batch_size 64 ("+cbs+":13)"),
 "data.seq_len":T(256,cbc+"/training/default.yaml:8 max_seq_len 256 -> "+cbt+":85 get_batch windows of 256 tokens"),
 "data.padding":T("packed",cbt+":85 cs336_basics/solutions/data_loading.py get_batch: random 256-token windows of one token stream",any_of=["packed"]),
 "precision.mode":T("fp32",cbc+"/deepspeed/stage2.yaml: no fp16 or bf16 section, model built in fp32"),
 "optimizer.name":T("AdamW",cbt+":16,51 the repository's own AdamW (cs336_basics/solutions/adamw.py) handed to deepspeed.initialize (stage2.yaml:15 zero_allow_untested_optimizer)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,cbt+":85 no torch DataLoader: batches sliced from a memory-mapped array in the training process"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H49+"; the job is "+cbs+" run from the repository root (bsz=64, lr and total_iters rescaled by python -c, then uv run deepspeed --num_gpus=8 ./cs336_basics/solutions/_train_model.py training.lr=$_lr training.batch_size=64 training.total_iters=20000: a @hydra.main over cs336_basics/configs/config.yaml with model/training/tokenizer/deepspeed groups, --local_rank stripped from sys.argv before Hydra parses it, the Hydra training.batch_size taken as the global batch and divided by the world size, a from-scratch pre-norm RoPE/SwiGLU TransformerLM with the course's own Linear, Embedding, RMSNorm and AdamW, a DeepSpeed ZeRO-2 engine with a hand-set cosine learning rate, memory-mapped TinyStories token windows, wandb; Stanford CS336 assignment 1 language-model pre-training on TinyStories). Not labelled: model.ref (an in-repository class)")

SF=("song-wx/SIFT","5bef8a06ed9fa2587013c6f898222d047bde56e2")
sfs="exp/instruction_finetuning/lora_llama_30b_alpaca.sh"
sft="exp/instruction_finetuning/train.py"
sfd="exp/instruction_finetuning/configs/default_offload_opt_param.json"
J("sift-llama-30b-lora-r128-alpaca-deepspeed-launcher-hf-trainer-zero3-offload-4gpu",*SF,["."],"exp/instruction_finetuning",["lora_llama_30b_alpaca.sh"],{
 "model.num_parameters":T(32528943616,sfs+":5 --model_name_or_path /data/share/pretrained/llama-30b: LLaMA-30B (60 layers, hidden 6656, intermediate 17920), 32.5B published (plus one [PAD] row, "+sft+":233-247)",rel_tol=0.1),
 "dist.world_size":T(4,sfs+":2 CUDA_VISIBLE_DEVICES=0,1,2,3 and :4 deepspeed --num_gpus=4"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one node"),
 "dist.devices_per_node":T(4,sfs+":4 --num_gpus=4"),
 "dist.sharding":T("zero3",sfs+":27 --deepspeed ./configs/default_offload_opt_param.json -> "+sfd+":23-24 zero_optimization stage 3"),
 "dist.offload_optimizer":T("cpu",sfd+":25-28 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu",sfd+":29-32 offload_param device cpu"),
 "batch.micro":T(2,sfs+":14 --per_device_train_batch_size 2"),
 "batch.grad_accum":T(64,sfs+":16 --gradient_accumulation_steps 64"),
 "batch.global":T(512,"2 x 64 x 4"),
 "data.seq_len":T(512,sft+":60-63 model_max_length default 512 (not passed) -> :226-232 tokenizer, :124-131 truncation at 512; batches padded to the longest (:196-206)"),
 "data.padding":T("dynamic",sft+":198-201 pad_sequence to the batch's longest"),
 "precision.mode":T("bf16",sft+":223 torch_dtype=torch.bfloat16 weights and "+sfs+":7 --bf16 True -> "+sfd+":2-4 bf16 enabled auto: DeepSpeed bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",sft+":249 optimizer None (no --gradient_checkpointing, so :257-271 is skipped) -> :295 Trainer(optimizers=(None, None)) -> "+sfd+":5-12 DeepSpeed optimizer type AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,sfs+": no --gradient_checkpointing: TrainingArguments default False"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",sfs+":24 --finetuning_type lora -> "+sft+":250-255 peft LoraConfig on q/k/v/o and the three MLP projections (:80-85)",any_of=["lora"]),
 "peft.rank":T(128,sfs+":25 --lora_r 128 -> "+sft+":252"),
},held_out=True,note=H49+"; the job is "+sfs+" run from its folder (NCCL_DEBUG and CUDA_VISIBLE_DEVICES=0,1,2,3 exported, then deepspeed --num_gpus=4 --master_port=6000 train.py --model_name_or_path /data/share/pretrained/llama-30b --bf16 True --per_device_train_batch_size 2 --gradient_accumulation_steps 64 --finetuning_type lora --lora_r 128 --lora_alpha 256 --deepspeed ./configs/default_offload_opt_param.json ...: tatsu-lab/stanford_alpaca's train.py (an earlier set's repository) extended with a finetuning_type switch between full, peft LoRA and the paper's sparse increment fine-tuning (SIFT, the repository's sift/ package), HfArgumentParser over model/data/training dataclasses, the model loaded in bf16, transformers.Trainer under DeepSpeed ZeRO-3 with CPU offload of parameters and optimizer; the LoRA baseline of the SIFT paper, LLaMA-30B on the Alpaca 52k instructions, LLM SFT). Not labelled: model.ref (a local directory), data.pin_memory (the installed transformers' default)")

LS=("godweiyang/ls-gpt2-demo","681b25730506e28660c97f6285e6aa841b79e827")
J("ls-gpt2-demo-gpt2-chinese-lightseq-hf-trainer-torch-distributed-launch-fp16-8gpu",*LS,["."],".",
  ["--","python3","-m","torch.distributed.launch","--nproc_per_node=8","train.py",
   "--model_name_or_path","uer/gpt2-chinese-cluecorpussmall","--train_file","data/train.txt",
   "--per_device_train_batch_size","16","--per_device_eval_batch_size","8","--num_train_epochs","150",
   "--learning_rate","1.5e-4","--output_dir","model/fp16","--overwrite_output_dir","--fp16",
   "--logging_steps","10","--enable_quant","false"],{
 "model.ref":T("uer/gpt2-chinese-cluecorpussmall","README.md:20 --model_name_or_path -> train.py:61-66 AutoConfig/AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(102068736,"uer/gpt2-chinese-cluecorpussmall: GPT-2 small (12 layers, 768 wide, 1024 positions) with a 21128-token BERT vocabulary, tied head: 102.1M; layer.py:61-79 swaps in LightSeq layers holding the same weights",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:17-18 python3 -m torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes: one node"),
 "dist.devices_per_node":T(8,"README.md:18 --nproc_per_node=8"),
 "dist.sharding":T("ddp","HF Trainer under torch.distributed.launch: DistributedDataParallel"),
 "batch.micro":T(16,"README.md:22 --per_device_train_batch_size 16"),
 "batch.grad_accum":T(1,"no --gradient_accumulation_steps: TrainingArguments default 1"),
 "batch.global":T(128,"16 x 1 x 8"),
 "data.seq_len":T(500,"train.py:28 block_size default 500 (not passed) -> :85-97 the text concatenated and cut into 500-token blocks"),
 "data.padding":T("packed","train.py:87-97 group_texts: concatenated blocks, no padding",any_of=["packed"]),
 "precision.mode":T("amp_fp16","README.md:28 --fp16 -> TrainingArguments fp16: autocast and GradScaler (layer.py:53 and LightSeq's converted layers also read training_args.fp16)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","no --optim: the HF Trainer's default AdamW",any_of=["AdamW","adamw","adamw_torch","adamw_hf"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","full training of the pre-trained GPT-2 (README.md:14 'pretrain' on the group-chat corpus)"),
},held_out=True,note=H49+"; README.md:12-31 'fp16 training: python3 -m torch.distributed.launch --nproc_per_node=8 train.py --model_name_or_path uer/gpt2-chinese-cluecorpussmall --train_file data/train.txt --per_device_train_batch_size 16 --num_train_epochs 150 --learning_rate 1.5e-4 --output_dir model/fp16 --overwrite_output_dir --fp16 --logging_steps 10 --enable_quant false' (the repository has no launch script, so the README's command is given directly: HfArgumentParser over two small dataclasses and TrainingArguments, a BertTokenizer, the GPT-2 blocks and embedding replaced by LightSeq's fused CUDA layers with optional int8 quantisation-aware training, run_clm-style grouped text blocks, transformers.Trainer; a LightSeq speed demo, continued GPT-2 language-model training on a Chinese chat corpus). Not labelled: data.pin_memory (the installed transformers' default)")

XM=("FSoft-AI4Code/XMainframe","801033385e0457667aff301dc07df1c1b8ca4b04")
xms="scripts/instruct.sh"
xmy="recipes/deepseek/lora_instruct.yaml"
xma="recipes/accelerate_configs/multi_gpu.yaml"
xmt="train_instruct.py"
J("xmainframe-deepseek-instruct-qlora-trl-sft-accelerate-multi-gpu-4gpu",*XM,["."],".",[xms],{
 "dist.world_size":T(4,xms+":2-4 accelerate launch --config_file "+xma+" --num_processes=4 (over "+xma+":10's 8)"),
 "dist.nodes":T(1,xma+":9 num_machines 1"),
 "dist.devices_per_node":T(4,xms+":4 --num_processes=4 on one machine"),
 "dist.sharding":T("ddp",xma+":3 distributed_type MULTI_GPU -> Trainer DDP (each rank's 4-bit model on its own GPU, src/alignment/model_utils.py:38-40 via "+xmt+":160)"),
 "batch.micro":T(3,xmy+":58 per_device_train_batch_size 3"),
 "batch.grad_accum":T(4,xmy+":41 gradient_accumulation_steps 4"),
 "batch.global":T(48,"3 x 4 x 4"),
 "data.seq_len":T(4096,xmy+":52 max_seq_length 4096 -> "+xmt+":185-187 SFTTrainer(max_seq_length=4096, packing=True)"),
 "data.padding":T("packed",xmt+":187 packing=True",any_of=["packed"]),
 "precision.mode":T("amp_bf16",xmy+":38 bf16 true (autocast over the LoRA weights) and "+xma+":8 mixed_precision bf16; the 4-bit base computes in "+xmy+":4's float16 (src/alignment/model_utils.py:44-51)",any_of=["amp_bf16","bf16"]),
 "precision.weights_bits":T(4,xmy+":11 load_in_4bit true -> src/alignment/model_utils.py:44-55 BitsAndBytesConfig(load_in_4bit=True)"),
 "precision.quant_type":T("nf4","src/alignment/configs.py:184-186 bnb_4bit_quant_type default nf4 (not set in "+xmy+")"),
 "precision.double_quant":T(False,"src/alignment/configs.py:187 use_bnb_nested_quant default False (the --use_nested_quant flag is only in scripts/ft.sh)"),
 "task.mode":T("qlora","4-bit NF4 base + LoRA adapters ("+xmy+":11-24)"),
 "optimizer.name":T("adamw_torch","src/alignment/configs.py:255 SFTConfig optim default adamw_torch (not set in "+xmy+")",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,xmy+":42-44 gradient_checkpointing true (use_reentrant false)"),
 "model.attn_implementation":T("flash_attention_2",xmy+":5 use_flash_attention_2 true -> "+xmt+":157",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(0,"no dataloader_num_workers in "+xmy+": TrainingArguments default 0 (:35 preprocessing_num_workers is datasets.map's)"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",xmy+":12-24 use_peft, LoRA on the seven projections and lm_head -> src/alignment/model_utils.py:95-107 get_peft_config -> "+xmt+":188",any_of=["lora","qlora"]),
 "peft.rank":T(16,xmy+":13 lora_r 16"),
},held_out=True,note=H49+"; the job is "+xms+" run from the repository root (ACCELERATE_LOG_LEVEL=info accelerate launch --config_file recipes/accelerate_configs/multi_gpu.yaml --num_processes=4 --main_process_port 9505 train_instruct.py recipes/deepseek/lora_instruct.yaml, the 4-bit override flags after it commented out: an alignment-handbook-derived project (an earlier set's repository) with H4ArgumentParser reading the YAML, feather files and Open-Orca/SlimOrca-Dedup concatenated and formatted with a chat template, a 4-bit model built by TRL SFTTrainer from model_init_kwargs with peft LoRA, packing and NEFTune noise; XMAiNframe, instruction tuning of a DeepSeek-Coder-based mainframe/COBOL model, LLM SFT). The repository's other script, scripts/ft.sh (FSDP QLoRA), passes flags the parser does not define. Not labelled: model.ref and model.num_parameters (a local directory, deepseek_16b_lora, whose size is not stated; README.md:116 describes 7B and 10.5B releases), data.pin_memory (the installed transformers' default)")

TD=("tohtana/ds_repro_2746","3e7f5acb35039b887914e0ab0c413963c265a80a")
tds="run_t5_ds_peft.sh"
tdt="run_seq2seq_deepspeed_peft.py"
tdd="configs/ds_flan_t5_z3_config_bf16.json"
J("ds-repro-2746-flan-t5-base-prefix-tuning-seq2seq-trainer-deepspeed-zero3-4gpu",*TD,["."],".",[tds],{
 "model.ref":T("google/flan-t5-base",tds+":2 --model_id google/flan-t5-base -> "+tdt+":104-107 AutoModelForSeq2SeqLM.from_pretrained"),
 "model.num_parameters":T(247577856,"google/flan-t5-base (T5 v1.1 base: 12+12 layers, d_model 768, gated-GELU d_ff 2048, untied head): 248M published; the prefix encoder adds 20 virtual tokens' key/value rows ("+tdt+":109)",rel_tol=0.1),
 "dist.world_size":T(4,tds+":1 deepspeed --num_gpus=4"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one node"),
 "dist.devices_per_node":T(4,tds+":1 --num_gpus=4"),
 "dist.sharding":T("zero3",tds+":9 --deepspeed "+tdd+" -> "+tdt+":154 Seq2SeqTrainingArguments(deepspeed=...) -> "+tdd+":22-23 zero_optimization stage 3"),
 "dist.offload_optimizer":T("none",tdd+":22-33 no offload_optimizer"),
 "dist.offload_params":T("none",tdd+":22-33 no offload_param"),
 "batch.micro":T(8,tds+":5 --per_device_train_batch_size 8 -> "+tdt+":145"),
 "batch.grad_accum":T(1,tdt+":143-170 no gradient_accumulation_steps: default 1 ("+tdd+":34 auto)"),
 "batch.global":T(32,"8 x 1 x 4"),
 "data.padding":T("max_length","prepare_dataset.py:63-71 the dataset saved to disk is padded to max_length (the longest source, capped at the model's length)"),
 "optimizer.name":T("AdamW",tdd+":5-13 DeepSpeed optimizer type AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,tdt+":103 args.gradient_checkpointing = False overrides :68's default True -> :155"),
 "data.num_workers":T(0,tdt+":143-170 no dataloader_num_workers: default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("prefix_tuning",tdt+":109-110 peft PrefixTuningConfig(num_virtual_tokens=20) + get_peft_model: only the prefix encoder trains",any_of=["prefix_tuning","prefix"]),
},held_out=True,note=H49+"; the job is "+tds+" run from the repository root (deepspeed --num_gpus=4 ./run_seq2seq_deepspeed_peft.py --model_id google/flan-t5-base --dataset_path data --epochs 1 --per_device_train_batch_size 8 --generation_max_length 129 --lr 1e-4 --deepspeed configs/ds_flan_t5_z3_config_bf16.json, output teed to run_t5_ds.log: philschmid's FLAN-T5 DeepSpeed fine-tuning script with argparse parse_known_args, peft prefix tuning added, a Seq2SeqTrainer over a 1000-sample subset of a dataset tokenised beforehand by prepare_dataset.py; a reproduction for a DeepSpeed issue about PEFT prefix tuning under ZeRO-3, summarisation with FLAN-T5). Not labelled: precision.mode ("+tdt+":69-74 --bf16 defaults to True only when torch.cuda.get_device_capability()[0] == 8, an Ampere card; on other cards the run is fp32 (the JSON's bf16 auto follows the Trainer): a property of the machine), data.seq_len (prepare_dataset.py:47-58 the source and target lengths are computed from the data), data.pin_memory (the installed transformers' default)")

VC=("jamesafranke/ViT_clouds","b5fa83d2c54055e5512b634cacf7a28efc257029")
vcs="run/exec_run_v2.bash"
vct="scripts/torchrun_test.py"
J("vit-clouds-dino-vit-1024px-modis-sbatch-nsys-torchrun-ddp-fp16-autocast-4gpu",*VC,["."],".",[vcs],{
 "dist.world_size":T(4,vcs+":8 #SBATCH --gres=gpu:4, :29 torchrun --nnodes=1 --nproc_per_node=4 -> "+vct+":93 init_process_group"),
 "dist.nodes":T(1,vcs+":29 --nnodes=1"),
 "dist.devices_per_node":T(4,vcs+":29 --nproc_per_node=4"),
 "dist.sharding":T("ddp",vct+":113 DDP(model, device_ids=[device_id], find_unused_parameters=True)"),
 "batch.micro":T(60,vcs+":19,33 --batch_size 60 -> "+vct+":100-108 DataLoader(batch_size=60) with a DistributedSampler per process"),
 "batch.grad_accum":T(1,vct+":141-154 zero_grad, backward and step every batch"),
 "batch.global":T(240,"60 x 1 x 4"),
 "data.image_size":T(1024,vcs+":21,31 --image_size 1024 (patch_${image_size} tiles) -> "+vct+":74-77 ViT and Dino image_size"),
 "precision.mode":T("amp_fp16",vct+":146 torch.autocast(device_type='cuda', dtype=torch.float16) over fp32 weights, with no GradScaler (:151-153 plain backward and step)",any_of=["amp_fp16"]),
 "optimizer.name":T("Adam",vct+":131 torch.optim.Adam(lr=3e-4)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,vcs+":15,36 --num_workers 4 -> "+vct+":105"),
 "data.pin_memory":T(False,vct+":106 pin_memory commented out: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised training from scratch"),
},held_out=True,note=H49+"; the job is "+vcs+" submitted from the repository root (an sbatch header asking for four GPUs, shell variables for the pipeline and model, then time nsys profile --trace=cuda,nvtx ... torchrun --nnodes=1 --nproc_per_node=4 --rdzv_backend=c10d --rdzv_endpoint=localhost:6000 ${HOME}/ViT_clouds/scripts/torchrun_test.py --image_size 1024 --patch_size 32 --batch_size 60 --mlp_dim 2048 --prefetch_factor 15 --num_workers 4 --epochs 5: the training script named through an absolute path under $HOME that is this repository's scripts/ folder; argparse, a vit_pytorch ViT (dim 1024, depth 6, 8 heads) wrapped in vit_pytorch's Dino learner with a 65336-way projection head and an EMA teacher, DDP with find_unused_parameters, fp16 autocast without a GradScaler, NVTX ranges for profiling; DINO self-supervised pre-training on MODIS cloud-property image tiles, a profiling run). Not labelled: model.ref (a vit_pytorch class), model.num_parameters (vit_pytorch's Dino projection heads and EMA teacher copy: counts not stated here)")

MV=("donglinkang2021/MinVQVAE","a22527f5e4ccf04e24e5eb4b93872711bf49b0f8")
mvc="configs"
J("minvqvae-vanilla-vae-cifar10-256px-hydra-lightning-deepspeed-strategy-2gpu",*MV,["."],".",
  ["--","CUDA_VISIBLE_DEVICES=0,1","python","train.py","dataset=cifar10","task_name=img2img-vae-cifar10"],{
 "model.num_parameters":T(3235587,mvc+"/model/vanilla_vae.yaml:1-10 VanillaVAE(in_channel 3, latent_dim 64, hidden_dims 32-64-128-256-512) -> minvqvae/models/vanilla_vae.py:8-65: five stride-2 3x3 convolutions (1,568,576), fc_mu, fc_var and dec_in (98,944), four 3x3 transposed convolutions and a 32->3 output one (1,568,067)",rel_tol=0.05),
 "dist.world_size":T(2,"run.sh:4 CUDA_VISIBLE_DEVICES=0,1; "+mvc+"/trainer/train.yaml:5 devices 2, :8 num_nodes 1"),
 "dist.nodes":T(1,mvc+"/trainer/train.yaml:8 num_nodes 1"),
 "dist.devices_per_node":T(2,mvc+"/trainer/train.yaml:5 devices 2"),
 "dist.sharding":T("zero2",mvc+"/train.yaml:9 strategy: deepspeed -> "+mvc+"/strategy/deepspeed.yaml:1 lightning DeepSpeedStrategy with no arguments (Lightning's default stage 2) -> "+mvc+"/trainer/train.yaml:4"),
 "dist.offload_optimizer":T("none",mvc+"/strategy/deepspeed.yaml:1 no offload_optimizer (Lightning default False)"),
 "batch.micro":T(256,mvc+"/train/default.yaml:3 batch_size 256 -> "+mvc+"/dataset/cifar10.yaml:3 -> minvqvae/datasets/base.py:50-56 DataLoader per process"),
 "batch.grad_accum":T(1,mvc+"/trainer/train.yaml:1-9 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(512,"256 x 1 x 2"),
 "data.image_size":T(256,mvc+"/dataset/cifar10.yaml:5 image_size 256 -> minvqvae/datasets/base.py:31-34 Resize((256, 256)) of 32-pixel CIFAR-10 images"),
 "precision.mode":T("fp32",mvc+"/trainer/train.yaml:6 precision 32"),
 "optimizer.name":T("AdamW","minvqvae/img2img.py:78-80 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,mvc+"/train/default.yaml:4 num_workers 4 -> "+mvc+"/dataset/cifar10.yaml:4 -> minvqvae/datasets/base.py:54"),
 "data.pin_memory":T(False,"minvqvae/datasets/base.py:51-56 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H49+"; run.sh:4,11-13, its second command (export CUDA_VISIBLE_DEVICES=0,1, then python train.py dataset=cifar10 task_name=img2img-vae-cifar10; run.sh opens a tmux session and activates conda first, so the command is given directly: a @hydra.main over configs/train.yaml whose defaults pick dataset, task, model, train, logger, strategy and trainer groups, hydra.utils.instantiate of a LightningDataModule, an Img2Img LightningModule wrapping a VanillaVAE, and lightning.Trainer with a DeepSpeedStrategy instance and a WandbLogger (swanlab syncing wandb); a convolutional VAE on CIFAR-10 upsampled to 256 pixels, image reconstruction). Not labelled: model.ref (an in-repository class)")

QV=("liujingcs/Q-ViT-DeiT","ec6824233815270e11caf7692ff85953e9624026")
qvs="script/m3/float_train_cifar.sh"
J("q-vit-deit-tiny-float-cifar100-224px-torch-distributed-launch-ddp-2gpu",*QV,["."],".",[qvs],{
 "model.num_parameters":T(5543716,qvs+":3 --model deit_tiny_patch16_224_float -> models/vit.py:318-321 VisionTransformer(patch 16, embed_dim 192, depth 12, 3 heads, mlp_ratio 4, qkv_bias) with datasets.py:62-64 CIFAR-100's 100-class head (main.py:116-130): DeiT-Tiny, 5.72M with 1000 classes, 5.54M with 100",rel_tol=0.05),
 "dist.world_size":T(2,qvs+":1-2 python -m torch.distributed.launch --nproc_per_node=2 --use_env -> utils.py:238-259 init_process_group"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes: one node"),
 "dist.devices_per_node":T(2,qvs+":2 --nproc_per_node=2"),
 "dist.sharding":T("ddp","main.py:169-170 DistributedDataParallel(find_unused_parameters=True)"),
 "batch.micro":T(128,qvs+":4 --batch-size 128 -> main.py:83-88 DataLoader(batch_size=128) per process"),
 "batch.grad_accum":T(1,"engine.py:200-208 zero_grad, backward and step every batch"),
 "batch.global":T(256,"128 x 1 x 2"),
 "data.image_size":T(224,"params.py:12 --input-size default 224 -> datasets.py:85-112 CIFAR images resized to 224 (timm create_transform for training)"),
 "precision.mode":T("fp32","main.py:309 train_one_epoch_tb -> engine.py:171 the autocast line commented out, :204-208 plain backward and step (the NativeScaler built at main.py:178 is unused)"),
 "optimizer.name":T("AdamW","params.py:26 --opt default adamw -> main.py:177 timm create_optimizer",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,"params.py:133 --num-workers default 10 -> main.py:86"),
 "data.pin_memory":T(True,"params.py:134-138 pin_mem default True -> main.py:87"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (main.py:118 pretrained=False; no --finetune)"),
},held_out=True,note=H49+"; the job is "+qvs+" run from the repository root (python -m torch.distributed.launch --nproc_per_node=2 --use_env main.py --model deit_tiny_patch16_224_float --batch-size 128 --dist-eval --epochs 300 --output_dir results/deit_tiny_float_cifar_bs128 --data-set CIFAR --data-path ...: a fork of facebookresearch/deit (an earlier set's repository) whose argparse lives in params.py and is parsed at import, a timm-registered ViT with separate q/k/v projections and optional LSQ quantisers (--wbits/--abits default -1: full precision here), RASampler repeated augmentation, Mixup/CutMix with soft-target cross-entropy, a per-epoch timm cosine schedule, and a training loop (train_one_epoch_tb) whose autocast was commented out; the full-precision DeiT-Tiny baseline on CIFAR-100 for quantised-ViT experiments, image classification). Not labelled: model.ref (a timm-registered in-repository model name)")

DS=("lukemelas/deep-spectral-segmentation","b89b6506cd6c300e6c954d12f27d5215362b7ca1")
dsb="semantic-segmentation/config/base.yaml"
dsy="semantic-segmentation/config/train.yaml"
dst="semantic-segmentation/train.py"
J("deep-spectral-segmentation-deeplabv3plus-dino-resnet50-self-training-hydra-accelerate-1gpu",*DS,["semantic-segmentation"],"semantic-segmentation",
  ["--","python","train.py","lr=2e-4","data.loader.batch_size=96","segments_dir=/path/to/segmaps",'matching="[(0, 0), ... (19, 6), (20, 7)]"'],{
 "dist.world_size":T(1,"semantic-segmentation/README.md:61 plain python train.py: one process ("+dst+":29 Accelerator without a launcher)"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process on one GPU ("+dsb+":10 cpu False)"),
 "dist.sharding":T("none",dst+":78-82 accelerator.prepare in a single process: no DDP"),
 "batch.micro":T(96,"semantic-segmentation/README.md:61 data.loader.batch_size=96 (over "+dsb+":29's 144) -> "+dst+":71-72 DataLoader(**cfg.data.loader)"),
 "batch.grad_accum":T(1,dsy+":36 gradient_accumulation_steps 1 -> "+dst+":222"),
 "batch.global":T(96,"96 x 1 x 1 ("+dst+":75)"),
 "data.image_size":T(224,dsb+":33-34 resize_size 256, crop_size 224 -> semantic-segmentation/dataset/__init__.py:9-17 SmallestMaxSize(256) then 224 crops"),
 "precision.mode":T("fp32",dsb+":9 fp16 False -> "+dst+":29 Accelerator(fp16=False)"),
 "optimizer.name":T("AdamW",dsy+":41-45 optimizer kind timm, opt adamw -> semantic-segmentation/util.py:39-41 timm create_optimizer_v2",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,dsb+":30 num_workers 8 -> "+dst+":71-72"),
 "data.pin_memory":T(False,dsb+":31 pin_memory False -> "+dst+":71-72"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",dsy+":10 unfrozen_backbone_layers 1 -> "+dst+":48-52 every backbone child but the last frozen (no adapters); the DeepLabV3+ head trained"),
},held_out=True,note=H49+"; semantic-segmentation/README.md:59-62 'self-training using train.py: python train.py lr=2e-4 data.loader.batch_size=96 segments_dir=\"/path/to/segmaps\" matching=...' run from semantic-segmentation/ (a @hydra.main over config/train.yaml with base.yaml as a default, a plain accelerate Accelerator(fp16=cfg.fp16) in one process, a torchvision DeepLabV3+ head on a dilated DINO ResNet-50 from torch.hub with all but its last stage frozen, PASCAL VOC images with pseudo-labels from the spectral segmentation step loaded through albumentations, a timm AdamW and a transformers linear schedule, optional EMA off; self-training for unsupervised semantic segmentation, Deep Spectral Methods). Not labelled: model.ref (a torch.hub entry point, not a hub id), model.num_parameters (the DeepLabV3+ head's size is not stated here)")
