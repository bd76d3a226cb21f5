"""The Bot API's 1,000-stream benchmark (issue 20): `python -m benchmarks.streams`."""
