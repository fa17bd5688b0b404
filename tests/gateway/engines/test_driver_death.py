"""Which statement failures mean a managed engine's driver died of the statement (the real out-of-memory:
test_managed_engines.py): Spark's own texts for it, nothing else."""
from __future__ import annotations

from gateway.engines.manager import DRIVER_DIED, driver_death

STAGE_OOM = ("Job aborted due to stage failure: Task 0 in stage 2.0 failed 1 times, most recent failure: Lost task "
             "0.0 in stage 2.0 (TID 2) (localhost executor driver): java.lang.OutOfMemoryError: Java heap space")
STOPPED = "(java.lang.IllegalStateException) Cannot call methods on a stopped SparkContext."


def test_an_out_of_memory_or_a_stopped_context_is_engine_down_saying_so():
    died = driver_death({"root_cause": STAGE_OOM, "exception_stack": "", "error_class": "SparkException",
                         "sqlstate": None, "statement": "SELECT 1"})
    assert died["error_class"] == "ENGINE_DOWN" and died["sqlstate"] == "08006" and died["statement"] == "SELECT 1"
    assert died["root_cause"].startswith(DRIVER_DIED)
    assert "(java.lang.OutOfMemoryError: Java heap space)" in died["root_cause"]
    assert "--driver-memory" in died["root_cause"] and "next statement starts a fresh one" in died["root_cause"]
    stopped = driver_death({"root_cause": "", "exception_stack": STOPPED, "error_class": "UnknownException"})
    assert stopped["error_class"] == "ENGINE_DOWN" and "its SparkContext stopped" in stopped["root_cause"]


def test_other_failures_are_left_as_they_are():
    for error in ({"root_cause": "[TABLE_OR_VIEW_NOT_FOUND] The table or view `t` cannot be found.",
                   "exception_stack": "", "error_class": "TABLE_OR_VIEW_NOT_FOUND"},
                  {"root_cause": "[DIVIDE_BY_ZERO] Division by zero.", "exception_stack": None},
                  {"root_cause": None},
                  # an executor's out-of-memory on a cluster: the task failed, the engine's driver is fine
                  {"root_cause": STAGE_OOM.replace("(localhost executor driver)", "(10.0.0.7 executor 1)")}):
        assert driver_death(error) is None
