"""The routing benchmark: plan, runner, verdicts, metrics, statistics, cache, report model."""
