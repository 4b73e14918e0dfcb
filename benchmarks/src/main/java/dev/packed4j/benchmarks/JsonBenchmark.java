package dev.packed4j.benchmarks;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Objects as data (issue 23): 100,000 small objects (three numeric fields and a string each, {@code bench.Record})
 * saved to JSON and loaded back with {@link Packed4j#toJson} and {@link Packed4j#fromJson}, against Jackson writing
 * and reading the same values as Java records. The packed4j side saves a list built in C++ and loads it into new
 * native objects (released after each load); Jackson writes a {@code List} of records and reads it back into new
 * records. {@code roundTrip} is the pair issue 23's goal compares; {@code save} and {@code load} show where the
 * time goes.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class JsonBenchmark extends BenchmarkSettings {
  static final int RECORDS = 100_000;

  /** The Java side of one {@code bench.Record}, for Jackson. */
  public record JavaRecord(long id, long count, double score, String label) {}

  private static final TypeReference<List<JavaRecord>> RECORD_LIST = new TypeReference<>() {};

  private NativeList<?> records;
  private String json;
  private List<JavaRecord> javaRecords;
  private String jacksonJson;
  private final ObjectMapper mapper = new ObjectMapper();

  @Setup
  public void setUp() throws Exception {
    BenchLibrary.bind();
    try (PackedFunction make = Registry.global("bench.MakeRecords")) {
      records = (NativeList<?>) make.invoke((long) RECORDS);
    }
    json = Packed4j.toJson(records);
    javaRecords = new ArrayList<>(RECORDS);
    for (int i = 0; i < RECORDS; i++) {
      javaRecords.add(new JavaRecord(i, 3L * i, i / 8.0, "record-" + i));
    }
    jacksonJson = mapper.writeValueAsString(javaRecords);
    try (NativeList<?> back = (NativeList<?>) Packed4j.fromJson(json)) {
      Expect.equal(RECORDS, back.size(), "records loaded by Packed4j.fromJson");
      Expect.equal(true, Packed4j.structuralEquals(records, back), "structurally equal after a round trip");
      try (NativeObject last = (NativeObject) back.get(RECORDS - 1)) {
        Expect.equal("record-" + (RECORDS - 1), last.get("label"), "the last record's label");
      }
    }
    Expect.equal(javaRecords, mapper.readValue(jacksonJson, RECORD_LIST), "Jackson's round trip");
  }

  @TearDown
  public void tearDown() {
    records.close();
  }

  @Benchmark
  public int packed4jRoundTrip() {
    String saved = Packed4j.toJson(records);
    try (NativeList<?> back = (NativeList<?>) Packed4j.fromJson(saved)) {
      return back.size();
    }
  }

  @Benchmark
  public int jacksonRoundTrip() throws Exception {
    String saved = mapper.writeValueAsString(javaRecords);
    return mapper.readValue(saved, RECORD_LIST).size();
  }

  @Benchmark
  public String packed4jSave() {
    return Packed4j.toJson(records);
  }

  @Benchmark
  public String jacksonWrite() throws Exception {
    return mapper.writeValueAsString(javaRecords);
  }

  @Benchmark
  public int packed4jLoad() {
    try (NativeList<?> back = (NativeList<?>) Packed4j.fromJson(json)) {
      return back.size();
    }
  }

  @Benchmark
  public int jacksonRead() throws Exception {
    return mapper.readValue(jacksonJson, RECORD_LIST).size();
  }
}
