package dev.packed4j.tests;

import dev.packed4j.annotations.Constructor;
import dev.packed4j.annotations.Global;
import dev.packed4j.annotations.Method;
import java.util.function.LongUnaryOperator;

/** Constructors, static methods and globals of tests/native/accounts.cc. */
public interface Accounts {
  @Constructor
  AccountRef open(long id, String owner);

  @Constructor
  SavingsRef openSavings(long id, String owner, long bonus);

  @Method(of = AccountRef.class)
  AccountRef parse(String text);

  @Method(of = AccountRef.class, value = "count")
  long add(long a, long b);

  /** A static method the child inherits from its parent. */
  @Method(of = SavingsRef.class, value = "parse")
  AccountRef parseViaSavings(String text);

  @Global("test.accounts.MakeChecking")
  AccountRef makeChecking(long id, String owner);

  @Global("test.accounts.BalanceOf")
  long balanceOf(AccountRef account);

  /** Calls {@code then} from C++, then reads the account's balance there. */
  @Global("test.accounts.BalanceAfter")
  long balanceAfter(AccountRef account, LongUnaryOperator then);
}
