"""Stream generation: Responses event streams made on purpose, deterministic per seed.

Every generator here is a plain function of a ``Chooser``, so the command line
(``diff --seed``, ``vectors export``) repeats a run exactly without Hypothesis, and
the Hypothesis strategies (``responses_oracle.testing.strategies``) shrink the very
same streams.  Everything made is a ``GeneratedStream``.  The stages, in order:

1. ``choices`` — the ``Chooser``: each decision answered by a seeded
   ``random.Random`` or by Hypothesis's ``draw``.
2. ``streams`` — ``openai_stream``: a protocol-valid stream as OpenAI sends it, the
   items, their interleaving and the terminal event; hands on a ``GeneratedStream``.
3. ``provider_profiles`` — rewrites a valid stream the way one provider or gateway
   deviates (``PROFILES``); ``faults`` — puts exactly one fault into a stream.
4. ``walk`` — ``model_guided_stream``: a walk that takes only the transitions the
   lifecycle table enables (plus, at most, one fault).
5. ``cases`` — case *i* of a seed: which of the generators above makes it (``MIX``),
   and the corpus files read from disk; hands a ``Case`` to the differential harness
   (``responses_oracle.differential``).
6. ``provenance`` — where a case's shape comes from (a real provider, or synthetic
   only), read from the labels the stages above put on it.
7. ``edits`` — ``edited_stream``: a stream of the stages above with one to four hostile
   edits (resumes anywhere, extra terminals, bad fields, changed snapshots), so that the
   refinement's streams take every branch of the driver.
"""
