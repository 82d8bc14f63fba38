"""The work of one partition, as a worker does it: its inputs in, its rows out.

Theory of operation
-------------------
``run_partition`` is the only function an engine ships to a worker (a process of the
local pool or a Dask worker); it is pure apart from reading the partition's inputs.
Each input is one stream, reduced once in the worker's own process by the reducer's
core (``Reducer``, the incremental face of ``reduce``: fed event by event so that the
worker also counts each response's events and reads its ``model`` from the response
object).  A worker starts no process per stream.

Nothing an input does stops the partition: a file that cannot be read or
decompressed (``sources.InputFault``), bytes that hold no Responses API event, a
manifest row without an id or a body, or persisted output of the wrong shape each
become one failure row (``rows.Rows.failure``), and the next input is read.  The
rows come back to the driver as one ``pyarrow.Table`` in ``PartitionOutput``, which
the driver writes (``store``); the worker writes nothing, so a worker that dies
mid-partition leaves no half-written file and the engine simply runs the partition
again.

``failed_partition`` is the driver's side of the same promise: when a partition
cannot be finished at all (its worker died every time, or it raised), every one of its
inputs still gets a row, marked so that a resumed run tries the partition again.
"""

from __future__ import annotations

import json
import os
import posixpath
import resource
import socket
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from responses_oracle.audit.libraries import require
from responses_oracle.audit.persisted import PersistedError, divergences, pair_output
from responses_oracle.audit.rows import Origin, Rows
from responses_oracle.audit.sources import (
    Fault,
    FileInput,
    InputFault,
    ManifestKind,
    ManifestSlice,
    Partition,
    StorageOptions,
    is_url,
    open_chunks,
    row_source,
    url_options,
)
from responses_oracle.reducer import Reducer
from responses_oracle.wire import DEFAULT_LIMITS, InputFormat, Limits, WireEvent
from responses_oracle.wire import iter_wire_events as wire_events
from responses_oracle.wire.inputs import StreamCheck, is_wire_event

MANIFEST_FIELDS = ("id", "provider", "model", "body", "path", "output")
"""The manifest columns an audit reads; others are ignored."""

PARQUET_BATCH = 64
"""Rows of a Parquet manifest decoded at a time."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What every worker needs to know besides its partition."""

    format: InputFormat = InputFormat.AUTO
    limits: Limits = DEFAULT_LIMITS
    storage_options: StorageOptions = field(default_factory=dict)
    """fsspec options for URL inputs (``sources.url_options``)."""


@dataclass(frozen=True)
class PartitionOutput:
    """What a worker sends back for one partition."""

    key: str
    table: Any
    """The rows, a ``pyarrow.Table`` of ``rows.schema()``."""
    inputs: int
    responses: int
    failed: int
    """Inputs that became failure rows."""
    events: int
    seconds: float
    """Wall time of the partition on its worker."""
    cpu_seconds: float
    """CPU time of the worker process on the partition (independent of the load)."""
    peak_rss: int
    """Peak resident memory of the worker process so far, in bytes."""
    worker: str
    complete: bool = True
    """False when the partition could not be run (its rows are failure rows): a
    resumed run tries it again."""


