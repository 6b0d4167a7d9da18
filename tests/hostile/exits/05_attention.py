"""Hostile: each function ends the worker its own way."""
import ctypes
import os
import sys


def qkv_heads(x, W_qkv, b_qkv, num_heads):
    sys.exit(3)


def attention_weights(q, k):
    os._exit(4)


def multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    ctypes.string_at(0)  # reads address 0: SIGSEGV
