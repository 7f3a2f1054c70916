"""Writes the KV-event fixtures that KvEventCodecTest reads, with msgspec's own encoder.

The structs below declare the fields, field order and struct options of vLLM's
vllm/distributed/kv_events.py in three eras: the first release with events
(every struct array_like), a later array_like release with medium and
lora_name, and the current one (map-encoded events and batch). Run with
msgspec installed:

    python3 generate_fixtures.py

The .msgpack files are committed; the test never runs Python.
"""

import hashlib
from typing import Any

import msgspec

TS = 1767225600.25
HIGH = 0xFEDCBA9876543210  # top bit set: msgpack uint 64
LOW = 0x123456789ABCDEF0


def current_structs():
    class EventBatch(msgspec.Struct, omit_defaults=True, gc=False):
        ts: float
        events: list[Any]
        data_parallel_rank: int | None = None

    class KVCacheEvent(msgspec.Struct, omit_defaults=True, gc=False, tag=True):
        pass

    class BlockStored(KVCacheEvent):
        block_hashes: list[bytes | int]
        parent_block_hash: bytes | int | None
        token_ids: list[int]
        block_size: int
        lora_id: int | None
        medium: str | None
        lora_name: str | None
        extra_keys: list[tuple[Any, ...] | None] | None = None
        group_idx: int | None = None
        kv_cache_spec_kind: str | None = None
        kv_cache_spec_sliding_window: int | None = None

    class BlockRemoved(KVCacheEvent):
        block_hashes: list[bytes | int]
        medium: str | None
        group_idx: int | None = None

    class AllBlocksCleared(KVCacheEvent):
        pass

    return EventBatch, BlockStored, BlockRemoved, AllBlocksCleared


def mixed_structs():
    """An array_like batch around map-encoded events, as one vLLM release had it."""
    _, BlockStored, BlockRemoved, AllBlocksCleared = current_structs()

    class EventBatch(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
        ts: float
        events: list[Any]
        data_parallel_rank: int | None = None

    return EventBatch, BlockStored, BlockRemoved, AllBlocksCleared


def first_structs():
    class EventBatch(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
        ts: float
        events: list[Any]

    class KVCacheEvent(msgspec.Struct, array_like=True, omit_defaults=True, gc=False, tag=True):
        pass

    class BlockStored(KVCacheEvent):
        block_hashes: list[int]
        parent_block_hash: int | None
        token_ids: list[int]
        block_size: int
        lora_id: int | None

    class BlockRemoved(KVCacheEvent):
        block_hashes: list[int]

    class AllBlocksCleared(KVCacheEvent):
        pass

    return EventBatch, BlockStored, BlockRemoved, AllBlocksCleared


def array_medium_structs():
    class EventBatch(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
        ts: float
        events: list[Any]
        data_parallel_rank: int | None = None

    class KVCacheEvent(msgspec.Struct, array_like=True, omit_defaults=True, gc=False, tag=True):
        pass

    class BlockStored(KVCacheEvent):
        block_hashes: list[bytes | int]
        parent_block_hash: bytes | int | None
        token_ids: list[int]
        block_size: int
        lora_id: int | None
        medium: str | None
        lora_name: str | None
        extra_keys: list[tuple[Any, ...] | None] | None = None
        group_idx: int | None = None

    class BlockRemoved(KVCacheEvent):
        block_hashes: list[bytes | int]
        medium: str | None
        group_idx: int | None = None

    class AllBlocksCleared(KVCacheEvent):
        pass

    return EventBatch, BlockStored, BlockRemoved, AllBlocksCleared


def write(name, batch):
    with open(name, "wb") as out:
        out.write(msgspec.msgpack.encode(batch))


def main():
    Batch, Stored, Removed, Cleared = current_structs()
    write("current.msgpack", Batch(ts=TS, events=[
        Stored(block_hashes=[LOW, HIGH], parent_block_hash=None, token_ids=list(range(1, 33)), block_size=16,
               lora_id=None, medium="GPU", lora_name=None),
        Stored(block_hashes=[7], parent_block_hash=HIGH, token_ids=list(range(100, 116)), block_size=16,
               lora_id=1, medium="GPU", lora_name="sql", group_idx=0),
        Removed(block_hashes=[HIGH], medium="GPU"),
        Cleared(),
    ], data_parallel_rank=0))
    write("current-optional-fields.msgpack", Batch(ts=TS, events=[
        Stored(block_hashes=[LOW], parent_block_hash=None, token_ids=list(range(16)), block_size=16,
               lora_id=None, medium="GPU", lora_name=None, extra_keys=[("sql", 3)], group_idx=1,
               kv_cache_spec_kind="sliding_window", kv_cache_spec_sliding_window=4096),
        Removed(block_hashes=[LOW], medium="GPU", group_idx=1),
    ]))
    digest0 = hashlib.sha256(b"block-0").digest()
    digest1 = hashlib.sha256(b"block-1").digest()
    write("current-bytes-hashes.msgpack", Batch(ts=TS, events=[
        Stored(block_hashes=[digest0, digest1], parent_block_hash=None, token_ids=list(range(32)), block_size=16,
               lora_id=None, medium="GPU", lora_name=None),
        Removed(block_hashes=[digest1], medium="GPU"),
    ], data_parallel_rank=0))

    Batch, Stored, Removed, Cleared = mixed_structs()
    write("mixed-array-batch.msgpack", Batch(ts=TS, events=[
        Stored(block_hashes=[LOW, HIGH], parent_block_hash=None, token_ids=list(range(1, 33)), block_size=16,
               lora_id=None, medium="GPU", lora_name=None),
        Removed(block_hashes=[HIGH], medium="GPU"),
        Cleared(),
    ], data_parallel_rank=0))

    Batch, Stored, Removed, Cleared = first_structs()
    write("array-first-release.msgpack", Batch(ts=TS, events=[
        Stored(block_hashes=[LOW, HIGH], parent_block_hash=None, token_ids=list(range(1, 33)), block_size=16,
               lora_id=None),
        Removed(block_hashes=[HIGH]),
        Cleared(),
    ]))

    Batch, Stored, Removed, Cleared = array_medium_structs()
    write("array-with-medium.msgpack", Batch(ts=TS, events=[
        Stored(block_hashes=[LOW, HIGH], parent_block_hash=None, token_ids=list(range(1, 33)), block_size=16,
               lora_id=None, medium="GPU", lora_name=None),
        Stored(block_hashes=[7], parent_block_hash=HIGH, token_ids=list(range(100, 116)), block_size=16,
               lora_id=1, medium="GPU", lora_name="sql"),
        Removed(block_hashes=[HIGH], medium="GPU"),
        Cleared(),
    ], data_parallel_rank=0))


if __name__ == "__main__":
    main()
