/** An application that is a named module: what it needs from packed4j, and what packed4j needs from it. */
module com.example.modular {
  requires dev.packed4j.runtime;
  // The annotations are read by the compiler and the processor only.
  requires static dev.packed4j.annotations;
  // Packed4j.bind instantiates the generated Packed4j_Greeter of this package.
  exports com.example.modular to dev.packed4j.runtime;
}
