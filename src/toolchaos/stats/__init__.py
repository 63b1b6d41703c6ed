"""Statistics: intervals, kappas, proportion tests, bootstrap, pass^k."""
