"""The embedded engine samples a streamed result's first rows to correct Catalyst's string widths (issue 27)
before it admits the stream: the sample is taken by ``executeTake``, one job over the first partition, not by
collecting a limit (a local limit in every partition, a shuffle, a second stage) on the critical path of every
big result; the rows, and so the width measured, are the same."""
from __future__ import annotations

import uuid

from gateway.spark.arrow_stream import SAMPLE_ROWS, _first_rows_arrow, measured_result_bytes, small_result
from gateway.spark.plans import estimated_result_bytes

QUERY = ("SELECT id, id * 1.5 AS d, IF(id % 5 = 0, NULL, concat('ü€-', id)) AS s, date_add(DATE'2020-01-01', "
         "CAST(id % 1000 AS INT)) AS day FROM range(0, 200000, 1, 4)")


def _stages_of_group(spark, group: str) -> list[tuple[int, int]]:
    """(stage id, tasks) of every stage the jobs of ``group`` ran."""
    tracker = spark.sparkContext.statusTracker()
    stages = []
    for job in tracker.getJobIdsForGroup(group):
        for stage in tracker.getJobInfo(job).stageIds:
            info = tracker.getStageInfo(stage)
            stages.append((stage, info.numTasks if info is not None else -1))
    return stages


def test_the_sample_is_one_stage_over_the_first_partition_and_the_same_rows(gateway, session):
    spark = gateway.session(session).spark
    df = spark.sql(QUERY)
    group = f"width-sample-{uuid.uuid4().hex}"
    spark.sparkContext.setJobGroup(group, "the width sample", False)
    try:
        measured = measured_result_bytes(df, df.schema, estimated_result_bytes(df))
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    assert _stages_of_group(spark, group) and all(tasks == 1 for _, tasks in _stages_of_group(spark, group))
    assert len(_stages_of_group(spark, group)) == 1  # no shuffle: the collected limit ran 2 stages, 5 tasks
    sample = _first_rows_arrow(df, SAMPLE_ROWS)
    collected = small_result(df.limit(SAMPLE_ROWS))
    assert sample.equals(collected) and sample.num_rows == SAMPLE_ROWS
    assert sample.column("s")[1].as_py() == "ü€-1" and sample.column("s")[0].as_py() is None
    assert measured is not None and measured.rows_known and measured.bytes > 100 * sample.nbytes  # rows x the width
