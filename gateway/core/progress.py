"""Spark job and stage progress of an operation, read from the SparkContext's status tracker.

The tracker is public PySpark API and works on any master; it only knows jobs still in the
driver's memory (``spark.ui.retainedJobs``), which covers a running statement.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional
from gateway.spark.backend import Capability, supports
from gateway.models import StageProgress, JobProgress, OperationProgress  # noqa: F401  (value types of the contract)


def operation_progress(operation) -> OperationProgress:
    progress = OperationProgress()
    if not supports(operation.session.spark, Capability.SPARK_CONTEXT):
        return progress  # Spark Connect: no status tracker in this process (the server's UI shows the jobs)
    tracker = operation.session.spark.sparkContext.statusTracker()
    for job_id in sorted(tracker.getJobIdsForGroup(operation.job_group)):
        job = tracker.getJobInfo(job_id)
        if job is None:
            continue
        entry = JobProgress(job_id, str(job.status))
        for stage_id in job.stageIds:
            stage = tracker.getStageInfo(stage_id)
            if stage is not None:
                entry.stages.append(StageProgress(stage_id, stage.name, stage.numTasks, stage.numCompletedTasks,
                                                  stage.numActiveTasks, stage.numFailedTasks))
        progress.jobs.append(entry)
    return progress
