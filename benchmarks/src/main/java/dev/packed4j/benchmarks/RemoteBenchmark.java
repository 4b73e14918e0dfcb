package dev.packed4j.benchmarks;

import dev.packed4j.remote.Packed4jServer;
import dev.packed4j.remote.internal.SessionChannels;
import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Session;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sessions (issue 26) against bare gRPC on the same channel: a packed4j-server in this JVM on a loopback port,
 * hosting packed4j-remote's test plugin ({@code -Dpacked4j.bench.remotePlugin}), with a plain gRPC service beside it
 * whose one method adds two ints carried as 16 raw bytes (no protobuf: the cheapest unary call gRPC can make).
 *
 * <ul>
 *   <li>{@code remoteAdd} against {@code bareAdd}: one {@code add(int, int)} through {@code session.bind}'s proxy
 *       (arguments and result as protobuf values, the server's dynamic call into C++), and one bare unary call;
 *   <li>{@code remoteConcurrent} against {@code bareConcurrent}: 1,000 such calls at once, one virtual thread each,
 *       per operation;
 *   <li>{@code remoteTensor64MiB}: a 64 MiB float32 tensor to {@code remote.EchoTensor} and back (copied both ways);
 *       MB/s = 64 MiB / the time.
 * </ul>
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RemoteBenchmark {
  static final String PROPERTY = "packed4j.bench.remotePlugin";
  private static final int CONCURRENT_CALLS = 1000;
  private static final long TENSOR_BYTES = 64L << 20;

  /** The bare method: two longs in, their sum out, 16 and 8 raw bytes. */
  static final MethodDescriptor<long[], long[]> BARE_ADD = MethodDescriptor.<long[], long[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName(MethodDescriptor.generateFullMethodName("bench.Bare", "Add"))
      .setRequestMarshaller(new LongsMarshaller())
      .setResponseMarshaller(new LongsMarshaller())
      .build();

  private Packed4jServer server;
  private Session session;
  private RemoteFunctions remote;
  private Channel channel;
  private CallOptions callOptions;
  private ExecutorService threads;
  private NDArray tensor;
  private int a = 20;
  private int b = 22;

  @Setup(Level.Trial)
  public void setUp() {
    String plugin = System.getProperty(PROPERTY);
    if (plugin == null || !Files.isRegularFile(Path.of(plugin))) {
      throw new IllegalStateException(PROPERTY + " must name packed4j-remote's test plugin (remote/target/native/"
          + "libp4jremote.so, built by `mvn -pl remote -am verify -DskipTests`), got " + plugin);
    }
    ServerServiceDefinition bare = ServerServiceDefinition.builder("bench.Bare")
        .addMethod(BARE_ADD, ServerCalls.asyncUnaryCall((request, reply) -> {
          reply.onNext(new long[] {request[0] + request[1]});
          reply.onCompleted();
        }))
        .build();
    BindableService bareService = () -> bare;
    server = Packed4jServer.start(List.of("--port", "0", plugin), bareService);
    session = Packed4j.connect(server.address());
    remote = session.bind(RemoteFunctions.class);
    channel = SessionChannels.channel(session);
    callOptions = CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS);
    threads = Executors.newVirtualThreadPerTaskExecutor();
    tensor = NDArray.allocate(DType.FLOAT32, TENSOR_BYTES / 4);
    Expect.equal(42L, (long) remoteAdd(), "remote add");
    Expect.equal(42L, bareAdd(), "bare add");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    tensor.close();
    threads.shutdownNow();
    session.close();
    server.close();
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int remoteAdd() {
    return remote.add(a, b);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public long bareAdd() {
    return ClientCalls.blockingUnaryCall(channel, BARE_ADD, callOptions.withDeadlineAfter(30, TimeUnit.SECONDS),
        new long[] {a, b})[0];
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public long remoteConcurrent() throws Exception {
    List<Future<Integer>> calls = new ArrayList<>(CONCURRENT_CALLS);
    for (int i = 0; i < CONCURRENT_CALLS; i++) {
      int value = i;
      calls.add(threads.submit(() -> remote.add(value, 1)));
    }
    long total = 0;
    for (Future<Integer> call : calls) {
      total += call.get();
    }
    return total;
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public long bareConcurrent() throws Exception {
    List<Future<Long>> calls = new ArrayList<>(CONCURRENT_CALLS);
    for (int i = 0; i < CONCURRENT_CALLS; i++) {
      long value = i;
      calls.add(threads.submit(() -> ClientCalls.blockingUnaryCall(channel, BARE_ADD,
          callOptions.withDeadlineAfter(30, TimeUnit.SECONDS), new long[] {value, 1})[0]));
    }
    long total = 0;
    for (Future<Long> call : calls) {
      total += call.get();
    }
    return total;
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public long remoteTensor64MiB() {
    try (NDArray back = remote.echo(tensor)) {
      return back.shape()[0];
    }
  }

  /** Longs as raw little-endian bytes: the least a gRPC message can be. */
  static final class LongsMarshaller implements MethodDescriptor.Marshaller<long[]> {
    @Override
    public InputStream stream(long[] values) {
      ByteBuffer bytes = ByteBuffer.allocate(8 * values.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (long value : values) {
        bytes.putLong(value);
      }
      return new ByteArrayInputStream(bytes.array());
    }

    @Override
    public long[] parse(InputStream stream) {
      try {
        ByteBuffer bytes = ByteBuffer.wrap(stream.readAllBytes()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long[] values = new long[bytes.remaining() / 8];
        for (int i = 0; i < values.length; i++) {
          values[i] = bytes.getLong();
        }
        return values;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
