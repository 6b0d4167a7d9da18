"""Hostile: NaNs where numbers belong."""
import torch


def conv_to_linear(conv_weight):
    W_E = conv_weight.reshape(conv_weight.shape[0], -1).T
    return W_E * torch.nan  # all NaN


def project(patches, W_E, b_E):
    tokens = patches @ W_E + b_E
    tokens[..., 0, 0] = torch.nan  # one NaN: the first feature of the first patch
    return tokens
