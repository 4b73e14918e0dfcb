package dev.packed4j.samples.callbacks;

import dev.packed4j.runtime.NativeClosure;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.util.List;
import java.util.function.LongUnaryOperator;

/** Loads the callbacks plugin and passes functions both ways. */
public final class CallbacksApp {
  private CallbacksApp() {}

  public static void main(String[] args) {
    // The plugin packed4j-maven-plugin built into this jar (META-INF/native/linux-x86_64/libcallbacks.so).
    Packed4j.loadLibrary("callbacks");
    Callbacks callbacks = Packed4j.bind(Callbacks.class);

    // Callbacks in: a Java lambda that C++ calls once per element.
    List<Long> squares = callbacks.mapList(x -> x * x, List.of(1L, 2L, 3L, 4L));
    System.out.println("MapList(x -> x * x, [1, 2, 3, 4]) = " + squares);

    // Java globals: static @Global methods registered by name, found and called from C++.
    Packed4j.register(HostFunctions.class);
    System.out.println("registered: " + Registry.list().stream().filter(n -> n.startsWith("host.")).toList());
    System.out.println("GreetAll greeted " + callbacks.greetAll(List.of("Ada", "Grace")) + " names");

    // Errors both ways: C++ catches a Java exception as a packed4j::Error.
    try (PackedFunction failing = PackedFunction.of(arguments -> {
      throw new IllegalStateException("no coffee");
    })) {
      System.out.println("TryCall = " + callbacks.tryCall(failing));
    }

    // Closures out: the counter lives in C++ and keeps its state between calls.
    LongUnaryOperator counter = callbacks.makeCounter(10);
    counter.applyAsLong(1);
    System.out.println("counter after +1, +5: " + counter.applyAsLong(5));
    ((NativeClosure) counter).close(); // releases the C++ lambda now, not when the GC collects counter
  }
}
