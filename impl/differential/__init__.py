"""The differential harness: a candidate and the reference on the same streams, and why they differ.

A *candidate* is the parser under test; what it returns for a stream is its
*answer*.  The cases come from ``responses_oracle.streamgen``; the reference is the
reducer.  ``harness`` drives the stages, in order:

1. ``candidate`` — the candidate protocol and the candidates that speak it
   (``ProcessCandidate`` for any program, ``FunctionCandidate`` in process; the
   built-in ``oracle_candidate``, ``openai_candidate`` and ``agents_candidate``, and
   the Go adapters ``go_candidates`` builds: openai-go, and AxonHub's against a
   checkout); hands on one ``Answer`` per stream.
2. ``oracle_trace`` — the reference's side: its results, its event-by-event trace,
   the rule behind each decision.
3. ``compare`` — *where* an answer differs from the reference's: ``Difference``s,
   modulo minted ids.
4. ``taxonomy`` — *what harm* each difference does: its ``Divergence`` class.
5. ``cause`` — *why*: each difference's signature (the rule, the reference's
   decision, the events involved), the key findings are clustered by.
6. ``hypotheses`` — which client policy explains a cause, so one bug of a client is
   one cluster.
7. ``shrink`` — each cluster's representative cut to a minimal stream that still
   shows its cause.
8. ``findings`` — ``Finding``, ``Cluster`` and ``DiffReport``: the report, as text or
   JSON.
9. ``upstream`` — one bug report and one failing test per cluster, in the client's
   own language (``diff --report-dir``).

``conformance_vectors`` holds the same answers as a language-neutral corpus of JSON
files (``vectors export``, ``vectors check``), read from the bundled ``corpus.json``;
``completion`` makes each of its streams a complete provider stream with declared
deviations (a rule test's minimal stream completed but for the gaps that are its
point).
"""
