package dev.packed4j.tests;

import dev.packed4j.annotations.Global;

/** Scalars, strings and bytes through functions of tests/native/values.cc. */
public interface Values {
  @Global("test.EchoInt64")
  long echoLong(long value);

  @Global("test.EchoInt64")
  int echoLongAsInt(long value);

  @Global("test.EchoInt64")
  short echoLongAsShort(long value);

  @Global("test.EchoInt64")
  byte echoLongAsByte(long value);

  @Global("test.EchoInt64")
  Long echoBoxedLong(Long value);

  @Global("test.AddInt32")
  int addInt32(long a, long b);

  @Global("test.EchoFloat64")
  double echoDouble(double value);

  @Global("test.EchoFloat64")
  float echoFloat(float value);

  @Global("test.EchoBool")
  boolean echoBoolean(boolean value);

  @Global("test.EchoString")
  String echoString(String value);

  @Global("test.StringByteLength")
  long utf8Length(String value);

  @Global("test.BytesAsString")
  String bytesAsString(byte[] bytes);

  @Global("test.EchoBytes")
  byte[] echoBytes(byte[] value);

  @Global("test.UntypedEcho")
  Object echoAny(Object value);

  /** An integer result read as a double: exact or an error, never rounded. */
  @Global("test.UntypedEcho")
  double echoAsDouble(long value);

  @Global("test.UntypedEcho")
  boolean echoLongAsBoolean(long value);

  @Global("test.UntypedMix")
  double mix(byte a, boolean b, float c, double d);

  @Global("test.UntypedMix")
  int mixAsInt(byte a, boolean b, float c, double d);

  @Global("test.CountOccurrences")
  long count(String text, String part, int limit);

  @Global("test.CountOccurrences")
  long countWithLongLimit(String text, String part, long limit);

  @Global("test.ReturnNothing")
  void nothing();

  @Global("test.Raise")
  void raise(String kind, String message);

  /** Declares the wrong parameter type on purpose: the native side names what it expected. */
  @Global("test.EchoInt64")
  long echoLongGivenString(String value);

  /** Declares one argument too many on purpose. */
  @Global("test.EchoInt64")
  long echoLongTwoArguments(long a, long b);

  /** Declares a result of the wrong type on purpose. */
  @Global("test.EchoString")
  long echoStringAsLong(String value);

  @Global("test.NoSuchFunction")
  void missing();
}
