"""Spark job and stage progress of an operation, read from the SparkContext's status tracker.

The tracker is public PySpark API and works on any master; it only knows jobs still in the
driver's memory (``spark.ui.retainedJobs``), which covers a running statement.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass
class StageProgress:
    stage_id: int
    name: str
    tasks: int
    completed: int
    active: int
    failed: int


@dataclass
class JobProgress:
    job_id: int
    status: str
    stages: list[StageProgress] = field(default_factory=list)


@dataclass
class OperationProgress:
    """Jobs of the operation's job group and their stages; ``fraction`` of tasks done (0..1)."""

    jobs: list[JobProgress] = field(default_factory=list)

    @property
    def tasks(self) -> int:
        return sum(s.tasks for j in self.jobs for s in j.stages)

    @property
    def completed(self) -> int:
        return sum(s.completed for j in self.jobs for s in j.stages)

    @property
    def active_stages(self) -> list[StageProgress]:
        """Stages of running jobs with tasks still to do."""
        return [s for j in self.jobs if j.status == "RUNNING" for s in j.stages if s.completed < s.tasks]

    @property
    def running_tasks(self) -> int:
        return sum(s.active for j in self.jobs for s in j.stages)

    @property
    def fraction(self) -> Optional[float]:
        return self.completed / self.tasks if self.tasks else None

    def summary(self) -> str:
        if not self.jobs:
            return "no Spark job yet"
        running = sum(1 for j in self.jobs if j.status == "RUNNING")
        stages = self.active_stages
        text = (f"{len(self.jobs)} job(s), {running} running · tasks {self.completed}/{self.tasks} done, "
                f"{self.running_tasks} running")
        if stages:
            text += " · stage " + ", ".join(f"{s.stage_id} ({s.completed}/{s.tasks})" for s in stages[:3])
        return text


def operation_progress(operation) -> OperationProgress:
    tracker = operation.session.spark.sparkContext.statusTracker()
    progress = OperationProgress()
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
