"""What the tests share: a real app server (appserver), a throwaway PostgreSQL server (pg),
the plain oracle the rules are checked against (oracle), and the store tests' helpers
(store_helpers). Fixtures stay in the conftest.py of each folder."""
