"""What an audit reads: SOURCE arguments and manifests planned into partitions.

Theory of operation
-------------------
``plan`` runs on the driver, before any stream is reduced.  It expands every SOURCE --
a file, a directory (every file below it, recursively, in name order), a glob
(``traffic/2026-11-*/**/*.sse.gz``) or an ``fsspec`` URL of any of those
(``s3://bucket/traffic/``), or a bundled name where nothing here has that path
(``examples/parallel-calls.sse``, ``q07``: ``stream_names.resolve``) -- into input
files, each listed once even when two sources name it ("each stream is reduced once"),
and every manifest into row slices.  A SOURCE that matches nothing is a ``PlanError``:
a typo must not audit nothing and pass; so is one that cannot be listed at all (no
credentials, no route to the store).

The inputs are cut into ``Partition``\\ s, the unit of work, of retry and of resume:

- input files, in order, ``partition_size`` at a time (fewer when they pass
  ``PARTITION_BYTES``); a file is never split, so a file holding many responses is
  reduced as one stream and yields one row per response;
- a Parquet manifest, one partition per row group (the writer chose the group size);
- a JSON Lines manifest, ``partition_size`` rows at a time, as byte ranges found by one
  scan of the manifest, so a worker reads only its own rows.

A partition's ``key`` hashes what it reads (each file's URL, size and modification
stamp; a manifest slice's URL, stamp and range), so a resumed run recognises the
partitions it already wrote and redoes one whose input changed.

``open_chunks`` runs on the workers: the bytes of one input, decompressed as every
command decompresses (``wire.inputs``: ``.gz``, ``.zst``).  Every failure to read
becomes an ``InputFault`` with its kind --
``unreadable`` (missing, a directory, permission, I/O) or ``corrupt_archive`` -- so the
caller turns it into a row instead of losing the input.

URLs are listed and opened with the run's *storage options* (``audit
--storage-option``: an S3 endpoint, credentials, ``anon``...), given alike to the
filesystem of every URL (``url_options``); local paths take none.  Options that differ
by protocol, or that the workers of a remote Dask cluster should hold themselves,
belong in fsspec's configuration (``FSSPEC_S3_ENDPOINT_URL``...) or the filesystem
library's (``AWS_ENDPOINT_URL``...).
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, BinaryIO, Final

from responses_oracle.audit.libraries import MissingExtra, require
from responses_oracle.stream_names import resolve
from responses_oracle.wire.inputs import NOT_A_STREAM as _NOT_A_STREAM
from responses_oracle.wire.inputs import corrupt_errors, decompressed

PARTITION_SIZE: Final = 500
"""Inputs (files or JSON Lines manifest rows) per partition by default."""

PARTITION_BYTES: Final = 64 << 20
"""A partition of files closes once its files reach this many bytes."""

CHUNK_BYTES: Final = 64 << 10
"""Read size for input files."""

_GLOB_CHARS: Final = frozenset("*?[")


class Fault(Enum):
    """Why an input yielded no reduced response: the ``error_kind`` column."""

    UNREADABLE = "unreadable"
    """The file could not be opened or read (missing, a directory, permission, I/O)."""
    CORRUPT_ARCHIVE = "corrupt_archive"
    """A ``.gz`` or ``.zst`` file that does not decompress."""
    NOT_A_STREAM = _NOT_A_STREAM
    """The bytes hold no Responses API event at all (``wire.inputs.StreamCheck``)."""
    BAD_MANIFEST_ROW = "bad_manifest_row"
    """A manifest row without an ``id``, or with neither ``body`` nor ``path``."""
    WORKER_LOST = "worker_lost"
    """The partition's worker died every time it was tried (a poisoned input)."""
    PARTITION_FAILED = "partition_failed"
    """The partition raised: a bug, or a manifest that cannot be read; the message says."""


