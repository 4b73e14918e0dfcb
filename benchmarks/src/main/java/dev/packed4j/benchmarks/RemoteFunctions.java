package dev.packed4j.benchmarks;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.NDArray;

/** packed4j-remote's test plugin (remote/native), as RemoteBenchmark calls it through a session. */
public interface RemoteFunctions {
  @Global("remote.Add")
  int add(int a, int b);

  @Global("remote.EchoTensor")
  NDArray echo(NDArray tensor);
}
