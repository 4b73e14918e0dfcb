/**
 * The tensor room: how a tensor is written for native code (DLTensors in scratch memory, the tensor word of a typed
 * entry) and which wrapped segment lies under which tensor object. {@code NDArray} is the API over it; the layouts
 * are {@code internal.capi}'s {@code DLTensor} and {@code DLManagedTensor}. Callers hand it the scratch memory to
 * write into, so it sits below the call stack and the public package.
 *
 * <p>May import: {@code capi}.
 */
package dev.packed4j.runtime.internal.tensor;