class InputFault(Exception):
    """Reading one input failed; ``kind`` says how (``Fault.UNREADABLE`` or
    ``Fault.CORRUPT_ARCHIVE``)."""

    def __init__(self, kind: Fault, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class PlanError(Exception):
    """A SOURCE or manifest that cannot be planned (matches nothing, cannot be listed)."""


@dataclass(frozen=True, slots=True)
class FileInput:
    """One input file: where it is, and how its rows name it."""

    url: str
    """What ``open_chunks`` opens: a local path or an fsspec URL."""
    stream_id: str
    """The path as the user gave it (relative stays relative), or the URL."""
    provider: str | None
    stamp: str
    """Size and modification stamp: a changed file is a new input."""


class ManifestKind(Enum):
    """The two manifest formats."""

    PARQUET = "parquet"
    JSONL = "jsonl"


@dataclass(frozen=True, slots=True)
class ManifestSlice:
    """Some rows of one manifest: a Parquet row group, or a byte range of JSON Lines."""

    url: str
    kind: ManifestKind
    first_row: int
    """Number of the slice's first row in the manifest (0-based), to name bad rows."""
    rows: int
    row_group: int = 0
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Partition:
    """One unit of work: some files, or one manifest slice."""

    key: str
    files: tuple[FileInput, ...] = ()
    manifest: ManifestSlice | None = None

    @property
    def inputs(self) -> int:
        """How many streams the partition holds (files or manifest rows)."""
        return self.manifest.rows if self.manifest is not None else len(self.files)

    def sources(self) -> list[str]:
        """The ``source`` value of each input, in order (what the rows carry)."""
        if self.manifest is None:
            return [file.url for file in self.files]
        first = self.manifest.first_row
        return [row_source(self.manifest.url, first + n) for n in range(self.manifest.rows)]


@dataclass(frozen=True)
class Plan:
    """Every partition of a run, and how many inputs they hold together."""

    partitions: tuple[Partition, ...]
    inputs: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", sum(p.inputs for p in self.partitions))


def row_source(manifest: str, row: int) -> str:
    """The ``source`` of a manifest row: unique per input, as the file URL is."""
    return f"{manifest}#{row}"


def is_url(source: str) -> bool:
    """True for an fsspec URL (``s3://...``, ``memory://...``), false for a local path."""
    return "://" in source


StorageOptions = Mapping[str, Any]
"""Keyword arguments of the fsspec filesystem of URL inputs (``audit --storage-option``)."""


def url_options(url: str, storage_options: StorageOptions) -> dict[str, Any]:
    """The storage options ``url`` is opened with: all of them for a URL, none for a
    local path (whose filesystem has no use for an endpoint or a key)."""
    return dict(storage_options) if is_url(url) else {}


def _filesystem(source: str, storage_options: StorageOptions) -> tuple[Any, str]:
    fsspec = require("fsspec", "audit", "an audit")
    try:
        return fsspec.core.url_to_fs(  # type: ignore[no-any-return]
            source, **url_options(source, storage_options)
        )
    except ImportError as error:
        protocol = source.split("://", 1)[0]
        hint = (
            "install the s3 extra (pip install 'responses-oracle[s3]')"
            if protocol in ("s3", "s3a")
            else "install the library fsspec names"
        )
        raise MissingExtra(
            f"reading {protocol}:// sources needs a filesystem library ({error}); {hint}"
        ) from None
    except (ValueError, TypeError) as error:
        # An unknown protocol, or a --storage-option the filesystem does not take.
        raise PlanError(f"{source}: {error}") from None


@contextmanager
def _planning(source: str) -> Iterator[None]:
    """Any failure to list or read ``source`` while planning is a ``PlanError``: a storage
    library's own exceptions (no credentials, no route to the endpoint) are no
    ``OSError``, and must not end the command with a traceback."""
    try:
        yield
    except (PlanError, MissingExtra):
        raise
    except Exception as error:
        raise PlanError(f"{source}: cannot be listed ({type(error).__name__}: {error})") from None


def _stamp(info: dict[str, Any]) -> str:
    mark = info.get("mtime") or info.get("LastModified") or info.get("ETag") or ""
    return f"{info.get('size')}:{mark}"


def _shown(source: str, found: str) -> str:
    """How rows name a file: local paths as the user wrote them (relative stays relative)."""
    if is_url(source):
        protocol = source.split("://", 1)[0]
        return found if is_url(found) else f"{protocol}://{found}"
    return found if os.path.isabs(source) else os.path.relpath(found)


def _expand(
    source: str, skip: str | None, storage_options: StorageOptions
) -> list[tuple[str, str, dict[str, Any]]]:
    """The files of one SOURCE: (what to open, how rows name it, fsspec info)."""
    with _planning(source):
        return _expanded(source, skip, storage_options)


def _expanded(
    source: str, skip: str | None, storage_options: StorageOptions
) -> list[tuple[str, str, dict[str, Any]]]:
    fs, path = _filesystem(source, storage_options)
    if _GLOB_CHARS & set(path):
        matched = sorted(fs.glob(path))
    elif fs.exists(path):
        matched = [path]
    elif not is_url(source) and (named := resolve(source)) is not None:
        if named.path is None:
            raise PlanError(
                f"{source}: a stream with no file of its own (a generated case or a vector "
                "name), which audit does not read: `responses-oracle vectors export DIR` "
                "writes the vectors as files"
            )
        return _expanded_bundled(source, named.path)
    else:
        raise PlanError(f"{source}: no such file or directory")
    found: list[tuple[str, str, dict[str, Any]]] = []
    for match in matched:
        names = sorted(fs.find(match)) if fs.isdir(match) else [match]
        for name in names:
            if skip is not None and not is_url(source) and _inside(name, skip):
                continue
            try:
                info = fs.info(name)
            except OSError:
                # Listed but not stat-able (a dangling link): the worker's read fails
                # and the input becomes an ``unreadable`` row, as it should.
                info = {"size": 0, "mtime": "unreadable"}
            url = fs.unstrip_protocol(name) if is_url(source) else name
            found.append((url, _shown(source, name), info))
    if not found:
        raise PlanError(f"{source}: matches no file")
    return found


def _expanded_bundled(source: str, shipped: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """The files of a bundled name (``stream_names.resolve``: ``examples/``, ``q07``...),
    named in rows as the user wrote it, not where the package is installed."""
    names = sorted(p for p in shipped.rglob("*") if p.is_file()) if shipped.is_dir() else [shipped]
    found = []
    for name in names:
        shown = os.path.join(source, name.relative_to(shipped)) if shipped.is_dir() else source
        status = name.stat()
        found.append((str(name), os.path.normpath(shown),
                      {"size": status.st_size, "mtime": status.st_mtime}))
    if not found:
        raise PlanError(f"{source}: matches no file")
    return found


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.abspath(path), os.path.abspath(folder)
    return path == folder or path.startswith(folder + os.sep)


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:16]


def _file_partitions(files: list[FileInput], sizes: list[int], size: int) -> list[Partition]:
    partitions: list[Partition] = []
    batch: list[FileInput] = []
    batch_bytes = 0

    def close() -> None:
        key = _key("files", [(f.url, f.stamp) for f in batch])
        partitions.append(Partition(key, files=tuple(batch)))

    for file, file_size in zip(files, sizes, strict=True):
        batch.append(file)
        batch_bytes += file_size
        if len(batch) >= size or batch_bytes >= PARTITION_BYTES:
            close()
            batch, batch_bytes = [], 0
    if batch:
        close()
    return partitions


def _provider_of(shown: str) -> str | None:
    parent = posixpath.basename(posixpath.dirname(shown.replace(os.sep, "/")))
    return parent or None


def manifest_slices(
    manifest: str, size: int = PARTITION_SIZE, storage_options: StorageOptions | None = None
) -> tuple[str, list[ManifestSlice]]:
    """(modification stamp, slices) of one manifest: its Parquet row groups, or byte
    ranges of ``size`` JSON Lines rows.  ``PlanError`` when it cannot be read."""
    with _planning(f"manifest {manifest}"):
        return _manifest_slices(manifest, size, storage_options or {})


def _manifest_slices(
    manifest: str, size: int, storage_options: StorageOptions
) -> tuple[str, list[ManifestSlice]]:
    fs, path = _filesystem(manifest, storage_options)
    if not fs.exists(path) or fs.isdir(path):
        raise PlanError(f"manifest {manifest}: no such file")
    stamp = _stamp(fs.info(path))
    if not path.endswith(".parquet"):
        with fs.open(path, "rb") as file:
            return stamp, [s for s in _jsonl_slices(manifest, file, size) if s.rows]
    pq = require("pyarrow.parquet", "audit", "an audit")
    try:
        with fs.open(path, "rb") as file:
            metadata = pq.ParquetFile(file).metadata
    except Exception as error:
        raise PlanError(f"manifest {manifest}: not a readable Parquet file ({error})") from None
    slices = []
    first = 0
    for group in range(metadata.num_row_groups):
        rows = metadata.row_group(group).num_rows
        if rows:
            slices.append(
                ManifestSlice(manifest, ManifestKind.PARQUET, first, rows, row_group=group)
            )
        first += rows
    return stamp, slices


def _manifest_partitions(
    manifest: str, size: int, storage_options: StorageOptions
) -> list[Partition]:
    stamp, slices = manifest_slices(manifest, size, storage_options)
    return [
        Partition(_key("manifest", manifest, stamp, s.row_group, s.start, s.end), manifest=s)
        for s in slices
    ]


def _jsonl_slices(url: str, file: BinaryIO, size: int) -> Iterator[ManifestSlice]:
    """Byte ranges of ``size`` non-blank lines each (one pass, a line at a time)."""
    start = offset = 0
    first = rows = 0
    for line in file:
        offset += len(line)
        if line.strip():
            rows += 1
        if rows == size:
            yield ManifestSlice(url, ManifestKind.JSONL, first, rows, start=start, end=offset)
            first += rows
            start, rows = offset, 0
    yield ManifestSlice(url, ManifestKind.JSONL, first, rows, start=start, end=offset)


def plan(
    sources: Sequence[str],
    manifests: Sequence[str] = (),
    *,
    partition_size: int = PARTITION_SIZE,
    provider_from_dir: bool = False,
    skip: str | None = None,
    storage_options: StorageOptions | None = None,
) -> Plan:
    """Expand SOURCEs and manifests into partitions (rules in the module docstring).

    ``skip`` is a local folder left out of directory listings: the audit's own output;
    ``storage_options`` go to the filesystem of every URL (``url_options``).
    """
    storage_options = storage_options or {}
    if partition_size < 1:
        raise PlanError(f"partition size must be positive, got {partition_size}")
    files: list[FileInput] = []
    sizes: list[int] = []
    seen: set[str] = set()
    for source in sources:
        for url, shown, info in _expand(source, skip, storage_options):
            canonical = url if is_url(url) else os.path.abspath(url)
            if canonical in seen:
                continue
            seen.add(canonical)
            provider = _provider_of(shown) if provider_from_dir else None
            files.append(FileInput(url, shown, provider, _stamp(info)))
            sizes.append(int(info.get("size") or 0))
    partitions = _file_partitions(files, sizes, partition_size)
    for manifest in manifests:
        partitions += _manifest_partitions(manifest, partition_size, storage_options)
    return Plan(tuple(partitions))


# -- reading one input (on the workers) -----------------------------------------------


def open_chunks(url: str, storage_options: StorageOptions) -> Iterator[bytes]:
    """The decompressed bytes of one input file, ``CHUNK_BYTES`` at a time.

    Raises ``InputFault`` for any failure to open, read or decompress it; its message
    does not repeat ``url``, which the input's row names already.
    """
    fsspec = require("fsspec", "audit", "an audit")
    try:
        with fsspec.open(url, "rb", **url_options(url, storage_options)) as raw:
            stream = decompressed(raw, url)
            while chunk := stream.read(CHUNK_BYTES):
                yield chunk
    except corrupt_errors() as error:  # asked after ``decompressed``, as it must be
        raise InputFault(Fault.CORRUPT_ARCHIVE, f"corrupt archive ({error})") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise InputFault(Fault.UNREADABLE, f"cannot read ({reason})") from None
