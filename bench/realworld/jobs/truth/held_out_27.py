"""The twenty-seventh held-out set of the jobs benchmark (run.py --set held-out-27): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H27="twenty-seventh held-out set"
FTM=("abacaj/fine-tune-mistral","c8c8ec16850ad43c3dc6cc8a9ab44e354c515c78")
J("fine-tune-mistral-7b-raw-fsdp-loop-multipack-torchrun-8gpu",*FTM,["."],".",["--","torchrun","--nnodes=1","--nproc-per-node=8","train.py"],{
 "model.ref":T("mistralai/Mistral-7B-v0.1","train.py:287 model_name literal -> :312 setup_model -> :55-60 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7240000000,"Mistral-7B-v0.1 (32 layers, hidden 4096, GQA 32/8, intermediate 14336, vocab 32000 untied): 7.24B",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:24 torchrun --nnodes=1 --nproc-per-node=<number of GPUs>, 8 filled in"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(8,"--nproc-per-node=8"),
 "dist.sharding":T("fsdp_full","train.py:321-335 FSDP(model, sharding_strategy=ShardingStrategy.FULL_SHARD, MistralDecoderLayer auto-wrap)"),
 "batch.grad_accum":T(1,"train.py:303 acc_steps = 0 ('not implemented'); :433-448 backward, clip, optimizer.step every batch"),
 "data.seq_len":T(2048,"train.py:295 max_length = 2048 -> :62-65 tokenizer model_max_length -> core/supervised_dataset.py:82-86 samples of 2048 tokens or more filtered out"),
 "precision.mode":T("bf16","train.py:59 from_pretrained(torch_dtype=torch.bfloat16) and :325-329 FSDP MixedPrecision bf16: bf16 weights, no fp32 copy, AdamW on bf16 parameters"),
 "optimizer.name":T("AdamW","train.py:206-212 torch.optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,"train.py:297 gradient_checkpointing = True -> :402-403 model.gradient_checkpointing_enable() (FSDP forwards the attribute to the wrapped model)"),
 "model.attn_implementation":T("eager","requirements.txt transformers==4.34.0: Mistral uses the eager attention unless use_flash_attention_2 is passed (it is not, train.py:55-60)"),
 "data.num_workers":T(0,"train.py:143-148 DataLoader without num_workers"),
 "data.pin_memory":T(True,"train.py:145 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","README.md:5 full fine-tuning, no adapter library"),
},held_out=True,note=H27+"; README.md:24 torchrun --nnodes=1 --nproc-per-node=<REPLACE_WITH_NUMBER_OF_GPUS> train.py with 8 filled in (a single-file raw loop whose settings are literals under if __name__ == '__main__', FSDP built by hand with a MixedPrecision policy over a bf16 model, a multipack batch sampler packing samples into 2 x 2048 tokens per rank; full fine-tuning of Mistral-7B). Not labelled: micro and global batch (core/multipack_sampler.py: each rank's batch holds as many samples as fit in batch_size x max_length = 4096 tokens, a count that varies per step)")
BZ=("project-baize/baize-chatbot","4fae6c4e550f087958c1f60746f0e6290e6b9f02")
J("baize-llama-7b-int8-lora-sys-argv-positional-1gpu",*BZ,["."],".",["finetune.py","--","7b","32","0.0002","alpaca,stackoverflow,quora"],{
 "model.ref":T("decapoda-research/llama-7b-hf","finetune.py:23 size = sys.argv[1] '7b' -> :61-65 LlamaForCausalLM.from_pretrained('decapoda-research/llama-{}-hf'.format(size))"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:159 python finetune.py: one process (:55 WORLD_SIZE unset -> 1)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, no DDP (:54 device_map='auto' places the 8-bit model, no data parallelism)"),
 "batch.micro":T(32,"finetune.py:21 MICRO_BATCH_SIZE = int(sys.argv[2]) = 32 -> :139"),
 "batch.grad_accum":T(2,"finetune.py:22,24 BATCH_SIZE 64 // 32 -> :141 (no division by world size in one process)"),
 "batch.global":T(64,"32 x 2 x 1 (finetune.py:22 BATCH_SIZE = 64)"),
 "data.seq_len":T(512,"finetune.py:27 CUTOFF_LEN = 512 -> :104-114 truncation to 513 tokens padded to max_length, the last dropped: every sample 512 tokens"),
 "data.padding":T("max_length","finetune.py:109 padding='max_length'"),
 "precision.mode":T("amp_fp16","finetune.py:145 TrainingArguments fp16=True: fp16 autocast + GradScaler over the fp32 LoRA weights of an int8 base"),
 "precision.weights_bits":T(8,"finetune.py:63 load_in_8bit=True"),
 "precision.quant_type":T("int8","finetune.py:63 load_in_8bit=True (bitsandbytes LLM.int8)"),
 "optimizer.name":T("AdamW","no optim in finetune.py:138-155 (the HF Trainer's default AdamW)",any_of=["AdamW","adamw","adamw_torch","adamw_hf"]),
 "memory.gradient_checkpointing":T(True,"finetune.py:72 prepare_model_for_int8_training (use_gradient_checkpointing default True)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "peft.method":T("lora","finetune.py:74-84 LoraConfig + get_peft_model"),
 "peft.rank":T(8,"finetune.py:28 LORA_R = 8 -> :75"),
 "peft.target_modules":T(["q_proj","k_proj","v_proj","down_proj","gate_proj","up_proj"],"finetune.py:32-39 TARGET_MODULES -> :77"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H27+"; README.md:159 python finetune.py 7b 32 0.0002 alpaca,stackoverflow,quora (a script reading its model size, micro batch, learning rate and datasets from sys.argv positions, the Hub id built by str.format from the size, the accumulation computed from a fixed total of 64, an int8 base with LoRA through the HF Trainer; LoRA chat tuning of LLaMA-7B on self-chat data). Not labelled: compile.enabled (finetune.py:165-166 torch.compile only when the string torch.__version__ >= '2', and torch is unpinned in requirements.txt: a property of the machine), attention implementation (transformers installed from git main, unpinned)")
LX=("AetherCortex/Llama-X","5a823351fe08e41aa7370ee609e6acdfe266d79a")
lxd="src/configs/deepspeed_config.json"
J("llama-x-7b-deepspeed-zero3-offload-auto-buckets-bare-launcher",*LX,["src","README.md","requirements.txt"],"src",["--","deepspeed","train.py","--model_name_or_path","huggyllama/llama-7b","--data_path","data/alpaca_data.json",
 "--output_dir","output/llama-7b-ft","--num_train_epochs","3","--model_max_length","512","--per_device_train_batch_size","64","--per_device_eval_batch_size","1",
 "--gradient_accumulation_steps","1","--evaluation_strategy","no","--save_strategy","steps","--save_steps","100","--save_total_limit","2","--learning_rate","2e-5",
 "--warmup_steps","2","--logging_steps","2","--lr_scheduler_type","cosine","--report_to","tensorboard","--gradient_checkpointing","True",
 "--deepspeed","configs/deepspeed_config.json","--fp16","True"],{
 "model.ref":T("huggyllama/llama-7b","README.md:173 --model_name_or_path (a converted LLaMA-7B folder; the Hub copy filled in) -> src/train.py:180-183 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.sharding":T("zero3",lxd+":3 stage 3"),
 "dist.offload_params":T("cpu",lxd+":8-11 offload_param device cpu"),
 "dist.offload_optimizer":T("cpu",lxd+":4-7 offload_optimizer device cpu"),
 "dist.overlap_comm":T(True,lxd+":12"),
 "dist.contiguous_gradients":T(True,lxd+":13"),
 "dist.reduce_bucket_size":T(16777216,lxd+":15 'auto' -> the HF Trainer fills hidden_size x hidden_size = 4096 x 4096 (transformers 4.31 integrations/deepspeed.py)"),
 "dist.stage3_prefetch_bucket_size":T(15099494,lxd+":16 'auto' -> the HF Trainer fills 0.9 x 4096 x 4096",rel_tol=0.01),
 "dist.stage3_max_live_parameters":T(0,lxd+":18 stage3_max_live_parameters 0"),
 "batch.micro":T(64,"README.md:178 --per_device_train_batch_size 64 ("+lxd+":44 'auto')"),
 "batch.grad_accum":T(1,"README.md:180 --gradient_accumulation_steps 1"),
 "data.seq_len":T(512,"README.md:177 --model_max_length 512 -> src/train.py:185-191 tokenizer model_max_length -> :103-109 truncation to 512"),
 "data.padding":T("dynamic","src/train.py:148-152 pad_sequence to the longest sample of the batch"),
 "precision.mode":T("fp16","README.md:192 --fp16 True and "+lxd+":22-23 fp16 enabled: DeepSpeed fp16, 16-bit weights with fp32 master copies in the offloaded optimizer"),
 "optimizer.name":T("AdamW",lxd+":31-32 DeepSpeed optimizer AdamW (DeepSpeedCPUAdam because of the optimizer offload)",any_of=["AdamW","adamw","DeepSpeedCPUAdam","cpu_adam","cpuadam"]),
 "memory.gradient_checkpointing":T(True,"README.md:190 --gradient_checkpointing True"),
 "model.attn_implementation":T("eager","README.md:151 pip install transformers==4.31.0: LLaMA has only the eager attention there"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","README.md:225 full fine-tuning (no LoRA)"),
},held_out=True,note=H27+"; README.md:172-192 deepspeed train.py --model_name_or_path /path/to/llama-7B/hf ... --deepspeed configs/deepspeed_config.json --fp16 True, typed from src/ with the Hub copy of LLaMA-7B and output and data paths filled in (the bare deepspeed launcher, HfArgumentParser over three dataclasses with a TrainingArguments subclass, a ZeRO-3 JSON offloading parameters and optimizer to the CPU with 'auto' bucket sizes the HF Trainer fills from the model's hidden size; full instruction tuning of LLaMA-7B on Alpaca). Not labelled: world size, nodes and global batch (deepspeed with no --num_gpus/--include/hostfile: every GPU of the machine; README.md:226 says 8 V100s)")
LB=("epfml/llm-baselines","c8a5105d8125a49e5263daec9f7313471e72612e")
lbs="scripts/train-baselines-example.sh"
lbc="src/config/base.py"
J("llm-baselines-gpt-209m-slimpajama-example-script-1gpu",*LB,["."],".",[lbs],{
 "model.num_parameters":T(208930000,lbs+":7 --model base --n_embd 768 --n_head 12 --n_layer 24 --sequence_length 512 -> src/models/base.py:158-184 GPTBase: 24 x (attention 4 x 768^2 + MLP 2 x 4 x 768^2, no biases ("+lbc+":287), two bias-free LayerNorms) = 169.9M + tied token embedding 50304 x 768 ("+lbc+":245) 38.6M + positions 512 x 768: 208.9M",rel_tol=0.1),
 "dist.world_size":T(1,lbs+":7 plain python without --distributed_backend ("+lbc+":22-28 default None) -> src/distributed/single.py: world size 1"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","src/distributed/single.py:11-12 transform_model returns the model unwrapped"),
 "batch.micro":T(50,lbs+":7 --batch_size 50"),
 "batch.grad_accum":T(4,lbs+":7 --acc_steps 4 -> src/optim/base.py:176 for microstep_idx in range(cfg.acc_steps)"),
 "batch.global":T(200,"50 x 4 x 1"),
 "data.seq_len":T(512,lbs+":7 --sequence_length 512"),
 "precision.mode":T("amp_bf16",lbc+":281-285 --dtype default bfloat16 -> src/optim/base.py:34-42 torch.amp.autocast(cuda, bfloat16) over fp32 weights"),
 "optimizer.name":T("AdamW",lbc+":83-84 --opt default adamw -> src/main.py:130-143 torch.optim.AdamW (fused)",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("sdpa","src/models/base.py:48,79-81 torch.nn.functional.scaled_dot_product_attention"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,lbc+":288 --compile store_true, not given -> src/optim/base.py:30-32 skipped"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H27+"; bash scripts/train-baselines-example.sh (the repository's example launch script: cd to a placeholder path, pip install, export WANDB_API_KEY, then python ./src/main.py --model base --n_embd 768 --n_head 12 --n_layer 24 --batch_size 50 --sequence_length 512 --wandb --acc_steps 4 --dropout 0.05; argparse in two stages with the second parser chosen by --config_format from a module table, a distributed backend object, batches sampled from a memmap rather than a DataLoader; pre-training a 209M GPT on SlimPajama). Not labelled: model.ref (GPTBase built from flags), data loader workers and pin memory (no DataLoader: src/optim/utils.py:12-21 pins each sampled batch by hand)")
BL=("DLLXW/baby-llama2-chinese","98a20dbb35e686a62188f61f479809cb2d4f8d6e")
J("baby-llama2-chinese-58m-pretrain-torchrun-standalone-4gpu",*BL,["."],".",["--","torchrun","--standalone","--nproc_per_node=4","pretrain.py"],{
 "model.num_parameters":T(58480000,"pretrain.py:186-190 max_seq_len 512, dim 512, n_layers 8, n_heads 8, multiple_of 32 -> :133-139 vocab 64793 -> model.py: 8 x (attention 4 x 512^2 + SwiGLU 3 x 512 x 1376 (int(2 x 2048 / 3) rounded up to 32) + two RMSNorms) = 25.3M + tied embedding 64793 x 512 (model.py:219) 33.2M: 58.48M",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:28 torchrun --standalone --nproc_per_node=4"),
 "dist.nodes":T(1,"--standalone: one node"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp","pretrain.py:225 RANK set by torchrun -> :314-319 DistributedDataParallel"),
 "batch.micro":T(32,"pretrain.py:184 batch_size = 32 -> :283-291 DataLoader with DistributedSampler"),
 "batch.grad_accum":T(1,"pretrain.py:183 gradient_accumulation_steps = 1 (:244-245 the division by world size commented out)"),
 "batch.global":T(128,"32 x 1 x 4"),
 "data.seq_len":T(511,"pretrain.py:186 max_seq_len 512 -> :281 PretrainDataset rows of 512 tokens -> dataset.py:37-38 X = sample[:-1]: 511-token inputs",any_of=[511,512]),
 "precision.mode":T("amp_fp16","pretrain.py:264-268 torch.cuda.amp.autocast() with no dtype (fp16) and :208,305 dtype 'float16' -> GradScaler enabled"),
 "optimizer.name":T("AdamW","pretrain.py:307 model.configure_optimizers -> model.py:283-287 torch.optim.AdamW (fused)",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("sdpa","model.py:110,144-145 torch.nn.functional.scaled_dot_product_attention"),
 "data.num_workers":T(4,"pretrain.py:289 num_workers=0 if os.name == 'nt' else 4 (Linux: 4)"),
 "data.pin_memory":T(False,"pretrain.py:286 pin_memory=False"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"pretrain.py:209 compile = False -> :309-312 skipped"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H27+"; README.md:28 torchrun --standalone --nproc_per_node=4 pretrain.py (a nanoGPT-style script whose settings are module-level literals under if __name__ == '__main__' with the configurator exec commented out, a Llama-2 model class with a ChatGLM tokenizer's vocabulary, autocast without a dtype and a GradScaler, a memmap dataset behind a DataLoader; pre-training a 58M Chinese Llama-2 from scratch)")
PPO=("ikostrikov/pytorch-a2c-ppo-acktr-gail","41332b78dfb50321c29bade65f9d244387f68a60")
pa="a2c_ppo_acktr/arguments.py"
J("a2c-ppo-acktr-ppo-pong-atari-cnn-policy-1gpu",*PPO,["a2c_ppo_acktr","main.py","evaluation.py","README.md","requirements.txt","setup.py"],".",["main.py","--","--env-name","PongNoFrameskip-v4","--algo","ppo","--use-gae","--lr","2.5e-4",
 "--clip-param","0.1","--value-loss-coef","0.5","--num-processes","8","--num-steps","128","--num-mini-batch","4","--log-interval","1","--use-linear-lr-decay","--entropy-coef","0.01"],{
 "model.num_parameters":T(866439,"a2c_ppo_acktr/model.py:176-185 CNNBase on 4 stacked frames (envs.py:111-112): conv 4-32 8x8 (8,224) + conv 32-64 4x4 (32,832) + conv 64-32 3x3 (18,464) + linear 1568-512 (803,328) + critic 512-1 (513) + distributions.py:59 Categorical 512-6 for Pong's 6 actions (3,078): 866,439",rel_tol=0.1),
 "dist.world_size":T(1,"one training process (the 8 --num-processes are environment workers)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel in the repository"),
 "batch.micro":T(256,"README.md:93 --num-processes 8 x --num-steps 128 / --num-mini-batch 4 -> a2c_ppo_acktr/storage.py:121 mini_batch_size 256 transitions per update"),
 "batch.grad_accum":T(1,"a2c_ppo_acktr/algo/ppo.py: one optimizer step per mini batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.image_size":T(84,"a2c_ppo_acktr/envs.py:65 WarpFrame(width=84, height=84)"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","main.py:59-60 --algo ppo -> a2c_ppo_acktr/algo/ppo.py:32 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H27+"; README.md:93 python main.py --env-name 'PongNoFrameskip-v4' --algo ppo --use-gae --lr 2.5e-4 --clip-param 0.1 --value-loss-coef 0.5 --num-processes 8 --num-steps 128 --num-mini-batch 4 --log-interval 1 --use-linear-lr-decay --entropy-coef 0.01 (argparse with dashed flags in a package module, the algorithm chosen by --algo, a rollout storage yielding mini batches instead of a DataLoader, vectorised Atari environments in subprocesses; PPO on Atari Pong, RL). Not labelled: data loader workers and pin memory (no DataLoader)")
LGC=("gusye1234/LightGCN-PyTorch","947ca2b3b1d2d3545b114145710cb06c4e57b3d2")
J("lightgcn-gowalla-bpr-argparse-world-module-1gpu",*LGC,["code","README.md","requirements.txt"],"code",["main.py","--","--decay=1e-4","--lr=0.001","--layer=3","--seed=2020","--dataset=gowalla","--topks=[20]","--recdim=64"],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel in the repository"),
 "batch.micro":T(2048,"code/parse.py:13 --bpr_batch default 2048 -> code/world.py:36 -> code/Procedure.py:46-49 utils.minibatch"),
 "batch.grad_accum":T(1,"code/utils.py:41-48 stageOne: zero_grad, backward, step per mini batch"),
 "batch.global":T(2048,"2048 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","code/utils.py:39 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H27+"; README.md:44 cd code && python main.py --decay=1e-4 --lr=0.001 --layer=3 --seed=2020 --dataset=\"gowalla\" --topks=\"[20]\" --recdim=64 (argparse read by a world.py module of globals that every other module imports, the model chosen from a registry dict, BPR triples sampled and cut into mini batches by a generator rather than a DataLoader; LightGCN collaborative filtering on Gowalla, recommendation/graph). Not labelled: model size (user and item embedding tables sized by the counts read from the data files), data loader workers and pin memory (no DataLoader)")
DDP_=("w86763777/pytorch-ddpm","f804ccbd58a758b07f79a3b9ecdfb1beb67258f6")
dcf="config/CIFAR10.txt"
J("pytorch-ddpm-cifar10-absl-flagfile-1gpu",*DDP_,["."],".",["main.py","--","--train","--flagfile","./config/CIFAR10.txt"],{
 "model.num_parameters":T(35700000,dcf+":2,6-10,23 ch 128, ch_mult 1 2 2 2, attn at level 1, 2 res blocks -> main.py:110-112 UNet: the DDPM CIFAR-10 model, 35.7M parameters",rel_tol=0.1),
 "dist.world_size":T(1,"one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none",dcf+":25 --noparallel -> main.py:124-127 nn.DataParallel skipped"),
 "batch.micro":T(128,dcf+":3 --batch_size=128 -> main.py:104-106"),
 "batch.grad_accum":T(1,"main.py:148-156 one optimizer step per batch"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.image_size":T(32,dcf+":18 --img_size=32 (CIFAR-10, main.py:97)"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","main.py:114 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(4,dcf+":24 --num_workers=4 -> main.py:106"),
 "data.pin_memory":T(False,"main.py:104-106 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H27+"; Readme.md:42-43 python main.py --train --flagfile ./config/CIFAR10.txt (absl flags with defaults in main.py and every value repeated in a flag file, a multi-integer flag given four times, an EMA copy of the model; DDPM training of a CIFAR-10 UNet, diffusion)")
INF=("zhouhaoyi/Informer2020","29f2a739226a509202a092b464163da81fa74960")
J("informer-etth1-probsparse-argparse-data-table-1gpu",*INF,["."],".",["main_informer.py","--","--model","informer","--data","ETTh1","--attn","prob","--freq","h"],{
 "model.num_parameters":T(11330000,"main_informer.py:24-32 enc_in/dec_in/c_out 7, d_model 512, 8 heads, 2 encoder and 1 decoder layers, d_ff 2048, distil on -> models/model.py: encoder layers 2 x 3.15M + one distilling ConvLayer 0.79M + decoder layer 4.20M + two DataEmbeddings (circular conv 7-512 k3 + timeF linear 4-512) + projection 512-7: 11.33M",rel_tol=0.1),
 "dist.world_size":T(1,"one process, --use_multi_gpu not given (main_informer.py:58)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","exp/exp_informer.py:56-57 nn.DataParallel only with --use_multi_gpu"),
 "batch.micro":T(32,"main_informer.py:47 --batch_size default 32 -> exp/exp_informer.py:82,96-101"),
 "batch.grad_accum":T(1,"exp/exp_informer.py:150-174 one optimizer step per batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "data.seq_len":T(96,"main_informer.py:19 --seq_len default 96 (encoder input window of 96 time steps)"),
 "precision.mode":T("fp32","main_informer.py:53 --use_amp default False, not given"),
 "optimizer.name":T("Adam","exp/exp_informer.py:105-106 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"main_informer.py:44 --num_workers default 0 -> exp/exp_informer.py:100"),
 "data.pin_memory":T(False,"exp/exp_informer.py:96-101 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H27+"; README.md:83 python -u main_informer.py --model informer --data ETTh1 --attn prob --freq h (argparse whose channel counts are overwritten from a per-dataset table, main_informer.py:70-86, an experiment class, ProbSparse attention; Informer long-sequence forecasting on ETTh1, time series)")
FT=("NVIDIA/flowtron","d149bc466b8325026aeb68aa2fef24337e7463b2")
J("flowtron-ljs-json-config-dotted-overrides-distributed-launch-8gpu",*FT,["."],".",["--","python","-m","torch.distributed.launch","--use_env","--nproc_per_node=8","train.py","-c","config.json",
 "-p","train_config.output_directory=outdir","train_config.fp16=true"],{
 "dist.world_size":T(8,"README.md:59 python -m torch.distributed.launch --use_env --nproc_per_node=NUM_GPUS_YOU_HAVE, 8 filled in -> train.py:406-407 RANK and WORLD_SIZE"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","train.py:251-252 apply_gradient_allreduce (distributed.py:81: every rank keeps the whole model, gradients all-reduced)"),
 "batch.micro":T(6,"config.json:11 batch_size 6 -> train.py:73-79 per process (DistributedSampler)"),
 "batch.grad_accum":T(1,"train.py:282-300 one optimizer step per batch"),
 "batch.global":T(48,"6 x 1 x 8"),
 "precision.mode":T("amp_fp16","config.json:19 fp16_run true -> train.py:254 amp.GradScaler and :292 amp.autocast: fp16 autocast over fp32 weights (the -p train_config.fp16=true override names no existing key, train.py:54-57, and changes nothing)"),
 "optimizer.name":T("RAdam","config.json:5 optim_algo RAdam -> train.py:234-236 radam.py:26 RAdam",any_of=["RAdam","radam"]),
 "data.num_workers":T(1,"train.py:77 num_workers=1"),
 "data.pin_memory":T(False,"train.py:79 pin_memory=False"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H27+"; README.md:59 python -m torch.distributed.launch --use_env --nproc_per_node=NUM_GPUS_YOU_HAVE train.py -c config.json -p train_config.output_directory=outdir train_config.fp16=true with 8 GPUs filled in (the legacy launcher, a JSON config of four sections whose train_config is passed to train(**kwargs), dotted -p overrides parsed with ast.literal_eval, hand-written gradient all-reduce hooks instead of DDP, torch.cuda.amp; Flowtron text-to-speech on LJSpeech, speech). Not labelled: model size (two autoregressive flows of LSTMs and attention, counted only by building them), sequence length (mel frames vary)")
LZ=("FreedomIntelligence/LLMZoo","cf70d9cd7a34808681ebe58e652f697420d7b055")
lzs="scripts/train_phoenix_7b.sh"
J("llmzoo-phoenix-bloomz-7b-fsdp-script-vars-torchrun-8gpu",*LZ,["."],".",[lzs],{
 "model.ref":T("bigscience/bloomz-7b1-mt",lzs+":1 model_name_or_path -> :11 -> llmzoo/models/__init__.py:15-21 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7070000000,"BLOOMZ-7b1-mt (30 layers, hidden 4096, vocab 250880 tied): 7.07B",rel_tol=0.1),
 "dist.world_size":T(8,lzs+":6-8 torchrun --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,lzs+":7 --nnodes=1"),
 "dist.devices_per_node":T(8,lzs+":8 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",lzs+":29-30 --fsdp 'full_shard auto_wrap' (BloomBlock wrapped)"),
 "batch.micro":T(4,lzs+":17 --per_device_train_batch_size 4"),
 "batch.grad_accum":T(8,lzs+":19 --gradient_accumulation_steps 8"),
 "batch.global":T(256,"4 x 8 x 8"),
 "data.seq_len":T(2048,lzs+":2 model_max_length=2048 -> :12 -> llmzoo/models/__init__.py:25-31 tokenizer model_max_length -> llmzoo/datasets/datasets.py:124-130 truncation to 2048"),
 "data.padding":T("dynamic","llmzoo/datasets/datasets.py:50-54 pad_sequence to the longest sample of the batch"),
 "precision.mode":T("amp_bf16",lzs+":15 --bf16 True under FSDP; llmzoo/models/__init__.py:19 torch_dtype None without --lora (fp32 weights): FSDP mixed precision bf16 over fp32 parameters"),
 "optimizer.name":T("AdamW","train.py:33 optim default adamw_torch",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,lzs+":32 --gradient_checkpointing True"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"train.py:50-56 torch.compile only with --lora (default False, train.py:19)"),
 "peft.method":T("none","train.py:19 lora default False -> llmzoo/models/__init__.py:47 no LoRA: full fine-tuning"),
},held_out=True,note=H27+"; README.md:268 bash scripts/train_phoenix_7b.sh (a launch script setting four shell variables, then torchrun --nnodes=1 --nproc_per_node=8 --master_port=12375 train.py --model_name_or_path ${model_name_or_path} --model_max_length ${model_max_length} ... --bf16 True --fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap 'BloomBlock' --tf32 True --gradient_checkpointing True; HfArgumentParser over three dataclasses, the model and tokenizer built in a package helper with a LoRA switch that also switches int8 loading and compile; full multilingual instruction tuning of BLOOMZ-7b1-mt, the Phoenix model)")
RTD=("Yura52/tabular-dl-revisiting-models","e8b1193fac6091f8749f00138cc20f498f034798")
rtc="output/california_housing/ft_transformer/tuned/0.toml"
J("rtdl-ft-transformer-california-toml-config-1gpu",*RTD,["bin","lib","README.md",rtc],".",["bin/ft_transformer.py","--",rtc,"-f"],{
 "model.num_parameters":T(2463000,rtc+":8-18 d_token 272, 3 layers, 8 heads, d_ffn_factor 2.342, reglu, no prenormalization -> bin/ft_transformer.py:187-239 on California Housing's 8 numerical features: tokenizer (9 + 8) x 272 + 3 x (attention 4 x (272^2 + 272) with W_out (8 heads) + linear0 272-1274 + linear1 637-272 + two LayerNorms) + head 272-1: 2.46M",rel_tol=0.1),
 "dist.world_size":T(1,"one process"),
 "dist.nodes":T(1,"one process"),
 "batch.global":T(256,rtc+":22 batch_size 256 -> bin/ft_transformer.py:352,394 lib.IndexLoader (one model call per batch; nn.DataParallel, :370-372, splits it over the visible GPUs)"),
 "batch.grad_accum":T(1,"bin/ft_transformer.py train loop: one optimizer step per batch"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW",rtc+":26 optimizer 'adamw' -> lib/deep.py:135-143 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H27+"; python bin/ft_transformer.py output/california_housing/ft_transformer/tuned/0.toml -f (README.md:127,206-218: a bin/ script given a TOML config, -f to rerun a configuration whose output folder the repository already holds; the TOML's model section passed as keyword arguments with defaults set in code, batches of indices from a custom loader rather than a DataLoader; FT-Transformer regression on California Housing, tabular). Not labelled: sharding and micro batch (bin/ft_transformer.py:370-372 nn.DataParallel whenever more than one GPU is visible, a property of the machine), sequence length (9 feature tokens), data loader workers and pin memory (no DataLoader)")
