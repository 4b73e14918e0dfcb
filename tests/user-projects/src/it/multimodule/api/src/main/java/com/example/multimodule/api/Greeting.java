package com.example.multimodule.api;

import dev.packed4j.annotations.Global;

/** The functions of libgreeting.so, which the native module builds. */
public interface Greeting {
  @Global("greeting.Hello")
  String hello(String name);
}
