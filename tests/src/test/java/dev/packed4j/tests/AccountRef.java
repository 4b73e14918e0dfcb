package dev.packed4j.tests;

import dev.packed4j.annotations.Field;
import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;

/** test.Account of tests/native/accounts.cc: getters, setters of its def_rw fields, and its methods. */
@Object("test.Account")
public interface AccountRef extends AutoCloseable {
  /** ObjectRef provides it. */
  String typeKey();

  long id();

  /** Writes a read-only field: the runtime refuses it (a manifest check would refuse it at compile time). */
  void id(long id);

  long balance();

  void balance(long balance);

  int small();

  void small(int small);

  /** The int32 field written from a long: range-checked. */
  @Field("small")
  void smallFromLong(long small);

  /** The int64 field written from an int: widened. */
  @Field("balance")
  void balanceFromInt(int balance);

  long serial();

  void serial(long serial);

  double rate();

  void rate(double rate);

  boolean active();

  void active(boolean active);

  String owner();

  void owner(String owner);

  AccountRef partner();

  void partner(AccountRef partner);

  long deposit(long amount);

  @Method
  String label();

  long transfer(AccountRef to, long amount);

  @Method
  void reset();

  /** A method no type registers: an AttributeError at its call. */
  @Method("withdraw")
  long takeOut(long amount);

  @Override
  void close();
}
