"""The Z3 proofs of the model: what ``responses-oracle prove`` runs, and their mutants.

``proofs/README.md`` maps each proof row to the files that prove it (bounded, for any
number of entries and channels, over the matcher), the tables it reads and its named
mutants, and says what each module holds.  It is generated from the proof inventory by
``python -m responses_oracle.proofs.readme`` (module ``readme``).
"""