def audit_stream(
    rows: Rows,
    origin: Origin,
    events: Iterable[WireEvent | Mapping[str, Any]],
    output: Any = None,
) -> int:
    """Reduce one stream into ``rows`` (one row per response, or one failure row).

    ``output`` is the persisted output of a manifest row (None: not given).  Returns
    the number of events read.
    """
    reducer = Reducer()
    counts: list[int] = []
    models: list[str | None] = []
    in_response = 0
    model: str | None = None
    check = StreamCheck()
    try:
        for event in events:
            closed = len(reducer.results)
            reducer.feed(event)
            if len(reducer.results) != closed:
                counts.append(in_response)
                models.append(model)
                in_response, model = 0, None
            in_response += 1
            check.see(event)
            if model is None:  # once known, the reducer alone reads the response's events
                payload = event[1] if type(event) is WireEvent else event
                if is_wire_event(payload):
                    model = _model(payload)  # type: ignore[arg-type]
    except InputFault as fault:
        rows.failure(origin, fault.kind, str(fault), events=check.events, results=reducer.finish())
        return check.events
    total = check.events
    results = reducer.finish()
    if len(results) > len(counts):
        counts.append(in_response)
        models.append(model)
    message = check.verdict(results)
    if message is not None:
        rows.failure(origin, Fault.NOT_A_STREAM, message, events=total, results=results)
        return total
    persisted: list[tuple[int, list[str] | None] | None] = [None] * len(results)
    if output is not None:
        try:
            paired = pair_output(output, len(results))
        except PersistedError as error:
            rows.failure(origin, Fault.BAD_MANIFEST_ROW, str(error), events=total)
            return total
        persisted = [
            (len(items), divergences(result, items))
            for result, items in zip(results, paired, strict=True)
        ]
    for index, result in enumerate(results):
        rows.response(origin, index, result, counts[index], models[index], persisted[index])
    return total


def _model(payload: dict[str, Any]) -> str | None:
    response = payload.get("response")
    if type(response) is dict:
        model = response.get("model")
        if isinstance(model, str):
            return model
    return None


def file_events(url: str, settings: Settings) -> Iterator[WireEvent]:
    """The events of one input file (``InputFault`` when it cannot be read)."""
    return wire_events(open_chunks(url, settings.storage_options), settings.format, settings.limits)


def _audit_file(rows: Rows, file: FileInput, settings: Settings) -> int:
    origin = Origin(file.stream_id, file.url, file.provider, None)
    return audit_stream(rows, origin, file_events(file.url, settings))


def _resolve(manifest: str, path: str) -> str:
    """A manifest row's ``path``: a URL or absolute path as is, else beside the manifest."""
    if is_url(path) or os.path.isabs(path):
        return path
    if is_url(manifest):
        return posixpath.join(posixpath.dirname(manifest), path)
    return os.path.join(os.path.dirname(manifest), path)


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _audit_row(rows: Rows, manifest: str, number: int, row: Any, settings: Settings) -> int:
    source = row_source(manifest, number)
    if not isinstance(row, dict):
        origin = Origin(source, source, None, None)
        rows.failure(origin, Fault.BAD_MANIFEST_ROW, "manifest row is not a JSON object")
        return 0
    stream_id = _text(row.get("id"))
    origin = Origin(
        stream_id or source, source, _text(row.get("provider")), _text(row.get("model"))
    )
    if stream_id is None:
        rows.failure(origin, Fault.BAD_MANIFEST_ROW, "manifest row has no id")
        return 0
    events = row_events(manifest, row, settings)
    if events is None:
        rows.failure(origin, Fault.BAD_MANIFEST_ROW, "manifest row has neither body nor path")
        return 0
    return audit_stream(rows, origin, events, row.get("output"))


def row_events(
    manifest: str, row: Mapping[str, Any], settings: Settings
) -> Iterable[WireEvent | Mapping[str, Any]] | None:
    """The events of a manifest row's stream: its ``body`` (bytes or text in any input
    format, or a list of events), else the file at its ``path``; None without either."""
    body, path = row.get("body"), row.get("path")
    if isinstance(body, str | bytes):
        data = body.encode() if isinstance(body, str) else body
        return wire_events((data,), settings.format, settings.limits)
    if isinstance(body, list):
        return body
    if isinstance(path, str) and path:
        return file_events(_resolve(manifest, path), settings)
    return None


