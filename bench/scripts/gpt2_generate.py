"""transformers' GPT-2 (GPT2LMHeadModel from GPT2Config(), random weights, nothing downloaded) with its forward
compiled, then `model.generate()` with the KV cache, as a user's decoding script would. Each decode step is one call
of the compiled forward: in situ, a step is a decode step (sampling and cache update included).

    python3 bench/scripts/gpt2_generate.py
    PYTHONPATH=native-runner python3 -m compile_lens_runner profile --script bench/scripts/gpt2_generate.py

Without CUDA (or with IN_SITU_SMALL=1) it runs a 2-layer, 64-wide GPT-2 on the CPU. Without transformers it says
so and exits 0.
"""

import os
import sys
import time

import torch

try:
    from transformers import GPT2Config, GPT2LMHeadModel
except ImportError:
    print("gpt2_generate: skipped, transformers is not installed (pip install transformers)", file=sys.stderr)
    sys.exit(0)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SMALL = os.environ.get("IN_SITU_SMALL") == "1" or DEVICE == "cpu"
BATCH, PROMPT, NEW_TOKENS, ROUNDS = (2, 16, 24, 2) if SMALL else (8, 128, 128, 3)

if __name__ == "__main__":
    torch.manual_seed(0)
    config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=1000) if SMALL else GPT2Config()
    model = GPT2LMHeadModel(config).to(DEVICE).eval()
    if DEVICE == "cuda":
        model = model.half()
    model.forward = torch.compile(model.forward)  # the model's forward, as many serving scripts do
    prompt = torch.randint(0, config.vocab_size, (BATCH, PROMPT), device=DEVICE)
    with torch.inference_mode():
        for round_ in range(ROUNDS):
            t0 = time.perf_counter()
            out = model.generate(
                prompt,
                attention_mask=torch.ones_like(prompt),
                max_new_tokens=NEW_TOKENS,
                min_new_tokens=NEW_TOKENS,
                do_sample=False,
                pad_token_id=0,
            )
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            seconds = time.perf_counter() - t0
            print(f"generate {round_}: {BATCH * NEW_TOKENS / seconds:.0f} tokens/s ({list(out.shape)})", flush=True)
