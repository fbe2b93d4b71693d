"""Real models for the speedup-stability benchmark (bench/stability.py): fp32, eval, random weights, no downloads.

Each builder takes `device` and returns (model, inputs) placed there. torchvision, transformers and timm are
imported inside the builder, so a missing package fails only the targets that need it.
"""

import torch
from torch import nn


def resnet18(device="cpu"):
    """torchvision ResNet-18, batch 16, 3x224x224."""
    from torchvision.models import resnet18 as build

    torch.manual_seed(0)
    return build(weights=None).eval().to(device), (torch.randn(16, 3, 224, 224, device=device),)


def bert(device="cpu"):
    """transformers BERT-base (BertConfig()), input_ids (1, 8)."""
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig()
    ids = torch.randint(0, config.vocab_size, (1, 8), device=device)
    return BertModel(config).eval().to(device), (ids,)


def gpt2(device="cpu"):
    """transformers GPT-2 (GPT2Config()) with its LM head, input_ids (4, 128); no KV cache in the output."""
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(use_cache=False)
    ids = torch.randint(0, config.vocab_size, (4, 128), device=device)
    return GPT2LMHeadModel(config).eval().to(device), (ids,)


def vit_small(device="cpu"):
    """timm ViT-S/16 (vit_small_patch16_224), batch 8, 3x224x224."""
    import timm

    torch.manual_seed(0)
    model = timm.create_model("vit_small_patch16_224", pretrained=False)
    return model.eval().to(device), (torch.randn(8, 3, 224, 224, device=device),)


class Counter(nn.Module):
    """Counts its calls in a Python int attribute: Dynamo recompiles on every call until its recompile limit, then
    runs forward eagerly. The runner must report that, not time eager code as compiled."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.body = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512))

    def forward(self, x):
        self.calls += 1
        return self.body(x)


def counter(device="cpu"):
    torch.manual_seed(0)
    return Counter().eval().to(device), (torch.randn(32, 512, device=device),)