def iter_slice(piece: ManifestSlice, storage_options: StorageOptions) -> Iterator[Any]:
    """The rows of one manifest slice (decoded JSON values, or Parquet rows as dicts).

    Parquet rows are read ``PARQUET_BATCH`` at a time, so a worker holds a few bodies,
    not a whole row group.  Raises ``InputFault`` when the manifest cannot be read.
    """
    fsspec = require("fsspec", "audit", "an audit")
    try:
        with fsspec.open(piece.url, "rb", **url_options(piece.url, storage_options)) as file:
            if piece.kind is ManifestKind.PARQUET:
                pq = require("pyarrow.parquet", "audit", "an audit")
                parquet = pq.ParquetFile(file)
                names = parquet.schema_arrow.names
                batches = parquet.iter_batches(
                    batch_size=PARQUET_BATCH,
                    row_groups=[piece.row_group],
                    columns=[name for name in MANIFEST_FIELDS if name in names],
                )
                for batch in batches:
                    yield from batch.to_pylist()
                return
            file.seek(piece.start)
            text = file.read(piece.end - piece.start)
    except Exception as error:
        raise InputFault(Fault.UNREADABLE, f"{piece.url}: cannot read manifest ({error})") from None
    yield from (_json_line(line) for line in text.splitlines() if line.strip())


def _json_line(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _audit_slice(rows: Rows, piece: ManifestSlice, settings: Settings) -> tuple[int, bool]:
    """Audit a manifest slice: (events read, whether every row could be read)."""
    events = done = 0
    problem = None
    try:
        for row in iter_slice(piece, settings.storage_options):
            events += _audit_row(rows, piece.url, piece.first_row + done, row, settings)
            done += 1
    except InputFault as fault:
        problem = str(fault)
    if done < piece.rows:
        # The manifest could not be read to the end, or is shorter than when it was
        # planned: every row not read is still a row of the dataset.
        message = problem or f"{piece.url}: row missing (the manifest changed since planning)"
        for number in range(piece.first_row + done, piece.first_row + piece.rows):
            source = row_source(piece.url, number)
            rows.failure(Origin(source, source, None, None), Fault.UNREADABLE, message)
    return events, problem is None


def run_partition(partition: Partition, settings: Settings) -> PartitionOutput:
    """Reduce every input of ``partition``; never raises on bad input."""
    started, cpu = time.perf_counter(), time.process_time()
    rows = Rows(partition.key)
    events = 0
    complete = True
    if partition.manifest is None:
        for file in partition.files:
            events += _audit_file(rows, file, settings)
    else:
        events, complete = _audit_slice(rows, partition.manifest, settings)
    return _output(
        partition, rows, events, time.perf_counter() - started, time.process_time() - cpu, complete
    )


def peak_rss() -> int:
    """This process's peak resident memory in bytes.

    Linux's ``VmHWM`` first: ``ru_maxrss`` survives ``execve``, so a spawned worker (a
    Dask ``LocalCluster``'s) would report the peak of the process that spawned it.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _output(
    partition: Partition,
    rows: Rows,
    events: int,
    seconds: float,
    cpu_seconds: float,
    complete: bool = True,
) -> PartitionOutput:
    errors = rows.columns["error_kind"]
    return PartitionOutput(
        key=partition.key,
        table=rows.table(),
        inputs=partition.inputs,
        responses=sum(1 for kind in errors if kind is None),
        failed=sum(1 for kind in errors if kind is not None),
        events=events,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        peak_rss=peak_rss(),
        worker=f"{socket.gethostname()}:{os.getpid()}",
        complete=complete,
    )


def failed_partition(
    partition: Partition, kind: Fault, message: str, *, complete: bool = False
) -> PartitionOutput:
    """One failure row per input of a partition that could not be run."""
    rows = Rows(partition.key)
    for file in partition.files:
        rows.failure(Origin(file.stream_id, file.url, file.provider, None), kind, message)
    if partition.manifest is not None:
        for source in partition.sources():
            rows.failure(Origin(source, source, None, None), kind, message)
    return _output(partition, rows, 0, 0.0, 0.0, complete)
