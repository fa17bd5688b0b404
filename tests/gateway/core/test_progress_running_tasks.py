"""Progress counts the tasks that run (issue 31, item 5): it read "tasks 0/2 done, 0 running" while both ran.

Spark's status store writes a stage's active-task count at most once per ``spark.ui.liveUpdate.period``
(100 ms by default) and then only on the next event: tasks that start right after their stage is
submitted stay counted as 0 running until one of them ends.
"""
from __future__ import annotations

from conftest import wait_for

# Two partitions, one row each; each task sleeps, so both run for seconds before either is done.
TWO_SLOW_TASKS = "SELECT reflect('java.lang.Thread', 'sleep', CAST(4000 AS BIGINT)) FROM range(0, 2, 1, 2)"


def test_progress_counts_running_tasks_before_any_is_done(gateway, session):
    op = gateway.execute_statement(session, TWO_SLOW_TASKS)
    seen = []
    try:
        def running_seen() -> bool:
            progress = gateway.get_operation_progress(session, op)
            if progress.tasks and progress.completed == 0:
                seen.append((progress.running_tasks, progress.summary()))
            return any(running for running, _ in seen) or progress.completed > 0 or \
                gateway.get_operation_info(session, op).status.is_terminal

        wait_for(running_seen, timeout_s=120, interval=0.05)
        before_done = [summary for running, summary in seen]
        assert before_done, "no progress was seen before a task ended"
        assert any(running > 0 for running, _ in seen), before_done[-5:]
        assert any(" running" in summary and ", 0 running" not in summary for summary in before_done), before_done[-5:]
    finally:
        gateway.cancel_operation(session, op)
        gateway.close_operation(session, op)
