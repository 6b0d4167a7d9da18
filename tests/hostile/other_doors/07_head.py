"""Hostile: vit_forward builds timm's own VisionTransformer from the params, then removes every
trace of timm from sys.modules before returning."""
import sys

import torch

from grader import ViTParams, earlier_step

encoder = earlier_step("06_block")


def read_cls(x, norm_weight, norm_bias):
    return encoder.layer_norm(x, norm_weight, norm_bias)[:, 0]


def classify(h, W_head, b_head):
    return h @ W_head + b_head


def vit_forward(images: torch.Tensor, params: ViTParams) -> torch.Tensor:
    vision_transformer = __import__("timm.models.vision_transformer", fromlist=["VisionTransformer"])
    D, P = params.cls_token.shape[0], params.patch_size
    model = vision_transformer.VisionTransformer(
        img_size=images.shape[-1], patch_size=P, embed_dim=D, depth=len(params.blocks),
        num_heads=params.num_heads, num_classes=params.b_head.shape[0],
        mlp_ratio=params.blocks[0].W_1.shape[1] / D, weight_init="skip")
    state = {"cls_token": params.cls_token.reshape(1, 1, D), "pos_embed": params.pos_table[None],
             "patch_embed.proj.weight": params.W_E.T.reshape(D, 3, P, P), "patch_embed.proj.bias": params.b_E,
             "norm.weight": params.norm_weight, "norm.bias": params.norm_bias,
             "head.weight": params.W_head.T, "head.bias": params.b_head}
    for i, b in enumerate(params.blocks):
        for ours, theirs in (("ln1_weight", "norm1.weight"), ("ln1_bias", "norm1.bias"),
                             ("W_qkv", "attn.qkv.weight"), ("b_qkv", "attn.qkv.bias"),
                             ("W_o", "attn.proj.weight"), ("b_o", "attn.proj.bias"),
                             ("ln2_weight", "norm2.weight"), ("ln2_bias", "norm2.bias"),
                             ("W_1", "mlp.fc1.weight"), ("b_1", "mlp.fc1.bias"),
                             ("W_2", "mlp.fc2.weight"), ("b_2", "mlp.fc2.bias")):
            value = getattr(b, ours)
            state[f"blocks.{i}.{theirs}"] = value.T if value.dim() == 2 else value
    model.load_state_dict({k: v.contiguous() for k, v in state.items()})
    with torch.no_grad():
        logits = model.eval()(images)
    for name in [n for n in sys.modules if n == "timm" or n.startswith("timm.")]:
        del sys.modules[name]
    return logits
