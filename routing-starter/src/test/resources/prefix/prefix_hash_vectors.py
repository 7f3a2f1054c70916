#!/usr/bin/env python3
"""Expected values of PrefixHasherTest, from an implementation of XXH3 other than hash4j.

Run: pip install xxhash==4.0.1 && python3 prefix_hash_vectors.py
(xxhash 4.0.1 is the Python binding of the reference C library, 0.8.3.)

First checks that binding against vectors published outside it: the empty input (xxHash's own
cli/xsum_sanity_check.c) and LLVM's llvm/unittests/Support/xxhashTest.cpp, which hashes a xorshift-generated
buffer with LLVM's own port of XXH3. Then prints the chain PrefixHasher documents:

    h(-1) = XXH3(le64(XXH3(utf16le(model))) || le64(XXH3(utf16le(adapter))))
    h(i)  = XXH3(le64(h(i-1)) || le64(XXH3(utf16le(block i))))      (0 replaced by 1)

with XXH3 the 64-bit XXH3 with seed 0, and blocks cut every block-size UTF-16 code units.
"""
import struct
import sys

import xxhash


def xxh3(data):
    return xxhash.xxh3_64_intdigest(data, 0)


def llvm_buffer(size):
    buffer = bytearray(size)
    x = 1
    for i in range(size):
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        buffer[i] = x & 0xFF
    return bytes(buffer)


LLVM_XXH3 = {0: 0x2d06800538d394c2, 1: 0xd0d496e05c553485, 16: 0x7e46916754d7c9b8, 17: 0xed4be912ba5f836d,
             128: 0x06a146ee9a2da378, 129: 0xbc7138129bf065da, 403: 0xcefeb3ffa532ad8c,
             2048: 0x330ce110cbb79eae, 2243: 0x0979f786a24edde7}


def check_binding():
    assert xxh3(b"") == 0x2D06800538D394C2, "XXH3 of the empty input"
    assert xxhash.xxh64_intdigest(b"", 0) == 0xEF46DB3751D8E999, "XXH64 of the empty input"
    buffer = llvm_buffer(2243)
    for length, expected in LLVM_XXH3.items():
        assert xxh3(buffer[:length]) == expected, "LLVM vector of length %d" % length


def pair(a, b):
    return xxh3(struct.pack("<QQ", a, b))


def chain(model, adapter, text, block_size, max_blocks=256):
    data = text.encode("utf-16-le")
    parent = pair(xxh3(model.encode("utf-16-le")), xxh3(adapter.encode("utf-16-le")))
    hashes = []
    for i in range(min(len(data) // 2 // block_size, max_blocks)):
        parent = pair(parent, xxh3(data[i * 2 * block_size:(i + 1) * 2 * block_size])) or 1
        hashes.append(parent)
    return hashes


def fixture_blocks(label, count):
    """PrefixFixtures.prompt: block i reads "label:i " padded to 64 chars with letters ('a' + (c * 7 + i) % 26)."""
    text = []
    for i in range(count):
        head = "%s:%d " % (label, i)
        text.append(head + "".join(chr(ord("a") + (c * 7 + i) % 26) for c in range(len(head), 64)))
    return "".join(text)


def mixed_script_text():
    text, i = "", 0
    while len(text.encode("utf-16-le")) // 2 < 20_000:
        text += "turn %d: données, 数据, данные, \U0001F680 " % i
        i += 1
    return text


def java_long(value):
    return "0x%016XL" % value


def main():
    check_binding()
    model = "meta-llama/Llama-3.1-8B-Instruct"
    print("binding matches the published vectors")
    print("seed(model, lora-a)", java_long(pair(xxh3(model.encode("utf-16-le")), xxh3("lora-a".encode("utf-16-le")))))
    doc = chain(model, "lora-a", fixture_blocks("doc", 2), 64)
    print("doc chain", [java_long(h) for h in doc])
    text = mixed_script_text()
    for block_size in (64, 100, 5000):
        hashes = chain(model, "lora-a", text, block_size)
        print("mixed", block_size, "blocks", len(hashes), "first", java_long(hashes[0]), "second",
              java_long(hashes[1]), "last", java_long(hashes[-1]))


if __name__ == "__main__":
    sys.exit(main())
