"""The probes: bandwidth, matmul, overhead, fusion and the decode sweep. Each imports torch lazily."""
