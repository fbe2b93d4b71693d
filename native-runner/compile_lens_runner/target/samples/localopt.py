"""LocalOptimizedNetwork from seed 003: conv blocks plus elementwise-heavy activations Inductor can fuse."""
import torch
import torch.nn.functional as F
from torch import nn


def complex_activation(x: torch.Tensor) -> torch.Tensor:
    a = torch.sin(x)
    b = torch.pow(x, 2) * torch.tanh(x)
    c = torch.exp(-torch.abs(x))
    d = torch.sigmoid(x) * torch.log(torch.clamp(x.abs(), min=1e-10))
    return a + b - c + d


def feature_enhancement(x: torch.Tensor) -> torch.Tensor:
    channel_weight = torch.sigmoid(F.adaptive_avg_pool2d(x, 1) * 3)
    spatial_avg = torch.mean(x, dim=1, keepdim=True)
    spatial_max, _ = torch.max(x, dim=1, keepdim=True)
    spatial_attn = torch.sigmoid(torch.cat([spatial_avg, spatial_max], dim=1))
    spatial_weight = torch.sigmoid(F.conv2d(spatial_attn, torch.ones(1, 2, 3, 3, device=x.device), padding=1))
    return x * channel_weight * spatial_weight


class LocalOptimizedNetwork(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(64)
        self.conv2 = nn.Conv2d(64, 128, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(128)
        self.conv3 = nn.Conv2d(128, 128, 3, padding=1)
        self.bn3 = nn.BatchNorm2d(128)
        self.conv4 = nn.Conv2d(128, 256, 3, padding=1)
        self.bn4 = nn.BatchNorm2d(256)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(256, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.bn1(self.conv1(x)))
        x = complex_activation(self.bn2(self.conv2(x)))
        x = F.relu(self.bn3(self.conv3(x)))
        x = feature_enhancement(x)
        x = F.relu(self.bn4(self.conv4(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


def build(device: str) -> dict[str, object]:
    torch.manual_seed(0)
    # The seed's 16x3x224x224 on a GPU; a CPU gets a small image so compiling and timing stay quick.
    shape = (16, 3, 224, 224) if device == "cuda" else (2, 3, 32, 32)
    return {"model": LocalOptimizedNetwork().to(device).eval(), "inputs": (torch.randn(*shape, device=device),)}
