package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.NativeObject;

/** Functions of tests/native/objects.cc. */
public interface ObjectFunctions {
  @Global("test.MakeNode")
  Node makeNode(int small, long big, long unsignedBig, double ratio, boolean flag, String name);

  @Global("test.MakeDerived")
  DerivedNode makeDerived(String name, long extra);

  /** Returns a test.DerivedNode where a test.Node is declared: fine, a derived object is a base one. */
  @Global("test.MakeDerived")
  Node makeDerivedAsBase(String name, long extra);

  /** Returns a test.Node where a test.DerivedNode is declared: a TypeError. */
  @Global("test.MakeNode")
  DerivedNode makeNodeAsDerived(int small, long big, long unsignedBig, double ratio, boolean flag, String name);

  @Global("test.MakeHidden")
  NativeObject makeHidden(String secret, long level);

  /** Returns a test.Hidden where a test.Node is declared: a TypeError naming both keys. */
  @Global("test.MakeHidden")
  Node makeHiddenAsNode(String secret, long level);

  @Global("test.MakeHidden")
  java.lang.Object makeHiddenAsAny(String secret, long level);

  @Global("test.SetChild")
  void setChild(Node parent, Node child);

  @Global("test.GetChild")
  Node getChild(Node parent);

  @Global("test.MakeLeaf")
  Node makeLeaf(String label);

  @Global("test.NodeName")
  String nameOf(Node node);
}
