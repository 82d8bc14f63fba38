"""Real agents, agent libraries and gateways, run against ``responses-oracle serve``.

Rules
-----
1. A cell (one client x one scenario) is only what the client did when run: serve's
   three verdicts on its next request, or ``not run`` with the reason.
2. Clients run unmodified, as their users run them, in their own sandbox, in a fresh
   temporary HOME, with a dummy key, telemetry and updates off, against 127.0.0.1 only.
3. Versions are pinned once, in ``profiles``; the clients are installed outside the
   repository by ``tools/record_agents.py``.

Theory of operation
-------------------
``profiles`` is the table of clients (how each is installed, started, sandboxed and
prompted); ``drivers/`` holds the scripts the library clients are run by (an
application's code: tools declared, the public API); ``scenario_list`` the built-in list of
streams serve plays; ``runner`` starts serve and a client per scenario and collects
``verdicts.json`` (``served_verdicts`` reads it); ``report`` prints the summary, the JSON and
the HTML page.  The CLI is ``responses-oracle agents``; the recorded page is
``docs/real-agents.md`` (``responses_oracle.docsite.real_agents``).
"""
