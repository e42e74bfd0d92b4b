print("dcbench: no benchmarks yet")
