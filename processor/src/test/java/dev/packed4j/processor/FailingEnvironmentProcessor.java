package dev.packed4j.processor;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * Runs {@link Packed4jProcessor} in an environment that fails the way a bug would: with an unchecked exception
 * from the {@link Filer}, or from the {@link RoundEnvironment} itself.
 */
final class FailingEnvironmentProcessor extends AbstractProcessor {
  /** Where the exception comes from. */
  enum Failure {
    FILER,
    ROUND
  }

  private final Packed4jProcessor delegate = new Packed4jProcessor();
  private final Failure failure;

  FailingEnvironmentProcessor(Failure failure) {
    this.failure = failure;
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return delegate.getSupportedAnnotationTypes();
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return delegate.getSupportedSourceVersion();
  }

  @Override
  public synchronized void init(ProcessingEnvironment environment) {
    super.init(environment);
    if (failure == Failure.FILER) {
      Filer failingFiler = failing(Filer.class, environment.getFiler(), "createSourceFile");
      delegate.init(
          proxy(
              ProcessingEnvironment.class,
              (method, arguments) ->
                  method.getName().equals("getFiler") ? failingFiler : method.invoke(environment, arguments)));
    } else {
      delegate.init(environment);
    }
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    RoundEnvironment seen =
        failure == Failure.ROUND ? failing(RoundEnvironment.class, round, "getRootElements") : round;
    return delegate.process(annotations, seen);
  }

  /** A proxy of {@code target} whose method {@code failingMethod} throws. */
  private static <T> T failing(Class<T> type, T target, String failingMethod) {
    return proxy(
        type,
        (method, arguments) -> {
          if (method.getName().equals(failingMethod)) {
            throw new IllegalStateException("disk on fire");
          }
          return method.invoke(target, arguments);
        });
  }

  private interface Handler {
    Object handle(java.lang.reflect.Method method, Object[] arguments) throws ReflectiveOperationException;
  }

  private static <T> T proxy(Class<T> type, Handler handler) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, arguments) -> {
              try {
                return handler.handle(method, arguments);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }
}
