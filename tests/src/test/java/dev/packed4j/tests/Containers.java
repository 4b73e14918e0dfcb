package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Functions of tests/native/containers.cc. */
public interface Containers {
  @Global("test.SumInt64List")
  long sum(List<Long> values);

  /** Declares the wrong element type on purpose: the native side names the index. */
  @Global("test.SumInt64List")
  long sumStrings(List<String> values);

  @Global("test.Range")
  List<Long> range(long count);

  @Global("test.Range")
  NativeList<Long> rangeLive(long count);

  @Global("test.EchoInt64List")
  List<Long> echoLongs(List<Long> values);

  @Global("test.EchoStringMap")
  Map<String, Long> echoStringMap(Map<String, Long> values);

  @Global("test.EchoContainer")
  List<Object> echoNested(List<Object> values);

  @Global("test.EchoContainer")
  List<List<Long>> echoListOfLists(List<List<Long>> values);

  @Global("test.EchoContainer")
  Map<String, List<Map<Long, String>>> echoDeep(Map<String, List<Map<Long, String>>> values);

  @Global("test.EchoContainer")
  NativeList<Long> share(List<Long> values);

  @Global("test.EchoContainer")
  Map<Node, Long> echoNodeKeys(Map<Node, Long> values);

  @Global("test.IntKeyMap")
  Map<Long, Long> intKeyMap(long count);

  @Global("test.IntKeyMap")
  NativeMap<Long, Long> intKeyMapLive(long count);

  @Global("test.LookUp")
  long lookUp(Map<Long, Long> map, long key);

  @Global("test.DuplicateKeys")
  Map<String, Long> duplicateKeys();

  @Global("test.MapOfLists")
  Map<String, List<Double>> mapOfLists();

  @Global("test.MaybeName")
  Optional<String> maybeName(boolean present);

  @Global("test.DescribeOptional")
  String describe(Optional<Long> value);

  @Global("test.SharedList")
  NativeList<Long> sharedList();

  @Global("test.SharedListAppend")
  void appendInCpp(long value);

  @Global("test.SharedListSum")
  long sumInCpp();

  @Global("test.Hold")
  void hold(List<Node> nodes);

  @Global("test.ReleaseHeld")
  void releaseHeld();

  @Global("test.UseCount")
  long useCount(Node node);

  @Global("test.MakeNode")
  Node makeNode(int small, long big, long unsignedBig, double ratio, boolean flag, String name);
}
