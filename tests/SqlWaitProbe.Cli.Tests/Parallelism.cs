// Three test classes at a time on the two-CPU machine the suite targets, not xunit's default of one per CPU: these
// tests wait on servers, perf and child probes as much as they compute, and with two at a time the machine's CPUs were
// busy 73% of the test run (938 CPU s in 625 s, all processes, 2026-11-29). Tests whose bounds a neighbour could break
// say so in their collection (TimingCollection, KnownCasesCollection).
[assembly: CollectionBehavior(MaxParallelThreads = 3)]
