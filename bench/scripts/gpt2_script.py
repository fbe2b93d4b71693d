"""transformers' GPT-2 (GPT2LMHeadModel built from GPT2Config(), random weights) compiled with torch.compile and
called in a loop at two sequence lengths, as a user's own inference script would.

    python3 bench/scripts/gpt2_script.py
    PYTHONPATH=native-runner python3 -m compile_lens_runner profile --script bench/scripts/gpt2_script.py --device cuda

Without CUDA (or with GPT2_SMALL=1) it runs a 2-layer, 64-wide GPT-2 on the CPU. Without transformers it says so
and exits 0.
"""

import os
import sys
import time

import torch

try:
    from transformers import GPT2Config, GPT2LMHeadModel
except ImportError:
    print("gpt2_script: skipped, transformers is not installed (pip install transformers)", file=sys.stderr)
    sys.exit(0)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SMALL = os.environ.get("GPT2_SMALL") == "1" or DEVICE == "cpu"
BATCH = 4
# (sequence length, calls): the most frequent length and a different last one
LOOP = [(64, 6), (96, 4)] if SMALL else [(128, 6), (256, 4)]

if __name__ == "__main__":
    torch.manual_seed(0)
    config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=1000) if SMALL else GPT2Config()
    model = GPT2LMHeadModel(config).to(DEVICE).eval()
    model = torch.compile(model)
    with torch.inference_mode():
        for seq, calls in LOOP:
            for call in range(calls):
                ids = torch.randint(0, config.vocab_size, (BATCH, seq), device=DEVICE)
                t0 = time.perf_counter()
                logits = model(input_ids=ids, use_cache=False).logits
                if DEVICE == "cuda":
                    torch.cuda.synchronize()
                print(
                    f"seq {seq} call {call}: {1000 * (time.perf_counter() - t0):.1f} ms, logits {list(logits.shape)}",
                    flush=True,
                )
