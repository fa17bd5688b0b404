"""The one adapter over Spark: every reach into the JVM lives in this package."""
