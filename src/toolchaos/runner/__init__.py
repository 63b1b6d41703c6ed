"""Plans, concurrent execution, the SQLite store, resume and progress."""
